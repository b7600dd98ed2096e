import { describe, expect, it } from 'vitest';
import type { ConfigMap } from '../../lib/kube/types';
import { MeshConfigCache } from './mesh-config';

const cm = (mesh: string): ConfigMap =>
  ({ metadata: { name: 'istio', namespace: 'istio-system' }, data: { mesh } }) as ConfigMap;

describe('MeshConfigCache', () => {
  it('reads holdApplicationUntilProxyStarts from the istio ConfigMap', async () => {
    const c = new MeshConfigCache(async () =>
      cm('defaultConfig:\n  holdApplicationUntilProxyStarts: true\n'),
    );
    const s = await c.get();
    expect(s.settings?.hold).toBe(true);
    expect(s.from).toBe('configmap');
    expect(s.version).toBe(1);
  });

  it('reports a missing ConfigMap and a failed read as data', async () => {
    expect((await new MeshConfigCache(async () => null).get()).from).toBe('missing');
    const failed = await new MeshConfigCache(async () => {
      throw new Error('403 forbidden');
    }).get();
    expect(failed.from).toBe('error');
    expect(failed.errors[0]).toContain('403 forbidden');
  });

  it('reports YAML errors with their position inside data.mesh', async () => {
    const s = await new MeshConfigCache(async () => cm('defaultConfig: [\n')).get();
    expect(s.errors.length).toBeGreaterThan(0);
    expect(s.errors[0]).toMatch(/istio ConfigMap \d+:\d+/);
  });

  it('refreshes behind the reader after its TTL and bumps the version on change', async () => {
    let now = 0;
    let text = 'defaultConfig: {}\n';
    const c = new MeshConfigCache(
      async () => cm(text),
      1000,
      () => now,
    );
    expect((await c.get()).settings?.hold).toBeUndefined();
    text = 'defaultConfig:\n  holdApplicationUntilProxyStarts: true\n';
    now = 500;
    expect((await c.get()).version).toBe(1);
    now = 2000;
    await c.get(); // starts the refresh
    await c.refresh();
    const s = await c.get();
    expect(s.settings?.hold).toBe(true);
    expect(s.version).toBe(2);
  });

  it('clears a failed read once the same ConfigMap reads fine again', async () => {
    let now = 0;
    let fail = false;
    const text = 'defaultConfig:\n  holdApplicationUntilProxyStarts: true\n';
    const c = new MeshConfigCache(
      async () => {
        if (fail) throw new Error('503 the API server is overloaded');
        return cm(text);
      },
      1000,
      () => now,
    );
    expect((await c.get()).errors).toEqual([]);
    fail = true;
    now = 2000;
    await c.refresh();
    const broken = await c.get();
    expect(broken.errors[0]).toContain('overloaded');
    expect(broken.settings?.hold).toBe(true); // the last good settings stay in use
    fail = false;
    now = 4000;
    await c.refresh();
    const healed = await c.get();
    expect(healed.errors).toEqual([]);
    expect(healed.from).toBe('configmap');
    expect(healed.settings?.hold).toBe(true);
  });
});
