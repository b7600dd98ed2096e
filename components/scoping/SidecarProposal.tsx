'use client';

import { useState } from 'react';
import type { GeneratedSidecar } from './api';
import { Badge } from '../ui/Card';
import { num, pct } from './format';
import { YamlActions } from './YamlActions';
import { proposalExclusionBadge, proposalExclusionText } from './exclusions-text';

/**
 * One proposed Sidecar, folded to one line (what it governs and what it saves); its warnings and
 * YAML are rendered only once it is opened.
 */
export function SidecarProposal({ g, open = false }: { g: GeneratedSidecar; open?: boolean }) {
  const [shown, setShown] = useState(open);
  const saved = g.clustersBefore - g.clustersAfter;
  const id = `proposal-${g.namespace}-${g.name}`;
  return (
    <details
      className="group rounded border border-slate-200 px-3 py-2"
      data-testid={id}
      open={open}
      onToggle={(e) => setShown((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span aria-hidden className="text-slate-500 group-open:rotate-90">
            ▶
          </span>
          <span className="font-mono font-medium text-slate-900">
            {g.namespace}/{g.name}
          </span>
          <Badge tone={g.level === 'namespace' ? 'info' : 'neutral'}>
            {g.level === 'namespace' ? 'namespace default' : `workload: ${g.workloads.join(', ')}`}
          </Badge>
          <Badge tone={g.action === 'unchanged' ? 'neutral' : 'warn'}>
            {g.action === 'replace' ? `replaces ${g.replaces ?? ''}` : g.action}
          </Badge>
          {!g.apply && <Badge tone="bad">not recommended to apply</Badge>}
          {g.exclusions && (
            <Badge tone={g.exclusions.proposed ? 'info' : 'neutral'}>
              {proposalExclusionBadge(g)}
            </Badge>
          )}
          {g.warnings.some((w) => w.code === 'IST0111') && (
            <Badge tone="bad">also delete the conflicting Sidecar(s) named below</Badge>
          )}
        </div>
        <span className="text-xs text-slate-700" data-testid="proposal-saves-short">
          {num(saved)} fewer clusters ({pct(saved, g.clustersBefore)})
        </span>
      </summary>
      {shown && <ProposalBody g={g} id={id} saved={saved} />}
    </details>
  );
}

function ProposalBody({ g, id, saved }: { g: GeneratedSidecar; id: string; saved: number }) {
  return (
    <div className="mt-2 space-y-2">
      <YamlActions
        yaml={g.yaml}
        filename={`sidecar-${g.namespace}-${g.name}.yaml`}
        testId={`${id}-yaml`}
      />
      <p className="text-sm text-slate-700" data-testid="proposal-saves">
        {num(g.proxies)} proxies: <strong>{num(g.clustersBefore)}</strong> clusters today,{' '}
        <strong>{num(g.clustersAfter)}</strong> after applying:{' '}
        <strong className="text-emerald-700">
          {num(saved)} fewer ({pct(saved, g.clustersBefore)})
        </strong>
      </p>
      {g.exclusions && (
        <p className="text-sm text-slate-700" data-testid="proposal-exclusions">
          {proposalExclusionText(g)}
        </p>
      )}
      {g.warnings.length > 0 && (
        <ul className="space-y-0.5 text-xs text-amber-800" data-testid={`${id}-warnings`}>
          {g.warnings.map((w, i) => (
            <li key={i}>
              <span className="font-mono">{w.code}</span> {w.message}
            </li>
          ))}
        </ul>
      )}
      <pre
        tabIndex={0}
        className="overflow-x-auto rounded bg-slate-900 p-3 font-mono text-xs leading-snug text-slate-100"
        data-testid="sidecar-yaml"
      >
        {g.yaml}
      </pre>
    </div>
  );
}
