'use client';

import { useState } from 'react';
import type { IncidentsView, LiveProblem } from './api';
import { fmtDuration } from '../../lib/incidents/format';

const utc = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

interface LiveInfo {
  status: string;
  received: number;
  dropped: number;
  lines: number;
  problems: LiveProblem[];
  error: string | null;
}

/**
 * The window the view shows, in words, with zoom out, back to the default window, a link to
 * exactly this window, and the live switch. A link copied in live mode is the absolute window
 * seen so far.
 */
export function WindowBar({
  view,
  urlWindow,
  onWindow,
  live,
  liveControls,
}: {
  view: IncidentsView;
  urlWindow: { from?: string; to?: string };
  onWindow: (from: string | undefined, to: string | undefined) => void;
  live: LiveInfo | null;
  liveControls: {
    on: boolean;
    paused: boolean;
    canLive: boolean;
    onLive: (on: boolean) => void;
    onPause: (p: boolean) => void;
  };
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const from = Date.parse(view.chart.from);
  const to = Date.parse(view.chart.to);
  const span = to - from;
  const step = view.chart.bucketMs;
  const chosen = Boolean(urlWindow.from || urlWindow.to);
  const link = () => {
    const u = new URL(window.location.href);
    u.searchParams.set('from', view.chart.from);
    u.searchParams.set('to', view.chart.to);
    return u.toString();
  };
  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm"
      data-testid="incident-window"
    >
      <p className="text-slate-800">
        Window <span className="font-mono">{utc(view.chart.from)}</span> to{' '}
        <span className="font-mono">{utc(view.chart.to)}</span> ({fmtDuration(span)},{' '}
        {step < 60_000 ? `${step / 1000} s` : fmtDuration(step)} bins)
        {chosen ? '' : ' — the failures found, with a minute before'}
      </p>
      <div className="no-print flex flex-wrap items-center gap-2">
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
          onClick={() =>
            onWindow(new Date(from - span / 2).toISOString(), new Date(to + span / 2).toISOString())
          }
          disabled={liveControls.on}
        >
          Zoom out
        </button>
        {chosen && (
          <button
            type="button"
            className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
            onClick={() => onWindow(undefined, undefined)}
            disabled={liveControls.on}
          >
            Default window
          </button>
        )}
        <button
          type="button"
          className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
          data-testid="copy-window-link"
          onClick={() => {
            const l = link();
            setCopied(l);
            void navigator.clipboard?.writeText(l).catch(() => undefined);
          }}
        >
          Copy link to this window
        </button>
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            data-testid="live-switch"
            checked={liveControls.on}
            disabled={!liveControls.canLive}
            onChange={(e) => liveControls.onLive(e.target.checked)}
          />
          Live
        </label>
        {liveControls.on && (
          <button
            type="button"
            data-testid="live-pause"
            className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
            onClick={() => liveControls.onPause(!liveControls.paused)}
          >
            {liveControls.paused ? 'Resume' : 'Pause'}
          </button>
        )}
      </div>
      {live && (
        <div className="w-full text-xs text-slate-700" data-testid="live-status" aria-live="polite">
          <p>
            Live ({live.status}): {live.lines} new log lines, {live.received} failing requests
            attributed as they arrived
            {live.dropped
              ? ` (the table holds the newest; the oldest ${live.dropped} left it, every count and the chart keep them)`
              : ''}
            .{live.error ? ` ${live.error}.` : ''}
          </p>
          {live.problems.length > 0 && (
            <ul data-testid="live-problems">
              {live.problems.map((p) => (
                <li key={p.source} data-gone={p.gone ? 'true' : undefined}>
                  {p.gone ? p.problem : `${p.source}: ${p.problem}`}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {copied && (
        <p className="w-full break-all font-mono text-xs text-slate-600" data-testid="copied-link">
          {copied}
        </p>
      )}
    </div>
  );
}
