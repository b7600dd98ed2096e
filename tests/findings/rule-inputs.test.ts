/**
 * The live report lists the kinds the analyzer rules read, and says what it read of them: the
 * demo's Deployments (IST0144 and the annotation rules read them), the root namespace's
 * ConfigMaps, the CRDs not installed; Secrets are never read, and the rules that need them are
 * named as not run, with their codes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';

let r: SimRuntime;
beforeAll(async () => {
  r = await runtimeOnSimulator({ scenario: 'demo' });
}, 60_000);
afterAll(() => r?.close());

it('names what the rules read, what is not installed, and the rules not run', async () => {
  const report = await getWholeFindings(asMeshdx(null));
  const source = report.sources?.find((s) => s.name === 'rule inputs');
  expect(source?.ok).toBe(true);
  const detail = source?.detail ?? '';
  const deployments = Number(/Deployment (\d+)/.exec(detail)?.[1]);
  expect(deployments).toBeGreaterThan(0);
  expect(detail).toContain('ConfigMap 1 (in istio-system)');
  expect(detail).toMatch(/not installed: [^;]*WorkloadEntry/);
  expect(detail).toMatch(
    /Secret not read: meshdx does not read Secrets \(they hold credentials\): not run [^;]*gateway-secret \(IST0101, IST0161\)/,
  );
  expect(detail).toMatch(/mesh-networks \(IST0126\)/);
}, 90_000);
