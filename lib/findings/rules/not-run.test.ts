import { describe, expect, it } from 'vitest';
import { screenObjects } from '../screen';
import { ruleFindings, rulesNotRun } from '.';
import { codesNotChecked } from '../claims';

/** A Pod running as UID 1337 (IST0144) and an injector webhook pointing at a missing Service. */
const objects = [
  {
    kind: 'Pod',
    metadata: { name: 'uid', namespace: 'shop' },
    spec: { securityContext: { runAsUser: 1337 }, containers: [{ name: 'app', image: 'a' }] },
  },
  {
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'istio-sidecar-injector' },
    webhooks: [
      {
        name: 'sidecar-injector.istio.io',
        clientConfig: { service: { name: 'istiod-missing', namespace: 'istio-system' } },
      },
    ],
  },
];

describe('a rule whose input could not be read', () => {
  it('is not run, and is named with the kind and why', () => {
    const screened = screenObjects(objects, {
      kindsUnknown: { Service: 'services: forbidden', Deployment: 'deployments.apps: forbidden' },
    });
    const notRun = rulesNotRun(screened);
    const byRule = Object.fromEntries(notRun.map((n) => [n.rule, n.unread.map((u) => u.kind)]));
    // the webhook rule judges a Service that is absent: with Services unread it does not run
    expect(byRule.webhook).toEqual(['Service']);
    // a rule about one object at a time still runs on what was read
    expect(byRule['application-uid']).toBeUndefined();
    const codes = ruleFindings(screened, 'istio-system').map((f) => f.code);
    expect(codes).toContain('IST0144');
    expect(notRun.find((n) => n.rule === 'webhook')?.codes.length).toBeGreaterThan(0);
  });

  it('runs when everything it reads was read', () => {
    const screened = screenObjects(objects, {});
    expect(rulesNotRun(screened)).toEqual([]);
  });

  it('names the istioctl codes no check judged: Secrets unread leave IST0161 and IST0126', () => {
    const declined = screenObjects(objects, { kindsUnknown: { Secret: 'not read' } });
    // IST0101 is claimed by checks that ran (the gateway secret rule only emits it)
    expect(codesNotChecked(declined)).toEqual(['IST0126', 'IST0161']);
    expect(codesNotChecked(screenObjects(objects, {}))).toEqual([]);
  });
});
