/**
 * IST0175 JwksUriFetchUnrestricted, as istioctl's authn.BlockedCIDRsAnalyzer reports it: when
 * any RequestAuthentication exists, every istiod Deployment (label app=istiod) none of whose
 * containers sets BLOCKED_CIDRS_IN_JWKS_URIS to a non-empty value. istiod fetches the jwksUri of
 * every RequestAuthentication itself; without that list, whoever may write a
 * RequestAuthentication can make istiod fetch any address it reaches (cloud metadata, internal
 * services). As upstream, the existence of a RequestAuthentication is enough (its jwksUri is not
 * read: an inline jwks fetches nothing, but istioctl still reports), the value must be literal
 * (an env from a ConfigMap or Secret is not seen), and init containers are not read.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { objectKey, objectKeyOf } from '../../refs/object-ref';
import { obj, objects, specOf, str, stringMap } from './raw';

const CATALOG = defineCatalog('config', {
  jwksUnrestricted: {
    code: 'IST0175',
    severity: 'warning',
    title: 'JwksUriFetchUnrestricted',
    description:
      'RequestAuthentications exist but istiod has no BLOCKED_CIDRS_IN_JWKS_URIS: istiod fetches every jwksUri itself from inside the cluster, so anyone allowed to create a RequestAuthentication can make it request internal addresses (cloud metadata, cluster services) on their behalf.',
    istio: {
      since: '1.29',
      why: 'BLOCKED_CIDRS_IN_JWKS_URIS, which the finding asks istiod to set, is first in Istio 1.29.0; istioctl analyze reports IST0175 since 1.30.',
    },
  },
});

const ENV = 'BLOCKED_CIDRS_IN_JWKS_URIS';
/** How many RequestAuthentications istioctl names before it counts the rest. */
const NAMED = 5;

function setsBlockedCidrs(deployment: KubeObject): boolean {
  const containers = obj(obj(specOf(deployment)?.template)?.spec)?.containers;
  return objects(containers).some((c) =>
    objects(c.env).some((e) => e.name === ENV && (str(e.value) ?? '') !== ''),
  );
}

/** istioctl's list: the first five `ns/name`, then how many more. */
function namesText(names: readonly string[]): string {
  if (names.length <= NAMED) return names.join(', ');
  return `${names.slice(0, NAMED).join(', ')}, and ${names.length - NAMED} more`;
}

export const BLOCKED_CIDRS = defineRule({
  id: 'blocked-cidrs',
  analyzer: 'authn.BlockedCIDRsAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0175', kinds: ['Deployment'] }],
  reads: ['RequestAuthentication', 'Deployment'],
  check(ctx) {
    const ras = ctx.objects('RequestAuthentication').map((r) => objectKeyOf(r));
    if (ras.length === 0) return [];
    return ctx
      .objects('Deployment')
      .filter((d) => stringMap(d.metadata.labels).app === 'istiod' && !setsBlockedCidrs(d))
      .map((d): Finding => {
        const ns = d.metadata.namespace ?? 'default';
        return {
          code: CATALOG.code.jwksUnrestricted,
          severity: CATALOG.byKey.jwksUnrestricted.severity,
          subject: { kind: 'Deployment', namespace: ns, name: d.metadata.name },
          evidence: { requestAuthentications: ras.length, names: namesText(ras), env: ENV },
          fix: {
            why: `Set ${ENV} on istiod to the CIDRs its JWKS fetches must never reach (the metadata range, and the internal ranges unless a jwksUri is served from them).`,
            yaml: `# istiod's Helm values (or the env of the discovery container of ${objectKey(ns, d.metadata.name)})\npilot:\n  env:\n    ${ENV}: "169.254.0.0/16,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16"`,
          },
        };
      });
  },
});
