import { ApiException, CoreV1Api, KubeConfig, type V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubectlSim, requireKubectl } from './kubectl-harness';

requireKubectl('the validation tests of the simulator');

interface Status {
  kind: string;
  apiVersion: string;
  status: string;
  reason: string;
  code: number;
  message: string;
  details?: {
    name?: string;
    kind?: string;
    causes?: { reason: string; message: string; field: string }[];
  };
}

const svc = (name: string, ports: object[]): V1Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name },
  spec: {
    selector: { app: name },
    ports: ports as V1Service['spec'] extends infer S
      ? S extends { ports?: infer P }
        ? P
        : never
      : never,
  },
});

describe('validation: what the API server refuses with 422', () => {
  const h = kubectlSim('sim-validation');
  const core = () => {
    const kc = new KubeConfig();
    kc.loadFromString(h.sim.kubeconfigYaml);
    return kc.makeApiClient(CoreV1Api);
  };

  async function refused(p: Promise<unknown>): Promise<Status> {
    try {
      await p;
    } catch (e) {
      expect(e).toBeInstanceOf(ApiException);
      const err = e as ApiException<unknown>;
      expect(err.code).toBe(422);
      return (typeof err.body === 'string' ? JSON.parse(err.body) : err.body) as Status;
    }
    throw new Error('the request was accepted');
  }

  it('answers a duplicate Service port name with a Status whose cause kubectl prints', async () => {
    const s = await refused(
      core().createNamespacedService({
        namespace: 'shop',
        body: svc('dup', [
          { name: 'http', port: 80 },
          { name: 'http', port: 8080 },
        ]),
      }),
    );
    expect(s).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: 'Service "dup" is invalid: spec.ports[1].name: Duplicate value: "http"',
      details: {
        name: 'dup',
        group: '',
        kind: 'Service',
        causes: [
          {
            reason: 'FieldValueDuplicate',
            message: 'Duplicate value: "http"',
            field: 'spec.ports[1].name',
          },
        ],
      },
    });
    expect(h.sim.store.get('services', 'shop', 'dup')).toBeUndefined();
    const yaml = `apiVersion: v1
kind: Service
metadata:
  name: dup
  namespace: shop
spec:
  ports:
  - name: http
    port: 80
  - name: http
    port: 8080
`;
    await expect(h.kubectl('apply', '-f', h.write('dup.yaml', yaml))).rejects.toThrow(
      'The Service "dup" is invalid: spec.ports[1].name: Duplicate value: "http"',
    );
  });

  it('requires port names when a Service has several ports, and TCP/UDP/SCTP protocols', async () => {
    const s = await refused(
      core().createNamespacedService({
        namespace: 'shop',
        body: svc('multi', [{ port: 80 }, { name: 'grpc', port: 9090, protocol: 'HTTP' }]),
      }),
    );
    expect(s.message).toBe(
      'Service "multi" is invalid: [spec.ports[0].name: Required value, spec.ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"]',
    );
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.ports[0].name' },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        field: 'spec.ports[1].protocol',
      },
    ]);
    // one unnamed port is fine
    const ok = await core().createNamespacedService({
      namespace: 'shop',
      body: svc('single', [{ port: 80 }]),
    });
    expect(ok.spec?.ports?.[0]?.port).toBe(80);
  });

  it('refuses a Pod without spec or containers, and names that are not DNS-1123', async () => {
    const s = await refused(
      core().createNamespacedPod({ namespace: 'shop', body: { metadata: { name: 'bare' } } }),
    );
    expect(s.message).toBe('Pod "bare" is invalid: spec.containers: Required value');
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' },
    ]);
    const bad = await refused(
      core().createNamespacedConfigMap({
        namespace: 'shop',
        body: { metadata: { name: 'Bad_Name' } },
      }),
    );
    expect(bad.details?.causes?.[0]?.reason).toBe('FieldValueInvalid');
    expect(bad.details?.causes?.[0]?.field).toBe('metadata.name');
    expect(bad.message).toMatch(
      /^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    // Services and Namespaces need a DNS-1123 label: no dots
    const dotted = await refused(core().createNamespace({ body: { metadata: { name: 'a.b' } } }));
    expect(dotted.message).toMatch(
      /^Namespace "a.b" is invalid: metadata.name: Invalid value: "a.b": a lowercase RFC 1123 label/,
    );
  });

  it('validates patches and replaces too: a patch cannot break a stored Service', async () => {
    await expect(
      h.kubectl(
        'patch',
        'service',
        'web',
        '-n',
        'shop',
        '--type=json',
        '-p',
        '[{"op":"add","path":"/spec/ports/0/protocol","value":"HTTP"}]',
      ),
    ).rejects.toThrow(
      'The Service "web" is invalid: spec.ports[0].protocol: Unsupported value: "HTTP"',
    );
    expect(
      h.sim.store.get<V1Service & { metadata: { name: string } }>('services', 'shop', 'web')?.spec
        ?.ports?.[0]?.protocol,
    ).toBeUndefined();
  });

  it('answers a kind it does not serve as a cluster without its CRD does', async () => {
    const yaml = `apiVersion: config.istio.io/v1alpha2
kind: QuotaSpec
metadata:
  name: q
  namespace: shop
spec: {}
`;
    await expect(h.kubectl('apply', '-f', h.write('quota.yaml', yaml))).rejects.toThrow(
      'no matches for kind "QuotaSpec" in version "config.istio.io/v1alpha2"',
    );
    const r = await fetch(`${h.sim.url}/apis/config.istio.io/v1alpha2/namespaces/shop/quotaspecs`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as Status).reason).toBe('NotFound');
  });
});
