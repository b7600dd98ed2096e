/**
 * IST0002 Deprecated, as istioctl's telemetry.LightstepAnalyzer reports it: a Telemetry whose
 * `tracing` sends spans to an extension provider of the mesh config that is a Lightstep one
 * (`extensionProviders[].lightstep`), once per such provider it names. Istio deprecated the
 * Lightstep provider: tracing should move to an OpenTelemetry provider.
 *
 * The mesh config is RuleContext.meshConfig (the one given beside the objects, else the `istio`
 * ConfigMap's); Istio's own providers (prometheus, stackdriver, envoy) are no Lightstep ones, so
 * with none nothing is reported. The catalog entry is deprecation.FieldAnalyzer's
 * (./deprecated-fields.ts), the same object; evidence.reftype 'lightstep provider' tells these
 * findings apart.
 */
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, objects, specOf, str, type Raw } from './raw';
import { DEPRECATED_CATALOG } from './deprecated-fields';

/** The names of the mesh config's Lightstep extension providers. */
function lightstepNames(mesh: Readonly<Raw> | null): Set<string> {
  const names = new Set<string>();
  for (const p of objects(mesh?.extensionProviders)) {
    const name = str(p.name);
    if (name !== undefined && obj(p.lightstep) !== null) names.add(name);
  }
  return names;
}

/** The provider names of a Telemetry's tracing entries, each once, in order. */
function tracingProviders(spec: Raw | null): string[] {
  const names = list(spec?.tracing).flatMap((t) =>
    objects(obj(t)?.providers).flatMap((p) => str(p.name) ?? []),
  );
  return [...new Set(names)];
}

export const TELEMETRY_LIGHTSTEP = defineRule({
  id: 'telemetry-lightstep',
  analyzer: 'telemetry.LightstepAnalyzer',
  catalog: DEPRECATED_CATALOG,
  claims: [{ code: 'IST0002', kinds: ['Telemetry'], reftypes: ['lightstep provider'] }],
  reads: ['Telemetry', 'ConfigMap'],
  check(ctx) {
    const lightstep = lightstepNames(ctx.meshConfig);
    if (lightstep.size === 0) return [];
    return ctx.objects('Telemetry').flatMap((t) =>
      tracingProviders(specOf(t))
        .filter((name) => lightstep.has(name))
        .map((provider): Finding => {
          const subject: Finding['subject'] = { kind: 'Telemetry', name: t.metadata.name };
          if (t.metadata.namespace !== undefined) subject.namespace = t.metadata.namespace;
          return {
            code: DEPRECATED_CATALOG.code.deprecated,
            severity: DEPRECATED_CATALOG.byKey.deprecated.severity,
            subject,
            part: { kind: 'field', name: `tracing.providers[${provider}]` },
            evidence: { reftype: 'lightstep provider', provider },
            fix: {
              why: `The Lightstep provider ${provider} is deprecated: declare an OpenTelemetry extension provider (opentelemetry: {service, port}) in the mesh config and trace to it.`,
            },
          };
        }),
    );
  },
});
