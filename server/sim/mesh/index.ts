/**
 * The simulated Istio data plane and control plane behind pods/proxy and port-forward: answers GETs
 * to a pod's Istio ports with payloads shaped like the real ones, computed from the world.
 *
 *   15000 Envoy admin: /config_dump, /clusters, /stats (text, format=json|prometheus), /server_info, /ready
 *   15090 Envoy prometheus: /stats/prometheus
 *   15020 pilot-agent: /healthz/ready, /stats/prometheus (merged), /app-health/<ctr>/{readyz,livez,startupz}
 *   15021 health: /healthz/ready
 *   15014 istiod (app=istiod pods in istio-system): /debug/syncz, /debug/config_dump, /debug/edsz, /metrics
 *
 * Anything else is refused like a closed port (502 with a dial error, as the API server reports it).
 * Scenario hooks (pod annotations) are documented in annotations.ts.
 */
import { podSpec } from '../store/podshape';
import type { Pod } from '../../../lib/kube/types';
import { clustersJson, clustersText } from './clusterstatus';
import { configDumpResponse } from './configdump';
import { createEndpointIndexCache } from './endpoints';
import { istiodHttp, isIstiod, type IstiodDeps } from './istiod';
import { mergedPrometheus, envoyPrometheus } from './prometheus';
import { buildProxyContext, nodeJson, type ProxyContext } from './proxy';
import { createScopeCache } from './scope';
import { serverState, statsText } from './stats';
import { statsJson } from './statsjson';
import type { MeshEmulator, MeshWorld, PodHttpResponse } from './types';
import { isZtunnelPod, ztunnelHttp } from './ztunnel';
import {
  hasProxy,
  meshConfig,
  podIp,
  proxyReady,
  proxyRunning,
  configVersionOf,
  viewOf,
  type MeshConfig,
  type MeshView,
} from './world';

export type { MeshEmulator, MeshWorld, PodHttpResponse } from './types';

const PROXY_PORTS = new Set([15000, 15090, 15020, 15021]);

function text(
  status: number,
  body: string,
  contentType = 'text/plain; charset=UTF-8',
): PodHttpResponse {
  return { status, contentType, body };
}

function refused(pod: Pod, port: number): PodHttpResponse {
  const ip = podIp(pod) ?? '<none>';
  return text(
    502,
    `error trying to reach service: dial tcp ${ip}:${port}: connect: connection refused\n`,
  );
}

function json(body: unknown): PodHttpResponse {
  return {
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify(body, null, 2) + '\n',
  };
}

function envoyAdmin(ctx: ProxyContext, path: string, query: URLSearchParams): PodHttpResponse {
  switch (path) {
    case '/config_dump':
      return configDumpResponse(ctx, query);
    case '/clusters':
      return query.get('format') === 'json'
        ? json(clustersJson(ctx))
        : text(200, clustersText(ctx));
    case '/stats': {
      if (query.get('format') === 'prometheus') return text(200, envoyPrometheus(ctx));
      if (query.get('format') === 'json') {
        const j = statsJson(ctx, query);
        return j.status === 200 ? json(j.body) : text(j.status, j.body);
      }
      const r = statsText(ctx, query);
      return text(r.status, r.body);
    }
    case '/stats/prometheus':
      return text(200, envoyPrometheus(ctx), 'text/plain; version=0.0.4');
    case '/server_info': {
      const state = serverState(ctx);
      const uptime = `${Math.max(0, Math.floor((ctx.now.getTime() - ctx.startedAt.getTime()) / 1000))}s`;
      return json({
        version: `${ctx.clusters.version}/1.32.3/Clean/RELEASE/BoringSSL`,
        state: state.name,
        hot_restart_version: 'disabled',
        command_line_options: {
          base_id: '0',
          concurrency: 2,
          config_path: 'etc/istio/proxy/envoy-rev.json',
          mode: 'Serve',
          drain_time: '45s',
          parent_shutdown_time: '60s',
          drain_strategy: 'Immediate',
          service_cluster: '',
          service_node: '',
          local_address_ip_version: 'v4',
          log_level: 'warning',
          disable_hot_restart: true,
        },
        uptime_current_epoch: uptime,
        uptime_all_epochs: uptime,
        node: nodeJson(ctx),
      });
    }
    case '/ready': {
      const state = serverState(ctx);
      return text(state.code === 0 ? 200 : 503, `${state.name}\n`);
    }
    default:
      return text(
        404,
        'invalid path. admin commands are:\n  /config_dump\n  /clusters\n  /stats\n  /server_info\n  /ready\n',
      );
  }
}

function pilotAgent(ctx: ProxyContext, path: string): PodHttpResponse {
  if (path === '/healthz/ready') return proxyReady(ctx.pod) ? text(200, '') : text(503, '');
  if (path === '/stats/prometheus')
    return text(200, mergedPrometheus(ctx), 'text/plain; version=0.0.4');
  const probe = /^\/app-health\/([^/]+)\/(readyz|livez|startupz)$/.exec(path);
  if (probe) {
    const known = podSpec(ctx.pod).containers.some((c) => c.name === probe[1]);
    return known ? text(200, '') : text(404, `no probe for container ${probe[1]}\n`);
  }
  return text(404, '404 page not found\n');
}

export function createMeshEmulator(world: MeshWorld): MeshEmulator {
  const scopes = createScopeCache();
  const endpointCache = createEndpointIndexCache(() => {
    const model = world.xds?.();
    return model ? { model, now: world.now().getTime() } : undefined;
  });

  function contextFor(pod: Pod, view: MeshView): ProxyContext {
    const clusters = scopes.clustersFor(pod, view);
    return buildProxyContext(
      pod,
      world.now(),
      clusters,
      endpointCache.get(view),
      configVersionOf(view),
    );
  }

  function istiodDeps(view: MeshView, mesh: MeshConfig): IstiodDeps {
    const configVersion = configVersionOf(view);
    return {
      view,
      mesh,
      configVersion,
      contextFor: (p) => contextFor(p, view),
      xds: world.xds?.(),
      now: world.now().getTime(),
    };
  }

  return {
    warm() {
      const view = viewOf(world);
      const mesh = meshConfig(view.configMaps);
      const deps = istiodDeps(view, mesh);
      for (const pod of view.pods)
        if (isIstiod(pod, mesh) && podIp(pod))
          istiodHttp(pod, '/debug/syncz', new URLSearchParams(), deps);
    },
    podHttp(pod, port, path, query) {
      const view = viewOf(world);
      const mesh = meshConfig(view.configMaps);
      const cleanPath = path.length > 1 ? path.replace(/\/+$/, '') : path;
      if (port === 15014 && isIstiod(pod, mesh) && podIp(pod))
        return istiodHttp(pod, cleanPath, query, istiodDeps(view, mesh));
      // ztunnel is not Envoy: its own admin (ztunnel.ts)
      if (isZtunnelPod(pod) && podIp(pod)) return ztunnelHttp(pod, port, cleanPath, world);
      if (!PROXY_PORTS.has(port) || !hasProxy(pod) || !podIp(pod) || !proxyRunning(pod))
        return refused(pod, port);
      const ctx = contextFor(pod, view);
      switch (port) {
        case 15000:
          return envoyAdmin(ctx, cleanPath, query);
        case 15090:
          return cleanPath === '/stats/prometheus'
            ? text(200, envoyPrometheus(ctx), 'text/plain; version=0.0.4')
            : text(404, '404 page not found\n');
        case 15021:
          if (cleanPath === '/healthz/ready')
            return proxyReady(pod) ? text(200, '') : text(503, '');
          return text(404, '404 page not found\n');
        default:
          return pilotAgent(ctx, cleanPath);
      }
    },
  };
}
