/**
 * What `meshdx gather` asks of the code that reaches a cluster, and what it gets back. The
 * command line (cli/commands/gather.ts) parses the flags and prints; the capture itself
 * (server/gather) is handed to it by the process that runs the command (bin/meshdx.mjs), since
 * the command line reaches no server/ module itself.
 */
import type { GatherManifest } from './extras';

export interface GatherRequest {
  /** A kubeconfig file (--kubeconfig); absent: MESHDX_KUBECONFIG, KUBECONFIG, ~/.kube/config. */
  kubeconfig: string | null;
  /** A context of the kubeconfig (--context); absent: its current context. */
  context: string | null;
  /** Only these namespaces (--namespace, repeated); null: every namespace. */
  namespaces: string[] | null;
  /** The window's length (--since), and as the user wrote it. */
  sinceMs: number;
  sinceText: string;
  /** The archive to write (absolute path). */
  out: string;
  /**
   * The history store to read (--history, absolute); null: the file the dashboard keeps for the
   * context under MESHDX_DB (default `data/`).
   */
  history: string | null;
  /** One line per phase (the command prints it to stderr). */
  progress: (line: string) => void;
}

export interface GatherResult {
  manifest: GatherManifest;
  /** Entries written, and the archive's size in bytes. */
  entries: number;
  bytes: number;
}

/** The capture: rejects with an Error whose message names what went wrong. */
export type Gatherer = (req: GatherRequest) => Promise<GatherResult>;
