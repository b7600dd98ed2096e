import { createHash } from 'node:crypto';
import { apiVersionOf, KINDS, type KindInfo } from '../store/kinds';

/**
 * OpenAPI v3 as the API server publishes it (/openapi/v3 and /openapi/v3/<api|apis/G>/<V>), only
 * as deep as clients read it. kubectl 1.32 needs it before `apply`/`create`: it looks for the
 * PATCH operation of the object's group-version-kind and, finding the `fieldValidation` query
 * parameter there, leaves validation to the server instead of downloading the (protobuf-only)
 * OpenAPI v2 schema. Schemas are open objects: the simulator checks names, kinds and
 * namespaces, not field types.
 */

type Json = Record<string, unknown>;

/** Path key of a group-version in the index ("api/v1", "apis/networking.istio.io/v1"). */
export function gvPathKey(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

function servedGroupVersions(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const info of Object.values(KINDS)) {
    for (const version of info.versions) {
      seen.set(gvPathKey(info.group, version), { group: info.group, version });
    }
  }
  return [...seen.values()];
}

const BUILTIN_PREFIX: Record<string, string> = {
  '': 'io.k8s.api.core',
  'discovery.k8s.io': 'io.k8s.api.discovery',
  apps: 'io.k8s.api.apps',
  batch: 'io.k8s.api.batch',
  'networking.k8s.io': 'io.k8s.api.networking',
  'admissionregistration.k8s.io': 'io.k8s.api.admissionregistration',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
};

function schemaName(info: KindInfo, version: string): string {
  const builtin = BUILTIN_PREFIX[info.group];
  if (builtin !== undefined) return `${builtin}.${version}.${info.kind}`;
  return `${info.group.split('.').reverse().join('.')}.${version}.${info.kind}`;
}

const queryParam = (name: string, description: string): Json => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string', uniqueItems: true },
});

const WRITE_PARAMS = [
  queryParam('dryRun', 'When present, modifications are not persisted (accepted, ignored).'),
  queryParam('fieldManager', 'Name of the actor making the change.'),
  queryParam(
    'fieldValidation',
    'Ignore, Warn or Strict: how the server treats unknown or duplicate fields.',
  ),
];

function patchContentTypes(_info: KindInfo): string[] {
  // Built-in kinds do take strategic merge patch (the server does, see patchhandler), but it is
  // not advertised here: kubectl would then look up each patched field's merge keys in these
  // open schemas, fail ("unable to find api field") and print a warning before falling back to
  // the merge keys compiled into it. Unadvertised, it uses those at once, as the real schemas
  // would have told it.
  const base = ['application/json-patch+json', 'application/merge-patch+json'];
  base.push('application/apply-patch+yaml');
  return base;
}

function operations(info: KindInfo, version: string): Record<string, Json> {
  const gvk = { group: info.group, version, kind: info.kind };
  const ref = { $ref: `#/components/schemas/${schemaName(info, version)}` };
  const body = (types: string[]): Json => ({
    required: true,
    content: Object.fromEntries(types.map((t) => [t, { schema: ref }])),
  });
  const ok = (code: string): Json => ({
    [code]: { description: 'OK', content: { 'application/json': { schema: ref } } },
  });
  const op = (action: string, extra: Json = {}): Json => ({
    operationId: `${action}${info.kind}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
    responses: ok('200'),
    ...extra,
  });
  const prefix = `/${gvPathKey(info.group, version)}`;
  const coll = info.namespaced
    ? `${prefix}/namespaces/{namespace}/${info.plural}`
    : `${prefix}/${info.plural}`;
  const scopeParams: Json[] = info.namespaced
    ? [{ name: 'namespace', in: 'path', required: true, schema: { type: 'string' } }]
    : [];
  const nameParam = { name: 'name', in: 'path', required: true, schema: { type: 'string' } };
  return {
    [coll]: {
      parameters: scopeParams,
      get: op('list'),
      post: op('post', {
        parameters: WRITE_PARAMS,
        requestBody: body(['*/*']),
        responses: { ...ok('200'), ...ok('201') },
      }),
    },
    [`${coll}/{name}`]: {
      parameters: [nameParam, ...scopeParams],
      get: op('get'),
      put: op('put', { parameters: WRITE_PARAMS, requestBody: body(['*/*']) }),
      patch: op('patch', {
        parameters: [...WRITE_PARAMS, queryParam('force', 'Force Apply requests.')],
        requestBody: body(patchContentTypes(info)),
        responses: { ...ok('200'), ...ok('201') },
      }),
      delete: op('delete'),
    },
  };
}

function schema(info: KindInfo, version: string): Json {
  const open = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return {
    type: 'object',
    description: `${info.kind} (${apiVersionOf(info.group, version)}), as the meshdx simulator serves it`,
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      spec: open,
      status: open,
      data: { type: 'object', additionalProperties: { type: 'string' } },
    },
    'x-kubernetes-preserve-unknown-fields': true,
    'x-kubernetes-group-version-kind': [{ group: info.group, version, kind: info.kind }],
  };
}

const OBJECT_META: Json = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    generateName: { type: 'string' },
    namespace: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    resourceVersion: { type: 'string' },
    uid: { type: 'string' },
  },
  'x-kubernetes-preserve-unknown-fields': true,
};

/** The OpenAPI v3 document of one group-version, or undefined when it is not served. */
export function openApiV3Document(group: string, version: string): Json | undefined {
  const infos = Object.values(KINDS).filter(
    (i) => i.group === group && i.versions.includes(version),
  );
  if (infos.length === 0) return undefined;
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': OBJECT_META,
  };
  for (const info of infos) {
    Object.assign(paths, operations(info, version));
    schemas[schemaName(info, version)] = schema(info, version);
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes (meshdx simulator)', version: 'v1.31.0-meshdx-sim' },
    paths,
    components: { schemas },
  };
}

const docCache = new Map<string, { body: string; hash: string }>();

/** Serialised document and its content hash (clients cache documents by that hash). */
export function openApiV3Served(
  group: string,
  version: string,
): { body: string; hash: string } | undefined {
  const key = gvPathKey(group, version);
  const hit = docCache.get(key);
  if (hit !== undefined) return hit;
  const doc = openApiV3Document(group, version);
  if (doc === undefined) return undefined;
  const body = JSON.stringify(doc);
  const hash = createHash('sha512').update(body).digest('hex').slice(0, 128).toUpperCase();
  const out = { body, hash };
  docCache.set(key, out);
  return out;
}

/** GET /openapi/v3: where each group-version's document lives. */
export function openApiV3Index(): Json {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, version } of servedGroupVersions()) {
    const served = openApiV3Served(group, version);
    if (served === undefined) continue;
    const key = gvPathKey(group, version);
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${served.hash}` };
  }
  return { paths };
}

/** "/openapi/v3/api/v1" or "/openapi/v3/apis/G/V" into group and version. */
export function parseOpenApiV3Path(p: string): { group: string; version: string } | undefined {
  const m = /^\/openapi\/v3\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))\/?$/.exec(p);
  if (m === null) return undefined;
  if (m[1] !== undefined) return { group: '', version: m[1] };
  return { group: m[2] ?? '', version: m[3] ?? '' };
}
