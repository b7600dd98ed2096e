import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const CODES = ['IST0163', 'IST0164'];
const found = (objects: unknown[]) =>
  manifestFindings(objects)
    .findings.filter((f) => CODES.includes(f.code))
    .map((f) => `${f.code} ${f.subject.kind} ${f.subject.name}`)
    .sort();
const webhooks = (kind: string, name: string, ...hooks: unknown[]) => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind,
  metadata: { name },
  webhooks: hooks,
});
const injector = (...hooks: unknown[]) =>
  webhooks('MutatingWebhookConfiguration', 'istio-sidecar-injector', ...hooks);
const hook = (clientConfig: unknown, name = 'sidecar-injector.istio.io') =>
  clientConfig === undefined ? { name } : { name, clientConfig };
/** What the rule says of one url: 'IST0163', 'IST0164' or '' (nothing). */
const verdict = (url: unknown) =>
  manifestFindings([injector(hook({ url }))])
    .findings.filter((f) => CODES.includes(f.code))
    .map((f) => f.code)
    .join(',');

describe('IST0163/IST0164 (externalcontrolplane.ExternalControlPlaneAnalyzer)', () => {
  it("reports istioctl's grid files as istioctl does", () => {
    const blank = [
      'IST0163 MutatingWebhookConfiguration istio-sidecar-injector-external-istiod',
      'IST0163 ValidatingWebhookConfiguration istio-validator-external-istiod',
    ];
    expect(found(grid('externalcontrolplane-missing-urls.yaml'))).toEqual(blank);
    expect(found(grid('externalcontrolplane-missing-urls-custom-ns.yaml'))).toEqual([
      'IST0163 MutatingWebhookConfiguration istio-sidecar-injector-custom-ns',
      'IST0163 ValidatingWebhookConfiguration istio-validator-custom-ns',
    ]);
    expect(found(grid('externalcontrolplane-using-ip-addr.yaml'))).toEqual([
      'IST0164 MutatingWebhookConfiguration istio-sidecar-injector-external-istiod',
    ]);
    expect(found(grid('externalcontrolplane-valid-urls.yaml'))).toEqual([]);
    expect(found(grid('externalcontrolplane-valid-urls-custom-ns.yaml'))).toEqual([]);
    const [ip] = manifestFindings(grid('externalcontrolplane-using-ip-addr.yaml')).findings.filter(
      (f) => f.code === 'IST0164',
    );
    expect(ip?.severity).toBe('info');
    expect(ip?.subject.namespace).toBeUndefined();
    expect(ip?.evidence).toMatchObject({ webhook: 'rev.namespace.sidecar-injector.istio.io' });
  });

  it("judges Istio's webhooks only, by istioctl's names", () => {
    const noUrl = hook({});
    expect(
      found([
        webhooks('ValidatingWebhookConfiguration', 'istiod-default-validator', noUrl),
        webhooks('ValidatingWebhookConfiguration', 'istio-validator-canary-istio-system', noUrl),
        webhooks('ValidatingWebhookConfiguration', 'istio-sidecar-injector', noUrl),
        webhooks('MutatingWebhookConfiguration', 'istio-validator', noUrl),
        webhooks('MutatingWebhookConfiguration', 'my-injector', noUrl),
        webhooks('MutatingWebhookConfiguration', 'istio-sidecar-injector-canary', noUrl),
      ]),
    ).toEqual([
      'IST0163 MutatingWebhookConfiguration istio-sidecar-injector-canary',
      'IST0163 ValidatingWebhookConfiguration istio-validator-canary-istio-system',
      'IST0163 ValidatingWebhookConfiguration istiod-default-validator',
    ]);
  });

  it('calls a clientConfig with neither url nor service blank; a service is not judged', () => {
    const out = manifestFindings([
      injector(
        hook(undefined, 'absent'),
        hook(null, 'null'),
        hook({ url: null, service: null }, 'nulls'),
        hook({ service: { name: 'istiod', namespace: 'istio-system' } }, 'service'),
        hook('x', 'string'),
        hook({ url: 5 }, 'number'),
      ),
    ]).findings.filter((f) => CODES.includes(f.code));
    expect(out.map((f) => [f.code, f.evidence.webhook, f.evidence.problem, f.part?.name])).toEqual([
      ['IST0163', 'absent', 'is blank', 'webhooks[0]'],
      ['IST0163', 'null', 'is blank', 'webhooks[1]'],
      ['IST0163', 'nulls', 'is blank', 'webhooks[2]'],
    ]);
  });

  it("reads urls as Go's url.Parse and net.ParseIP do", () => {
    const cases: [string, string][] = [
      ['https://istiod.example.com:15017/inject', ''],
      // an empty url parses to an empty host: nothing to say
      ['', ''],
      ['https://10.0.0.1:15017/inject', 'IST0164'],
      ['https://user:pw@10.0.0.1/inject', 'IST0164'],
      ['https://[2001:db8::1]:443/inject', 'IST0164'],
      ['https://[::ffff:10.0.0.1]/inject', 'IST0164'],
      ['https://[1:2:3:4:5:6:7:8]/inject', 'IST0164'],
      // not an address to net.ParseIP: a leading zero, a zone
      ['https://010.0.0.1/inject', ''],
      ['https://[fe80::1%25eth0]/inject', ''],
      // Go 1.26 (istio's): brackets hold an IPv6 address only, http(s) hosts one colon
      ['https://[1:2:3:4:5:6:7:8:9]/inject', 'IST0163'],
      ['https://[1::2::3]/inject', 'IST0163'],
      ['https://[10.0.0.1]/inject', 'IST0163'],
      ['https://[fe80::1%25]/inject', 'IST0163'],
      ['https://ist[iod/inject', 'IST0163'],
      ['https://istiod:15017:1/inject', 'IST0163'],
      ['grpc://istiod:15017:1/inject', ''],
      // opaque: no host at all
      ['istiod.example.com:15017/inject', ''],
      ['mailto:10.0.0.1', ''],
      // refused by url.Parse
      ['10.0.0.1:15017/inject', 'IST0163'],
      ['://istiod/inject', 'IST0163'],
      ['https://istiod:abc/inject', 'IST0163'],
      ['https://ist iod/inject', 'IST0163'],
      ['https://istiod/%zz', 'IST0163'],
      ['https://istiod/x#%z', 'IST0163'],
      ['https://[::1/inject', 'IST0163'],
      ['https://[::1]x/inject', 'IST0163'],
      ['https://us er@istiod/inject', 'IST0163'],
      ['https://%31.0.0.1/inject', 'IST0163'],
      ['https://[fe80::1%25%00]/inject', 'IST0163'],
      ['https://istiod/in\nject', 'IST0163'],
      // accepted by url.Parse: a query is not checked, a non-ASCII host is allowed
      ['https://istiod/inject?%zz', ''],
      ['https://ïstiod/inject', ''],
    ];
    for (const [url, expected] of cases) expect([url, verdict(url)]).toEqual([url, expected]);
  });

  it('reports each webhook once (identical ones once), and never throws on odd shapes', () => {
    expect(found([injector(hook({}, 'a'), hook({}, 'a'), hook({}, 'b'))])).toHaveLength(2);
    const out = manifestFindings([
      { ...injector(), webhooks: 'x' },
      injector(null, 'x', 7, { name: 3, clientConfig: { url: [] } }),
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name: 'istio-sidecar-injector' },
      },
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003' || CODES.includes(f.code))).toEqual([]);
  });
});
