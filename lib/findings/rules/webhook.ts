/**
 * IST0139 InvalidWebhook, as istioctl's webhook.Analyzer reports it, on Istio's injector
 * webhooks (a MutatingWebhookConfiguration with a webhook named `*istio.io`, or one that names
 * an `istio.io/rev` revision):
 * - overlap: for every namespace and pod a revision label, `istio-injection` and
 *   `sidecar.istio.io/inject` can describe, at most one webhook may match, or the pod is injected
 *   twice; each webhook that matches with others is reported once per set of others;
 * - a webhook whose clientConfig names a Service that does not exist (the injector is gone).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { objectKey } from '../../refs/object-ref';
import { defineRule } from './rule';
import { labelSelectorMatches } from './label-selector';
import { obj, list, strings } from './raw';

const CATALOG = defineCatalog('config', {
  invalidWebhook: {
    code: 'IST0139',
    severity: 'error',
    title: 'InvalidWebhook',
    description:
      'An Istio injector webhook overlaps with another (a pod would be injected twice) or calls a control plane Service that does not exist (pods of the namespaces it serves are not admitted or not injected).',
    istio: {
      since: '1.0',
      why: "Injector webhooks are Istio 1.0's (revisions, which make two overlap, from 1.5); istioctl analyze reports IST0139 since 1.10.",
    },
  },
});

const REVISION = 'istio.io/rev';

type Labels = Readonly<Record<string, string>>;

interface Hook {
  /** "configuration/webhook", as istioctl names a webhook. */
  id: string;
  config: KubeObject;
  namespaceSelector: unknown;
  objectSelector: unknown;
  service: { namespace: string; name: string } | null;
}

function revisionsOf(selector: unknown): string[] {
  const s = obj(selector);
  if (s === null) return [];
  const out: string[] = [];
  const m = obj(s.matchLabels)?.[REVISION];
  if (typeof m === 'string') out.push(m);
  for (const e of list(s.matchExpressions)) {
    if (obj(e)?.key === REVISION) out.push(...strings(obj(e)?.values));
  }
  return out;
}

/** Istio's webhooks and the revisions they name. */
function istioHooks(configs: readonly KubeObject[]): { hooks: Hook[]; revisions: Set<string> } {
  const hooks: Hook[] = [];
  const revisions = new Set<string>();
  for (const config of configs) {
    const entries = list((config as KubeObject & { webhooks?: unknown }).webhooks).flatMap((w) => {
      const o = obj(w);
      return o === null ? [] : [o];
    });
    const revs: string[] = [];
    const own = obj(config.metadata.labels)?.[REVISION];
    if (typeof own === 'string') revs.push(own);
    for (const w of entries)
      revs.push(...revisionsOf(w.namespaceSelector), ...revisionsOf(w.objectSelector));
    const istio = entries.some((w) => typeof w.name === 'string' && w.name.endsWith('istio.io'));
    if (revs.length === 0 && !istio) continue;
    for (const r of revs) revisions.add(r);
    for (const w of entries) {
      const svc = obj(obj(w.clientConfig)?.service);
      hooks.push({
        id: `${config.metadata.name}/${typeof w.name === 'string' ? w.name : ''}`,
        config,
        namespaceSelector: w.namespaceSelector,
        objectSelector: w.objectSelector,
        service:
          svc === null
            ? null
            : {
                namespace: typeof svc.namespace === 'string' ? svc.namespace : '',
                name: typeof svc.name === 'string' ? svc.name : '',
              },
      });
    }
  }
  return { hooks, revisions };
}

/** The label sets istioctl tries: none, enabled, disabled; each again with every revision. */
function permutations(key: string, on: string, off: string, revisions: Set<string>): Labels[] {
  const base: Labels[] = [{}, { [key]: on }, { [key]: off }];
  return [...base, ...[...revisions].flatMap((r) => base.map((b) => ({ ...b, [REVISION]: r })))];
}

function finding(hook: Hook, part: string, evidence: Finding['evidence'], why: string): Finding {
  return {
    code: CATALOG.code.invalidWebhook,
    severity: CATALOG.byKey.invalidWebhook.severity,
    subject: { kind: 'MutatingWebhookConfiguration', name: hook.config.metadata.name },
    part: { kind: 'field', name: part },
    evidence: { webhook: hook.id, ...evidence },
    fix: { why },
  };
}

function overlaps(hooks: readonly Hook[], revisions: Set<string>): Finding[] {
  const seen = new Map<string, Finding>();
  const nsLabels = permutations('istio-injection', 'enabled', 'disabled', revisions);
  const podLabels = permutations('sidecar.istio.io/inject', 'true', 'false', revisions);
  for (const nl of nsLabels) {
    for (const pl of podLabels) {
      const matched = hooks.filter(
        (h) =>
          labelSelectorMatches(h.namespaceSelector, nl) &&
          labelSelectorMatches(h.objectSelector, pl),
      );
      const ids = [...new Set(matched.map((h) => h.id))].sort();
      if (ids.length < 2) continue;
      for (const id of ids) {
        const others = ids.filter((x) => x !== id).join(' ');
        const key = `${id}|${others}`;
        const hook = matched.find((h) => h.id === id);
        if (seen.has(key) || hook === undefined) continue;
        seen.set(
          key,
          finding(
            hook,
            `webhooks[${id.slice(id.indexOf('/') + 1)}] overlaps ${others}`,
            {
              overlapsWith: others,
              namespaceLabels: JSON.stringify(nl),
              podLabels: JSON.stringify(pl),
            },
            'Narrow the namespaceSelector/objectSelector of one webhook (or remove the stale configuration) so each pod matches one injector: this one would inject it twice.',
          ),
        );
      }
    }
  }
  return [...seen.values()];
}

function missingServices(hooks: readonly Hook[], services: readonly KubeObject[]): Finding[] {
  const known = new Set(
    services.map((s) => objectKey(s.metadata.namespace ?? '', s.metadata.name)),
  );
  return hooks.flatMap((h) => {
    if (h.service === null) return [];
    const ref = objectKey(h.service.namespace, h.service.name);
    if (known.has(ref)) return [];
    return [
      finding(
        h,
        `webhooks[${h.id.slice(h.id.indexOf('/') + 1)}].clientConfig.service`,
        { service: ref },
        `Point the webhook at the injector's Service (istiod of its revision), or delete the configuration if that control plane is gone: ${ref} does not exist.`,
      ),
    ];
  });
}

export const WEBHOOK = defineRule({
  id: 'webhook',
  analyzer: 'webhook.Analyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0139', kinds: ['MutatingWebhookConfiguration'] }],
  reads: ['MutatingWebhookConfiguration', 'Service'],
  check(ctx) {
    const { hooks, revisions } = istioHooks(ctx.objects('MutatingWebhookConfiguration'));
    return [...overlaps(hooks, revisions), ...missingServices(hooks, ctx.objects('Service'))];
  },
});
