import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { checkParam, ParamSchemas, queryParams, type ParamKind } from './param-kinds';
import { RequestError } from './request-error';
import { podKey } from '../refs/pod-ref';

/** Real pods (Istio's and Kubernetes' own test data): their names, namespaces and IPs. */
const PODS = path.resolve(__dirname, '../../../shared/fixtures/pods');
interface FixturePod {
  metadata?: { name?: string; namespace?: string };
  status?: { podIP?: string; hostIP?: string };
}
const pods: FixturePod[] = fs
  .readdirSync(PODS)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(PODS, f), 'utf8')))
  .map((d) => d.toJS() as FixturePod)
  .filter((p) => typeof p?.metadata?.name === 'string');

const problem = (kind: ParamKind, name: string, value: string): string => {
  try {
    checkParam(kind, name, value);
  } catch (e) {
    if (e instanceof RequestError) return `${e.status} ${e.message}`;
    throw e;
  }
  return 'accepted';
};

describe('the kinds take what real clusters hold', () => {
  it('every fixture pod name, namespace, IP and ns/name reference', () => {
    expect(pods.length).toBeGreaterThan(3);
    for (const p of pods) {
      const { name = '', namespace = 'default' } = p.metadata ?? {};
      expect(checkParam('pod', 'name', name)).toBe(name);
      expect(checkParam('namespace', 'namespace', namespace)).toBe(namespace);
      const ref = podKey(namespace, name);
      expect(checkParam('ref', 'pod', ref)).toBe(ref);
      for (const ip of [p.status?.podIP, p.status?.hostIP])
        if (ip) expect(checkParam('ip', 'ip', ip)).toBe(ip);
    }
  });

  it('reads flags, counts and pages as values', () => {
    expect(checkParam('flag', 'refresh', '1')).toBe(true);
    expect(checkParam('flag', 'refresh', 'false')).toBe(false);
    expect(checkParam('count', 'offset', '0')).toBe(0);
    expect(checkParam('limit', 'limit', '500')).toBe(500);
    expect(checkParam('page', 'page', '3')).toBe(3);
    expect(checkParam('client', 'client', 'shop/web-0, shop/web-0,shop/web-1')).toBe(
      'shop/web-0,shop/web-1',
    );
  });

  it('takes a time in each form a link writes it', () => {
    for (const t of ['2026-11-01T12:00:00Z', '1793534400000', 'now-15m', 'now'])
      expect(checkParam('time', 'from', t)).toBe(t);
  });
});

describe('a value that does not fit is the 400 naming the parameter and why', () => {
  it('names the parameter, the value and the rule', () => {
    expect(problem('namespace', 'namespace', 'Shop')).toBe(
      '400 namespace: "Shop" is not a namespace name (lowercase letters, digits and "-")',
    );
    expect(problem('flag', 'stream', 'yes')).toBe('400 stream: "yes" is not 1, true, 0 or false');
    expect(problem('limit', 'limit', '0')).toBe('400 limit: "0" must be at least 1');
    expect(problem('count', 'offset', '-1')).toBe('400 offset: "-1" is not a whole number');
    expect(problem('text', 'q', 'a\u0000b')).toMatch(
      /^400 q: "a\\u0000b" holds a control character/,
    );
    expect(problem('time', 'from', '1793534400')).toMatch(/^400 from: .*epoch seconds/);
    expect(problem('snapshot', 'id', 'x')).toMatch(/^400 id: "x" is not a snapshot id/);
    expect(problem('ref', 'pod', 'web-0')).toMatch(/^400 pod: "web-0" is not a pod reference/);
    expect(problem('pod', 'name', 'x'.repeat(300))).toMatch(/…" is longer than 253 characters$/);
  });

  it('every kind refuses something, and hints at what it takes', () => {
    for (const kind of Object.keys(ParamSchemas) as ParamKind[]) {
      let hint: string | undefined;
      try {
        checkParam(kind, 'p', '\u0000');
      } catch (e) {
        hint = (e as RequestError).hint;
      }
      expect(hint, kind).toBeTruthy();
    }
  });

  it('a parameter given twice is named; an empty one is none', () => {
    expect(() => queryParams(new URLSearchParams('ip=10.0.0.1&ip=10.0.0.2'), { ip: 'ip' })).toThrow(
      /^ip: given 2 times$/,
    );
    expect(queryParams(new URLSearchParams('ip='), { ip: 'ip' })).toEqual({});
    expect(queryParams({ refresh: ['1'] }, { refresh: 'flag' })).toEqual({ refresh: true });
  });
});
