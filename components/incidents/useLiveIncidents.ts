'use client';

import { useEffect, useRef, useState } from 'react';
import { viewStateQuery } from '../../lib/api/viewstate';
import {
  emptyStats,
  newLiveBuffer,
  pushLive,
  type LiveBuffer,
  type LiveStats,
} from '../../lib/incidents/live';
import {
  liveBatchOf,
  liveFailureOf,
  openLiveIncidents,
  type LiveProblem,
  type Marker,
} from './api';

export interface LiveState {
  status: 'off' | 'connecting' | 'live' | 'paused' | 'ended' | 'failed';
  buffer: LiveBuffer;
  /** Exact counts over every follow of the session (pauses included). */
  stats: LiveStats;
  markers: Marker[];
  problems: LiveProblem[];
  clients: string[];
  error: string | null;
}

/** Rows the browser keeps at most, whatever the session's length. */
export const LIVE_CAP = 2000;

const initial = (): LiveState => ({
  status: 'off',
  buffer: newLiveBuffer(LIVE_CAP),
  stats: emptyStats(),
  markers: [],
  problems: [],
  clients: [],
  error: null,
});

function addStats(a: LiveStats, b: LiveStats): LiveStats {
  return {
    lines: a.lines + b.lines,
    records: a.records + b.records,
    failing: a.failing + b.failing,
    skipped: a.skipped + b.skipped,
    errors: a.errors + b.errors,
  };
}

/**
 * Follows the Incidents live stream while `running`: pausing closes it (the server then ends its
 * log follows), resuming opens a new one from the last line seen. Unmounting closes it too.
 */
export function useLiveIncidents(
  context: string | null,
  query: { client?: string; service?: string; ip?: string; namespace?: string },
  opts: { enabled: boolean; paused: boolean; since: string },
): LiveState {
  const [state, setState] = useState<LiveState>(initial);
  const base = useRef<LiveStats>(emptyStats());
  const resumeFrom = useRef<string | null>(null);
  const latestStats = useRef<LiveStats>(emptyStats());
  const { enabled, paused, since } = opts;
  const q = viewStateQuery(query);
  useEffect(() => {
    if (!enabled) {
      base.current = emptyStats();
      latestStats.current = emptyStats();
      resumeFrom.current = null;
      setState(initial());
      return;
    }
    if (paused) {
      setState((s) => ({ ...s, status: 'paused' }));
      return;
    }
    const from = resumeFrom.current ?? since;
    const es = openLiveIncidents(context, q, from);
    setState((s) => ({ ...s, status: 'connecting', error: null }));
    es.addEventListener('open', () => setState((s) => ({ ...s, status: 'live' })));
    es.addEventListener('batch', (ev) => {
      const b = liveBatchOf((ev as MessageEvent<string>).data);
      if (!b) return;
      const stats = addStats(base.current, b.stats);
      latestStats.current = stats;
      for (const r of b.rows)
        if (r.time && (!resumeFrom.current || r.time > resumeFrom.current))
          resumeFrom.current = r.time;
      setState((s) => {
        const buffer = pushLive(s.buffer, b.rows);
        const markers = b.markers.length ? b.markers : s.markers;
        return {
          ...s,
          status: 'live',
          buffer,
          stats,
          markers,
          problems: b.problems,
          clients: b.clients,
        };
      });
    });
    es.addEventListener('failure', (ev) => {
      const message = liveFailureOf((ev as MessageEvent<string>).data);
      setState((s) => ({ ...s, status: 'failed', error: message ?? 'failed' }));
    });
    es.addEventListener('end', () => {
      es.close();
      setState((s) => ({ ...s, status: s.status === 'failed' ? 'failed' : 'ended' }));
    });
    es.addEventListener('error', () => {
      if (es.readyState === es.CLOSED)
        setState((s) => ({ ...s, status: 'failed', error: 'the live stream closed' }));
    });
    return () => {
      es.close();
      // the next follow starts its own counts: keep what this one counted
      base.current = latestStats.current;
    };
  }, [enabled, paused, since, q, context]);
  return state;
}
