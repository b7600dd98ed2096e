import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../test-support/fixtures';
import { parseManifestText } from './input';
import { splitMeshConfigs } from './mesh-config';
import fs from 'node:fs';

/** Every document of Istio's analyzer test data, with where it is. */
function analyzerDocuments(): { objects: unknown[]; origins: string[] } {
  const objects: unknown[] = [];
  const origins: string[] = [];
  for (const dir of ['analyzer', 'analyzer/common'])
    for (const f of fs.readdirSync(fixturePath('istio_config', dir)).sort()) {
      if (!f.endsWith('.yaml')) continue;
      const parsed = parseManifestText(readFixture('istio_config', dir, f), `${dir}/${f}`);
      for (const o of parsed.objects) {
        objects.push(o.object);
        origins.push(o.origin);
      }
    }
  return { objects, origins };
}

describe('splitMeshConfigs on Istio’s analyzer test data', () => {
  const all = analyzerDocuments();
  const split = splitMeshConfigs(all.objects, all.origins);

  it('finds the mesh config files istioctl takes with --meshConfigFile, and no other document', () => {
    expect(split.found.map((m) => m.origin.replace(/:\d+$/, ''))).toEqual([
      'analyzer/serviceentry-address-allocated-mesh-cfg.yaml',
      'analyzer/serviceentry-missing-addresses-protocol-mesh-cfg.yaml',
      'analyzer/telemetry-lightstep-meshconfig.yaml',
      'analyzer/common/meshconfig.yaml',
    ]);
    expect(split.found.every((m) => m.errors.length === 0)).toBe(true);
    // the mesh networks file (--meshNetworksFile) is split out on its own
    expect(split.networks.map((m) => m.origin.replace(/:\d+$/, ''))).toEqual([
      'analyzer/common/meshnetworks.yaml',
    ]);
    // they are no Kubernetes objects: out of the objects; every other document stays
    expect(split.objects.length).toBe(
      all.objects.length - split.found.length - split.networks.length,
    );
    expect(split.origins.length).toBe(split.objects.length);
  });

  it('leaves the sidecar injector ConfigMap alone: it holds no mesh config', () => {
    const injector = split.origins.filter((o) => o.includes('sidecar-injector-configmap.yaml'));
    expect(injector.length).toBeGreaterThan(0);
    expect(split.found.some((m) => m.origin.includes('sidecar-injector'))).toBe(false);
  });

  it('reads the root namespace of an istio ConfigMap, which stays an object', () => {
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'istio-canary', namespace: 'istio-system' },
      data: {
        mesh: 'rootNamespace: istio-config\ndefaultConfig:\n  holdApplicationUntilProxyStarts: true\n',
      },
    };
    const r = splitMeshConfigs([cm], ['cm.yaml:1']);
    expect(r.objects).toEqual([cm]);
    expect(r.found).toEqual([
      {
        origin: 'cm.yaml:1',
        settings: { from: 'configmap', hold: true, rootNamespace: 'istio-config' },
        errors: [],
        mesh: {
          rootNamespace: 'istio-config',
          defaultConfig: { holdApplicationUntilProxyStarts: true },
        },
      },
    ]);
  });
});
