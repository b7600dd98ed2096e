/**
 * istioctl's analyzer inputs applied with real kubectl to a fresh simulator: every object is
 * either stored or refused for the reason a real API server (with Istio's and the Gateway API's
 * CRDs installed) gives. Decided per case:
 * - Pods and Deployments without a container image, a Service without ports (`spec: {}`
 *   included), Service ports
 *   without names (several ports) or with protocol HTTP, and names with capitals are 422
 *   Invalid, as kube-apiserver's validation (and apiextensions' name check for CRs) refuses them;
 *   istioctl reads these files offline and never sends them to a server.
 * - QuotaSpec (config.istio.io/v1alpha2, removed from Istio long ago) is not served: "no matches
 *   for kind", as on any current cluster.
 * - Mesh config files are not Kubernetes objects: kubectl refuses them before sending anything.
 * Everything else, including CustomResourceDefinitions, Secrets, Nodes, webhooks, Istio and
 * Gateway API kinds and `kind: List`, is created.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../test-support/fixtures';
import { KUBECTL, kubectlSim, requireKubectl } from './kubectl-harness';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the analyzer-input apply test of the simulator');

const exec = promisify(execFile);
const DIR = fixturePath('istio_config', 'analyzer');

interface Doc {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  items?: Doc[];
}

/** Every file under the analyzer folder (recursively, as `apply -R` reads it). */
function yamlFiles(dir: string, prefix = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? yamlFiles(path.join(dir, e.name), `${prefix}${e.name}/`)
        : /\.ya?ml$/.test(e.name)
          ? [`${prefix}${e.name}`]
          : [],
    )
    .sort();
}

function docsOf(file: string): Doc[] {
  const out: Doc[] = [];
  for (const d of parseAllDocuments(fs.readFileSync(path.join(DIR, file), 'utf8'))) {
    const v = d.toJS() as Doc | null;
    if (v === null || typeof v !== 'object') continue;
    if (v.kind === 'List' && Array.isArray(v.items)) out.push(...v.items);
    else out.push(v);
  }
  return out;
}

/** What kubectl prints for an object: "deployment.apps/name", "pod/name". */
function printed(doc: Doc): string {
  const group = (doc.apiVersion ?? '').includes('/') ? (doc.apiVersion ?? '').split('/')[0] : '';
  const kind = (doc.kind ?? '').toLowerCase();
  return `${group === '' ? kind : `${kind}.${group}`}/${doc.metadata?.name ?? ''}`;
}

const NAME_RULE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const invalid = (what: string, rest: string) =>
  `Error from server (Invalid): error when creating "FILE": ${what} is invalid: ${rest}`;
const noImage = (pod: string) =>
  invalid(`Pod "${pod}"`, 'spec.containers[0].image: Required value');
const NOT_AN_OBJECT =
  'error validating "FILE": error validating data: [apiVersion not set, kind not set]';

/** Per file: the objects refused (by name) and the exact errors kubectl prints for them. */
const REFUSED: Record<string, { names: string[]; errors: string[] }> = {
  'condition-analyzer.yaml': {
    names: ['negative-condition-svc', 'negative-condition-svcEntry'],
    errors: [
      invalid('Service "negative-condition-svc"', 'spec.ports: Required value'),
      invalid(
        'ServiceEntry.networking.istio.io "negative-condition-svcEntry"',
        `metadata.name: Invalid value: "negative-condition-svcEntry": ${NAME_RULE}`,
      ),
    ],
  },
  'conflicting-gateways-subSelector.yaml': {
    names: ['my-ingressgateway-1', 'my-ingressgateway-2'],
    errors: [noImage('my-ingressgateway-1'), noImage('my-ingressgateway-2')],
  },
  'deployment-multi-service-different-ns.yaml': {
    names: ['conflicting-ports-1'],
    errors: [
      invalid(
        'Service "conflicting-ports-1"',
        'spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ),
    ],
  },
  'gateway-custom-ingressgateway-badport-notarget.yaml': {
    names: ['my-ingressgateway-1234'],
    errors: [noImage('my-ingressgateway-1234')],
  },
  'gateway-custom-ingressgateway-badport.yaml': {
    names: ['my-ingressgateway-1234'],
    errors: [noImage('my-ingressgateway-1234')],
  },
  'gateway-custom-ingressgateway-svcselector.yaml': {
    names: ['my-ingressgateway-8001', 'my-ingressgateway-8002'],
    errors: [noImage('my-ingressgateway-8001'), noImage('my-ingressgateway-8002')],
  },
  'gateway-custom-ingressgateway-translation.yaml': {
    names: ['my-ingressgateway-1234'],
    errors: [noImage('my-ingressgateway-1234')],
  },
  'gateway-custom-ingressgateway.yaml': {
    names: ['my-ingressgateway-1234'],
    errors: [noImage('my-ingressgateway-1234')],
  },
  'gateway-secrets.yaml': {
    names: ['custom-gateway', 'defaultgateway-bogusCredentialName'],
    errors: [
      invalid('Pod "custom-gateway"', 'spec.containers: Required value'),
      invalid(
        'Gateway.networking.istio.io "defaultgateway-bogusCredentialName"',
        `metadata.name: Invalid value: "defaultgateway-bogusCredentialName": ${NAME_RULE}`,
      ),
    ],
  },
  'misannotated.yaml': {
    names: [
      'invalid-annotations',
      'grafana-test',
      'annotation-set-by-default',
      'anno-not-set-by-default',
      'fortio-deploy',
      'ignore-istio-annotations',
    ],
    errors: [
      noImage('invalid-annotations'),
      noImage('grafana-test'),
      invalid(
        'Pod "annotation-set-by-default"',
        '[spec.initContainers[0].image: Required value, spec.containers[0].image: Required value]',
      ),
      invalid(
        'Pod "anno-not-set-by-default"',
        '[spec.initContainers[0].image: Required value, spec.containers[0].image: Required value]',
      ),
      invalid(
        'Deployment.apps "fortio-deploy"',
        'spec.template.spec.containers[0].image: Required value',
      ),
      noImage('ignore-istio-annotations'),
    ],
  },
  'service-no-port-name-system-namespace.yaml': {
    names: ['my-service1'],
    errors: [
      invalid(
        'Service "my-service1"',
        '[spec.ports[0].name: Required value, spec.ports[1].name: Required value]',
      ),
    ],
  },
  'webhook.yaml': {
    names: ['istiod'],
    errors: [invalid('Service "istiod"', 'spec.ports: Required value')],
  },
  'deprecation.yaml': {
    names: ['request-count'],
    errors: [
      'resource mapping not found for name: "request-count" namespace: "istio-system" from "FILE": no matches for kind "QuotaSpec" in version "config.istio.io/v1alpha2"',
    ],
  },
  'serviceentry-address-allocated-mesh-cfg.yaml': { names: [], errors: [NOT_AN_OBJECT] },
  'serviceentry-missing-addresses-protocol-mesh-cfg.yaml': { names: [], errors: [NOT_AN_OBJECT] },
  'telemetry-lightstep-meshconfig.yaml': { names: [], errors: [NOT_AN_OBJECT] },
  'common/meshconfig.yaml': { names: [], errors: [NOT_AN_OBJECT] },
  'common/meshnetworks.yaml': { names: [], errors: [NOT_AN_OBJECT] },
};

describe('kubectl apply of every istioctl analyzer input', () => {
  const h = kubectlSim('sim-analyzer');

  async function kubectlResult(...args: string[]) {
    const base = [
      '--kubeconfig',
      path.join(h.dir, 'kubeconfig'),
      '--cache-dir',
      path.join(h.dir, 'cache'),
    ];
    try {
      const r = await exec(KUBECTL, [...base, ...args], {
        timeout: CHILD_PROCESS_GUARD_MS,
        maxBuffer: 1 << 24,
      });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const err = e as { code?: number; stdout?: string; stderr?: string };
      return { code: err.code ?? 1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    }
  }

  it('stores each object or refuses it as a real API server would', async () => {
    const files = yamlFiles(DIR);
    expect(files.length).toBeGreaterThan(80);
    const namespaces = new Set<string>();
    for (const f of files)
      for (const d of docsOf(f)) if (d.metadata?.namespace) namespaces.add(d.metadata.namespace);
    const nsYaml = [...namespaces]
      .map((n) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${n}\n`)
      .join('---\n');
    expect((await kubectlResult('apply', '-f', h.write('namespaces.yaml', nsYaml))).code).toBe(0);

    // (the empty /openapi/v2 keeps kubectl from its schema retries: that it ends at all, within
    // the child-process guard, is the check; how fast is the machine's)
    const r = await kubectlResult('apply', '-R', '-f', DIR);
    expect(r.code).toBe(1);

    // every error kubectl printed is one we expect, and every expected one was printed
    const expected = Object.entries(REFUSED).flatMap(([file, x]) =>
      x.errors.map((e) => e.replaceAll('FILE', path.join(DIR, file))),
    );
    for (const e of expected) expect(r.stderr).toContain(e);
    // objects applied twice (in several files) are patched without kubectl tripping on schemas
    expect(r.stdout).toMatch(/ configured$/m);
    expect(r.stderr).not.toContain('error calculating patch');
    const errorLines = r.stderr
      .split(/\n|, (?=error validating|resource mapping)/)
      .map((l) => l.replace(/^\[/, ''))
      .filter((l) => /^(Error from server|error validating|resource mapping not found)/.test(l));
    const unexpected = errorLines.filter((l) => !expected.some((e) => l.startsWith(e)));
    expect(unexpected).toEqual([]);
    expect(errorLines.length).toBe(expected.length);

    // every other object was stored (created, or configured when an earlier file had it)
    const lines = new Set(r.stdout.trim().split('\n'));
    const missing: string[] = [];
    for (const f of files) {
      const refused = REFUSED[f]?.names ?? [];
      for (const d of docsOf(f)) {
        if (d.kind === undefined || refused.includes(d.metadata?.name ?? '')) continue;
        const p = printed(d);
        if (![...lines].some((l) => l.startsWith(`${p} `))) missing.push(`${f}: ${p}`);
      }
    }
    expect(missing).toEqual([]);
  }, 120_000);

  it('lists what was applied, and keeps out what was refused', async () => {
    const gw = await h.kubectl('get', 'gateways.networking.istio.io', '-A');
    expect(gw).toMatch(/\balpha-l\b/);
    expect(gw).toMatch(/\bbeta-l\b/);
    expect(await h.kubectl('get', 'authorizationpolicies', '-A')).toMatch(/ACTION/);
    expect(await h.kubectl('get', 'telemetries', '-A')).toMatch(/telemetry-effective/);
    expect(await h.kubectl('get', 'mutatingwebhookconfigurations')).toMatch(/NAME/);
    expect(await h.kubectl('get', 'crd')).toMatch(/tlsroutes\.gateway\.networking\.k8s\.io/);
    expect(h.sim.store.get('services', 'my-namespace', 'my-service1')).toBeUndefined();
    expect(h.sim.store.get('pods', 'istio-system', 'my-ingressgateway-1234')).toBeUndefined();
  });
});
