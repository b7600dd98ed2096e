/**
 * The live Findings report follows the configuration: an AuthorizationPolicy applied with real
 * kubectl to the simulated ambient cluster is heard by the runtime's config watch, the cached
 * report is dropped, and the next report (started at once, as a browser watching the page would
 * find it) holds its finding. A status-only update is not a change (configSignature).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { configSignature } from '../../server/kube/config-watch';
import { runtimeFor } from '../../server/runtime/registry';
import { getFindings, getWholeFindings } from '../../server/screens/findings/findings';
import { findingsChanges } from '../../server/screens/findings/changes';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';
import type { KubeObject } from '../../lib/kube/types';
import { l7PolicyYaml } from '../../test-support/l7-policy';

requireKubectl('the findings follow test (it applies a policy with kubectl)');

const exec = promisify(execFile);
const scope = asMeshdx(null);
let env: SimRuntime;

const kubectl = async (...args: string[]) =>
  (
    await exec(
      KUBECTL,
      ['--kubeconfig', env.kubeconfig, '--cache-dir', path.join(env.dir, 'cache'), ...args],
      { timeout: CHILD_PROCESS_GUARD_MS },
    )
  ).stdout;

/** Polls `check` on the test's own clock, up to `ms` (generous: a busy machine is slow). */
async function until<T>(what: string, check: () => T | null | Promise<T | null>, ms = 90_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  env = await runtimeOnSimulator({ scenario: 'ambient' });
}, 60_000);
afterAll(async () => {
  await env?.close();
});

describe('the live findings follow kubectl apply', () => {
  it('hears the new AuthorizationPolicy and reports it without waiting for the cache', async () => {
    const first = await getWholeFindings(scope);
    const isNew = (f: { code: string; subject: { name: string } }) =>
      f.code === 'MDX0601' && f.subject.name === 'api-get-only';
    expect(first.findings.some(isNew)).toBe(false);
    expect(first.follow?.revision).toBe(0);
    const rt = runtimeFor(scope);
    await until('AuthorizationPolicies watched', () =>
      rt.configChanges.status().watched.includes('AuthorizationPolicy') ? true : null,
    );
    // Pods are named as followed only at the cache time; nothing else is unwatched here
    expect(first.follow?.unwatched.map((u) => u.kind)).toEqual(['Pod']);

    // nothing changed yet: a long poll past the current revision is still waiting
    const waiting = findingsChanges(scope, 0).then(() => 'answered');
    const first100 = await Promise.race([
      waiting,
      new Promise((r) => setTimeout(() => r('waiting'), 100)),
    ]);
    expect(first100).toBe('waiting');

    const file = path.join(env.dir, 'policy.yaml');
    fs.writeFileSync(file, l7PolicyYaml('api-get-only'));
    expect(await kubectl('apply', '-f', file)).toMatch(/api-get-only created/);
    // the long poll GET /api/findings/changes?after=0 is answered when the change is heard
    const heard = await findingsChanges(scope, 0);
    expect(heard.revision).toBeGreaterThan(0);
    expect(heard.watched).toBeGreaterThan(10);

    // the cached report was dropped: the next one is begun after the change and holds it
    const next = await until('a report holding the policy', async () => {
      const r = await getFindings(scope);
      return (r.follow?.revision ?? -1) >= heard.revision && r.findings.some(isNew) ? r : null;
    });
    const f = next.findings.find(isNew);
    expect(f?.evidence).toMatchObject({ l7: 'to.operation.methods', boundBy: 'selector' });

    // deleting it is heard too, and the finding goes
    await kubectl('delete', 'authorizationpolicy', '-n', 'mesh-ambient', 'api-get-only');
    expect((await findingsChanges(scope, heard.revision)).revision).toBeGreaterThan(heard.revision);
    await until('a report without it', async () => {
      const r = await getFindings(scope);
      return r.follow && r.follow.revision > heard.revision && !r.findings.some(isNew) ? r : null;
    });
  }, 240_000);
});

describe('configSignature', () => {
  const dep = (over: Record<string, unknown>): KubeObject =>
    ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'a', generation: 3, labels: { app: 'api' } },
      spec: { replicas: 2 },
      status: { readyReplicas: 1 },
      ...over,
    }) as KubeObject;

  it('ignores status and bookkeeping, not spec, labels or annotations', () => {
    const base = configSignature(dep({}));
    expect(configSignature(dep({ status: { readyReplicas: 2 } }))).toBe(base);
    const bumped = dep({});
    (bumped.metadata as { generation?: number }).generation = 4;
    expect(configSignature(bumped)).not.toBe(base);
    expect(
      configSignature(dep({ metadata: { name: 'api', namespace: 'a', generation: 3 } })),
    ).not.toBe(base);
    expect(
      configSignature(
        dep({
          metadata: {
            name: 'api',
            namespace: 'a',
            generation: 3,
            labels: { app: 'api' },
            resourceVersion: '99',
          },
        }),
      ),
    ).toBe(base);
  });

  it('reads the whole body of a kind without generation (a ConfigMap)', () => {
    const cm = (data: Record<string, string>) =>
      ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'istio' }, data }) as KubeObject;
    expect(configSignature(cm({ mesh: 'a' }))).not.toBe(configSignature(cm({ mesh: 'b' })));
    expect(configSignature(cm({ mesh: 'a' }))).toBe(configSignature(cm({ mesh: 'a' })));
  });
});
