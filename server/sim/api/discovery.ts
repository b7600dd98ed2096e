import { apiGroups, apiVersionOf, KINDS, type KindInfo } from '../store/kinds';
import { SCALABLE } from './scale';

/** What GET /version answers. */
export const VERSION_INFO = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0-meshdx-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.22.0',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

function resourceOf(info: KindInfo): ApiResource {
  const r: ApiResource = {
    name: info.plural,
    singularName: info.singular,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: VERBS,
  };
  if (info.shortNames.length > 0) r.shortNames = [...info.shortNames];
  if (info.categories.length > 0) r.categories = [...info.categories];
  return r;
}

const POD_SUBRESOURCES: ApiResource[] = [
  { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
  {
    name: 'pods/proxy',
    singularName: '',
    namespaced: true,
    kind: 'PodProxyOptions',
    verbs: ['create', 'delete', 'get', 'patch', 'update'],
  },
  {
    name: 'pods/portforward',
    singularName: '',
    namespaced: true,
    kind: 'PodPortForwardOptions',
    verbs: ['create', 'get'],
  },
];

/** APIResourceList for one group/version, or undefined when it is not served. */
export function resourceList(group: string, version: string): object | undefined {
  const infos = Object.values(KINDS).filter(
    (i) => i.group === group && i.versions.includes(version),
  );
  if (infos.length === 0) return undefined;
  const resources: ApiResource[] = [];
  for (const info of infos) {
    resources.push(resourceOf(info));
    if (info.resource === 'pods') resources.push(...POD_SUBRESOURCES);
    if (SCALABLE.has(info.resource)) {
      resources.push({
        name: `${info.plural}/scale`,
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf(group, version),
    resources,
  };
}

export function coreVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupOf(name: string, versions: readonly string[]): object {
  const vs = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

export function groupList(): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: apiGroups().map((g) => groupOf(g.name, g.versions)),
  };
}

/** APIGroup for GET /apis/<group>, or undefined. */
export function group(name: string): object | undefined {
  const g = apiGroups().find((x) => x.name === name);
  return g === undefined
    ? undefined
    : { kind: 'APIGroup', apiVersion: 'v1', ...groupOf(g.name, g.versions) };
}
