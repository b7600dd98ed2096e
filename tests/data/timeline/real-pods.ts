/**
 * Real pod statuses (tests/data/timeline/real/PROVENANCE.md) and the one reconstruction the
 * tests make of them: the same pod with a classic istio-proxy beside its app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Container, ContainerStatus, Pod } from '../../../lib/kube/types';
import { readFixture } from '../../../test-support/fixtures';

const here = path.join(import.meta.dirname, 'real');

interface WatchLine {
  type: string;
  object: Pod;
}

/** The watch events of kind-node-restart-then-delete.watch.jsonl, in order. */
export function kindNodeRestartWatch(): WatchLine[] {
  return fs
    .readFileSync(path.join(here, 'kind-node-restart-then-delete.watch.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as WatchLine);
}

function injectedProxySpec(): { init: Container; proxy: Container } {
  const golden = parseAllDocuments(readFixture('pods', 'injected_native-sidecar-opt-out.yaml'))
    .map((d) => d.toJS() as Pod)
    .find((d) => d?.kind === 'Pod');
  if (!golden) throw new Error('the injector golden output has no Pod');
  const init = golden.spec.initContainers?.find((c) => c.name === 'istio-init');
  const proxy = golden.spec.containers.find((c) => c.name === 'istio-proxy');
  if (!init || !proxy) throw new Error('the injector golden output has no istio-init/istio-proxy');
  return { init, proxy };
}

/**
 * The real pod with a classic sidecar added (NOT real: see PROVENANCE.md): istio-init and
 * istio-proxy from the injector's golden output, and the given istio-proxy status.
 */
export function meshed(pod: Pod, proxyStatus: ContainerStatus): Pod {
  const { init, proxy } = injectedProxySpec();
  return {
    ...pod,
    spec: {
      ...pod.spec,
      initContainers: [init],
      containers: [...pod.spec.containers, proxy],
    },
    status: {
      ...pod.status,
      containerStatuses: [...(pod.status?.containerStatuses ?? []), proxyStatus],
    },
  };
}

/** istio-proxy's status as a copy of the app's (its runs end with the app's). */
export function proxyLike(app: ContainerStatus): ContainerStatus {
  return { ...app, name: 'istio-proxy', image: 'docker.io/istio/proxyv2', imageID: '' };
}
