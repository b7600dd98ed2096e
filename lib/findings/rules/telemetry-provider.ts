/**
 * IST0157 InvalidTelemetryProvider, as istioctl's telemetry.ProviderAnalyzer reports it: when the
 * mesh config names no default access log provider (`defaultProviders.accessLogging` empty or
 * unset, as in Istio's defaults), a Telemetry with an `accessLogging` entry that names no
 * provider and does not disable logging (`disabled: true`) is reported, once per Telemetry.
 * istiod has nowhere to send that entry's logs, so it is ignored: its filter, match or
 * enabling does nothing.
 *
 * The mesh config is RuleContext.meshConfig (the one given beside the objects, else the `istio`
 * ConfigMap's); with none, Istio's defaults apply (no default access log provider). A mesh config
 * that cannot be read is none: istioctl would refuse it, meshdx reads it as the defaults.
 */
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, specOf, type Raw } from './raw';

const CATALOG = defineCatalog('config', {
  invalidTelemetryProvider: {
    code: 'IST0157',
    severity: 'warning',
    title: 'InvalidTelemetryProvider',
    description:
      'A Telemetry access logging entry names no provider while the mesh config sets no default access log provider: istiod ignores the entry, so the access logs (or the filter) it was written for never happen.',
    istio: {
      since: '1.11',
      why: "The mesh config's defaultProviders.accessLogging, which the finding looks for, is first in Istio 1.11.0; istioctl analyze reports IST0157 since 1.17.",
    },
  },
});

/** The `accessLogging[i]` entries that name no provider and do not disable logging. */
function providerlessEntries(spec: Raw): string[] {
  if (!Array.isArray(spec.accessLogging)) return [];
  return spec.accessLogging.flatMap((entry: unknown, i) => {
    const e = obj(entry);
    // disabled: true, or a `disabled` istioctl cannot read (no boolean): not judged
    if (e === null || (e.disabled !== undefined && e.disabled !== null && e.disabled !== false))
      return [];
    const providers = e.providers;
    if (providers !== undefined && providers !== null && !Array.isArray(providers)) return [];
    return list(providers).length === 0 ? [`accessLogging[${i}]`] : [];
  });
}

export const TELEMETRY_PROVIDER = defineRule({
  id: 'telemetry-provider',
  analyzer: 'telemetry.ProviderAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0157', kinds: ['Telemetry'] }],
  reads: ['Telemetry', 'ConfigMap'],
  check(ctx) {
    const defaults = obj(ctx.meshConfig?.defaultProviders);
    if (list(defaults?.accessLogging).length > 0) return [];
    return ctx.objects('Telemetry').flatMap((t): Finding[] => {
      const spec = specOf(t);
      const entries = spec === null ? [] : providerlessEntries(spec);
      if (entries.length === 0) return [];
      const subject: Finding['subject'] = { kind: 'Telemetry', name: t.metadata.name };
      if (t.metadata.namespace !== undefined) subject.namespace = t.metadata.namespace;
      return [
        {
          code: CATALOG.code.invalidTelemetryProvider,
          severity: CATALOG.byKey.invalidTelemetryProvider.severity,
          subject,
          evidence: { entries: entries.join(', '), meshDefaultAccessLogging: 'none' },
          fix: {
            why: 'Name a provider in each accessLogging entry (providers: [{name: envoy}]), set disabled: true to switch logging off, or set the mesh config defaultProviders.accessLogging for entries without one.',
          },
        },
      ];
    });
  },
});
