/**
 * The history store's share of a gathered archive: the pod IP intervals that overlap the window
 * and the failing requests recorded in it, read from the store file the dashboard keeps for the
 * context (opened read-only: the dashboard may be writing it), narrowed to the namespaces asked.
 */
import fs from 'node:fs';
import type { PodInterval } from '../../lib/ledger/types';
import type { StoredFailure } from '../../lib/incidents/failure-store';
import { tryParsePodRef } from '../../lib/refs/pod-ref';
import { openHistoryStore } from '../store/history-store';

export interface WindowHistory {
  file: string | null;
  problem: string | null;
  intervals: PodInterval[];
  failures: StoredFailure[];
}

/** Whether an interval was held at some time in [fromMs, toMs]. */
function overlaps(i: PodInterval, fromMs: number, toMs: number): boolean {
  const end = i.goneAt ?? Infinity;
  return i.from <= toMs && end >= fromMs;
}

/** The window's intervals and failures of the store at `file`, or why there are none. */
export function readWindowHistory(
  file: string,
  window: { fromMs: number; toMs: number },
  namespaces: readonly string[] | null,
): WindowHistory {
  if (file === ':memory:')
    return {
      file: null,
      problem:
        'MESHDX_DB is :memory: (the dashboard keeps no history file): give the store with --history FILE',
      intervals: [],
      failures: [],
    };
  if (!fs.existsSync(file))
    return {
      file,
      problem: `no history store at ${file}: meshdx has not recorded this context there (give the dashboard's store with --history FILE)`,
      intervals: [],
      failures: [],
    };
  let store;
  try {
    store = openHistoryStore(file, { readonly: true });
  } catch (e) {
    return {
      file,
      problem: `the history store ${file} cannot be opened: ${(e as Error).message}`,
      intervals: [],
      failures: [],
    };
  }
  try {
    const inScope = (ns: string | undefined) =>
      namespaces === null || (ns !== undefined && namespaces.includes(ns));
    const intervals = store
      .intervals()
      .filter((i) => overlaps(i, window.fromMs, window.toMs) && inScope(i.namespace))
      .sort((a, b) => a.from - b.from || a.ip.localeCompare(b.ip));
    const failures = store.failures
      .inWindow(window)
      .filter((f) => inScope(tryParsePodRef(f.source.proxy)?.namespace));
    return { file, problem: null, intervals, failures };
  } finally {
    store.close();
  }
}
