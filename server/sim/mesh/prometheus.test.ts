import { describe, it, expect } from 'vitest';
import type { Pod } from '../../../lib/kube/types';
import { envoyProxyStats } from '../../../lib/metrics/envoy-stats';
import { parsePrometheusText } from '../../../lib/metrics/prometheus';
import { keepWanted } from '../../envoy/scrape';
import { createMeshEmulator } from './index';
import { bookinfo, makePod, worldOf } from './testworld';

const q = () => new URLSearchParams();

function setup(image?: string) {
  const w = bookinfo();
  const pod = makePod('versioned-abc', 'default', '10.1.9.9', image ? { image } : {});
  (w.pods as Pod[]).push(pod);
  return { mesh: createMeshEmulator(worldOf(w)), pod };
}

const buildLines = (body: string) => body.split('\n').filter((l) => l.startsWith('istio_build'));

describe('istio_build in the proxy scrapes', () => {
  it('is on Envoy :15090 with the tag of the proxy image, as the istio_stats extension writes it', () => {
    const { mesh, pod } = setup('gcr.io/istio-release/proxyv2:1.20.3-distroless');
    const r = mesh.podHttp(pod, 15090, '/stats/prometheus', q());
    expect(r.status).toBe(200);
    expect(buildLines(r.body)).toEqual(['istio_build{component="proxy",tag="1.20.3"} 1']);
    expect(r.body).toContain('# TYPE istio_build gauge');
  });

  it('survives the fleet scrape filter and reaches the fleet row', () => {
    const { mesh, pod } = setup('docker.io/istio/proxyv2:1.22.1');
    const body = mesh.podHttp(pod, 15090, '/stats/prometheus', q()).body;
    const parsed = parsePrometheusText(keepWanted(body));
    expect(parsed.errors).toEqual([]);
    expect(envoyProxyStats(parsed.samples).istioVersion).toBe('1.22.1');
  });

  it('is on admin /stats?format=prometheus too', () => {
    const { mesh, pod } = setup();
    const r = mesh.podHttp(pod, 15000, '/stats', new URLSearchParams('format=prometheus'));
    expect(buildLines(r.body)).toEqual(['istio_build{component="proxy",tag="1.24.2"} 1']);
  });

  it('appears once in pilot-agent :15020 merged metrics (no duplicate series)', () => {
    const { mesh, pod } = setup('docker.io/istio/proxyv2:1.23.0');
    const body = mesh.podHttp(pod, 15020, '/stats/prometheus', q()).body;
    expect(buildLines(body)).toEqual(['istio_build{component="proxy",tag="1.23.0"} 1']);
    expect(body.split('\n').filter((l) => l === '# TYPE istio_build gauge')).toHaveLength(1);
    expect(body).toContain('istio_agent_go_goroutines');
  });
});
