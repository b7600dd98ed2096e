'use client';

import { useState } from 'react';
import type { ViewState } from '../../lib/api/viewstate';
import { ErrorPanel } from '../ui/ErrorPanel';
import { Card } from '../ui/Card';
import { IncidentReport } from './IncidentReport';
import { uploadIncidentsLog, type UploadAnswer } from './api';
import { useClusterContext } from '../data/useClusterContext';

/** Paste or upload an access log (e.g. from `kubectl logs`), analysed against the same pod IP history. */
export function UploadPanel({ state }: { state: ViewState<'incidents'> }) {
  const [text, setText] = useState('');
  const [format, setFormat] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<UploadAnswer | null>(null);
  const ctx = useClusterContext();

  async function analyze(body: string) {
    setBusy(true);
    try {
      setResult(await uploadIncidentsLog(ctx, state, format || undefined, body));
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
