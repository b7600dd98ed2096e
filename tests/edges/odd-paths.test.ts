import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from '../../proxy';
import { GET as podGet } from '../../app/api/pods/[namespace]/[name]/route';
import { GET as proxyGet } from '../../app/api/proxies/[namespace]/[name]/route';
import { GET as timelineGet } from '../../app/api/timelines/[namespace]/[name]/route';
import { GET as ztunnelGet } from '../../app/api/ztunnels/[namespace]/[name]/route';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { expectError, url, useEdgeCluster } from './support';

/**
 * Odd paths as a tester sends them: a malformed escape (%zz), a NUL (%00), an overlong name, a
 * dot segment. Through the edge (proxy.ts: never a redirect, never Next's HTML) and then through
 * the pod routes, which get the segment Next decoded: a 400 naming the segment, never a 500,
 * never "URI malformed", never a request to the API server with it.
 */
useEdgeCluster('odd-paths');

const ROUTES = [
  ['pods', podGet],
  ['proxies', proxyGet],
  ['timelines', timelineGet],
  ['ztunnels', ztunnelGet],
] as const;

const OVERLONG = 'a'.repeat(10_000);
/** The raw path segment, and the value Next hands the route once it has decoded it. */
const ODD: [string, string][] = [
  ['%zz', '%zz'],
  ['a%zzb', 'a%zzb'],
  ['%00', '\u0000'],
  ['web%000', 'web\u00000'],
  ['%FF', '\ufffd'],
  [OVERLONG, OVERLONG],
  ['UPPER', 'UPPER'],
  ['%3Cscript%3E', '<script>'],
];

const edge = (p: string) =>
  proxy(new NextRequest(`http://localhost:3000${p}`, { headers: { host: 'localhost:3000' } }));

describe('odd paths at the edge', () => {
  it('are passed to the route or refused as JSON, never redirected', async () => {
    for (const [kind] of ROUTES)
      for (const raw of [...ODD.map(([r]) => r), '%2e%2e', '..%2f..']) {
        const res = edge(`/api/${kind}/shop/${raw}`);
        const what = `/api/${kind}/shop/${raw.slice(0, 20)}`;
        expect(res.headers.get('location'), what).toBeNull();
        expect([200, 400, 404], what).toContain(res.status);
        if (res.status !== 200) {
          expect(res.headers.get('content-type'), what).toContain('application/json');
          expect(((await res.json()) as { error: { code: string } }).error.code).toBeTruthy();
        } else expect(res.headers.get('x-middleware-next'), what).toBe('1');
      }
  });
});

describe('odd path segments at the route', () => {
  it('are a 400 naming the segment, as the pod name and as the namespace', async () => {
    for (const [kind, h] of ROUTES)
      for (const [raw, decoded] of ODD) {
        const asName = await h(new Request(url(`/api/${kind}/shop/${raw}`)), {
          params: Promise.resolve({ namespace: 'shop', name: decoded }),
        });
        await expectError(asName, 400, 'INVALID_PARAMETER', 'name');
        const asNs = await h(new Request(url(`/api/${kind}/${raw}/web-0`)), {
          params: Promise.resolve({ namespace: decoded, name: 'web-0' }),
        });
        await expectError(asNs, 400, 'INVALID_PARAMETER', 'namespace');
      }
  });

  it('an overlong value says how long it may be; a NUL is never echoed raw', async () => {
    const long = await podGet(new Request(url('/api/pods/shop/x')), {
      params: Promise.resolve({ namespace: 'shop', name: OVERLONG }),
    });
    const text = await long.text();
    expect(text).toContain('is longer than 253 characters');
    expect(text.length).toBeLessThan(1000);
    const nul = await podGet(new Request(url('/api/pods/shop/x')), {
      params: Promise.resolve({ namespace: 'shop', name: 'web\u00000' }),
    });
    expect(await nul.text()).not.toContain('\u0000');
  });

  it('odd query values are named the same way', async () => {
    for (const v of ['%zz', '%00', '%FF', OVERLONG, '..%2F..'])
      await expectError(
        await incidentsGet(new Request(url(`/api/incidents?namespace=${v}`))),
        400,
        'INVALID_PARAMETER',
        'namespace',
      );
  });
});
