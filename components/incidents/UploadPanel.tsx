'use client';

import { useState } from 'react';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import { ApiErrorSchema } from '../../lib/api/errors';
import { viewStateQuery, type ViewState } from '../../lib/api/viewstate';
import { ErrorPanel } from '../ui/ErrorPanel';
import { Card } from '../ui/Card';
import { IncidentReport } from './IncidentReport';
import { withContext } from '../../lib/api/context';
import { useClusterContext } from '../data/useClusterContext';

type Result =
  { kind: 'view'; view: IncidentsView } | { kind: 'error'; message: string; hint?: string };

/** Paste or upload an access log (e.g. from `kubectl logs`), analysed against the same pod IP history. */
export function UploadPanel({ state }: { state: ViewState<'incidents'> }) {
  const [text, setText] = useState('');
  const [format, setFormat] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const ctx = useClusterContext();

  async function analyze(body: string) {
    setBusy(true);
    try {
      const q = viewStateQuery({
        from: state.from,
        to: state.to,
        service: state.service,
        ip: state.ip,
        format: format || undefined,
      });
      const res = await fetch(withContext(`/api/incidents/upload${q}`, ctx), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        body,
      });
      const data: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const err = ApiErrorSchema.safeParse(data);
        setResult({
          kind: 'error',
          message: err.success ? err.data.error.message : `upload answered ${res.status}`,
          hint: err.success ? err.data.error.hint : undefined,
        });
      } else setResult({ kind: 'view', view: IncidentsViewSchema.parse(data) });
    } catch (e) {
      setResult({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card title="Analyse a pasted or uploaded access log" testId="incident-upload">
      <div className="no-print space-y-2">
        <textarea
          className="h-28 w-full rounded border border-slate-300 p-2 font-mono text-xs"
          placeholder='[2026-11-01T12:00:31.003Z] "POST /api/v1/charge HTTP/1.1" 503 UC ...'
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="upload-text"
        />
        <div className="flex flex-wrap items-center gap-3 text-xs text-slate-600">
          <input
            type="file"
            aria-label="Access log file to analyse"
            accept=".log,.txt,.json,text/plain"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void f.text().then((t) => analyze(t));
            }}
          />
          <label className="flex items-center gap-1">
            Envoy format (optional)
            <input
              className="w-96 rounded border border-slate-300 px-1 py-0.5 font-mono"
              value={format}
              onChange={(e) => setFormat(e.target.value)}
              placeholder='[%START_TIME%] "%REQ(:METHOD)% ..."'
            />
          </label>
          <button
            type="button"
            disabled={busy || text.trim() === ''}
            className="rounded bg-sky-700 px-3 py-1 text-sm text-white disabled:opacity-50"
            onClick={() => void analyze(text)}
            data-testid="upload-analyze"
          >
            {busy ? 'Analysing…' : 'Analyse'}
          </button>
        </div>
        <p className="text-xs text-slate-500">
          Up to 8 MiB; the time window, service and IP filters above apply. Unreadable lines are
          listed with their line numbers.
        </p>
      </div>
      {result?.kind === 'error' && (
        <ErrorPanel title="Could not analyse the log" message={result.message} hint={result.hint} />
      )}
      {result?.kind === 'view' && (
        <div className="mt-4">
          <IncidentReport view={result.view} />
        </div>
      )}
    </Card>
  );
}
