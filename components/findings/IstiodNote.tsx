'use client';

import type { FindingsReport } from './api';
import { istioRangeText } from '../../lib/findings/istio-version';
import { istiodVersionText } from '../../lib/findings/istiod';
import { counted } from '../../lib/text-list';

type Istiod = NonNullable<FindingsReport['istiod']>;
type Entry = FindingsReport['catalog'][number];

const who = (s: Istiod['notApplicable'][number]['subject']) =>
  `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`;

/**
 * The istiod version the findings were judged against (where it was read), or why it is
 * unknown, and the findings of codes not for it: listed here, in none of the page's counts.
 */
export function IstiodNote({
  istiod,
  notApplicable,
  catalog,
}: {
  istiod: Istiod | undefined;
  /** The findings not for this istiod that the page's filters keep (report.istiod's). */
  notApplicable: Istiod['notApplicable'];
  catalog: Map<string, Entry>;
}) {
  if (istiod === undefined)
    return (
      <p className="text-xs text-slate-600" data-testid="findings-istiod">
        The findings were not judged against an istiod version.
      </p>
    );
  if (istiod.releases.length === 0)
    return (
      <p className="text-xs text-slate-600" data-testid="findings-istiod" data-istiod="unknown">
        istiod version unknown: {istiod.unknown ?? 'not read'}. No finding is judged by Istio
        version.
      </p>
    );
  const version = istiodVersionText(istiod);
  return (
    <div className="text-xs text-slate-600" data-testid="findings-istiod" data-istiod={version}>
      <p>
        Judged against istiod {version} ({istiod.releases.map((r) => r.from).join('; ')})
        {istiod.unknown ? `; ${istiod.unknown}` : ''}.
      </p>
      {notApplicable.length > 0 && (
        <details className="mt-1" data-testid="findings-not-for-istiod">
          <summary className="cursor-pointer">
            {counted(notApplicable.length, 'finding')} not for istiod {version}: listed here, in no
            count
          </summary>
          <ul className="mt-1 space-y-0.5 pl-3">
            {notApplicable.map((f, i) => {
              const e = catalog.get(f.code);
              return (
                <li key={`${f.code}|${who(f.subject)}|${f.part?.name ?? ''}|${i}`}>
                  <span className="font-mono">{f.code}</span> {e?.title ?? ''} on {who(f.subject)}
                  {f.part ? ` ${f.part.kind} ${f.part.name}` : ''}
                  {e ? ` (${istioRangeText(e.istio)})` : ''}
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </div>
  );
}
