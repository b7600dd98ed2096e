/**
 * The mesh-wide proxy defaults (the `istio` ConfigMap's `mesh` key, via lib/timeline's
 * parseMeshConfig), fetched once and refreshed in the background after `ttlMs`, so readers never
 * wait for the API server after the first read. A failed read is reported, never thrown.
 */
import type { ConfigMap } from '../../lib/kube/types';
import { parseMeshConfig, type MeshSettings } from '../../lib/timeline/meshconfig';

export interface MeshConfigState {
  settings: MeshSettings | undefined;
  /** 'configmap', 'mesh', 'meshConfig', 'none' (read, nothing found), 'missing' (no ConfigMap), 'error'. */
  from: string;
  errors: string[];
  /** Bumped when the settings change. */
  version: number;
}

export class MeshConfigCache {
  private state: MeshConfigState = { settings: undefined, from: 'none', errors: [], version: 0 };
  private loadedAt = 0;
  private lastText: string | null | undefined = undefined;
  /** What the last successful read said (its settings' source and parse errors). */
  private lastRead: Omit<MeshConfigState, 'version'> | null = null;
  private inflight: Promise<void> | null = null;

  constructor(
    private readonly fetch: () => Promise<ConfigMap | null>,
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The current settings; the first call waits for the ConfigMap, later ones refresh behind. */
  async get(): Promise<MeshConfigState> {
    if (this.lastText === undefined) await this.refresh();
    else if (this.now() - this.loadedAt > this.ttlMs) void this.refresh();
    return this.state;
  }

  refresh(): Promise<void> {
    this.inflight ??= this.load().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async load(): Promise<void> {
    try {
      const cm = await this.fetch();
      this.loadedAt = this.now();
      const text = cm ? JSON.stringify(cm) : null;
      if (text === this.lastText && this.lastRead) {
        // the same content as the last good read: a failed read since then is over
        if (this.state.errors !== this.lastRead.errors || this.state.from !== this.lastRead.from)
          this.state = { ...this.lastRead, version: this.state.version };
        return;
      }
      this.lastText = text;
      if (!cm) {
        this.set(undefined, 'missing', ['no istio ConfigMap: mesh defaults assumed']);
        return;
      }
      const r = parseMeshConfig(text ?? '');
      this.set(
        r.settings.from === 'none' ? undefined : r.settings,
        r.settings.from,
        r.errors.map((e) => `istio ConfigMap ${e.line}:${e.column}: ${e.message}`),
      );
    } catch (e) {
      this.loadedAt = this.now();
      if (this.lastText === undefined) this.lastText = null;
      this.state = {
        ...this.state,
        from: this.state.settings ? this.state.from : 'error',
        errors: [`could not read the istio ConfigMap: ${(e as Error).message}`],
      };
    }
  }

  private set(settings: MeshSettings | undefined, from: string, errors: string[]): void {
    this.lastRead = { settings, from, errors };
    this.state = { settings, from, errors, version: this.state.version + 1 };
  }
}
