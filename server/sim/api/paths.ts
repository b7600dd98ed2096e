/**
 * Parse a Kubernetes API request path into what it addresses. Handles
 *   /api/v1/RES                          /apis/G/V/RES
 *   /api/v1/RES/NAME[/SUB[/REST...]]      (cluster-scoped resources)
 *   /api/v1/namespaces/NS/RES[/NAME[/SUB[/REST...]]]   and the same under /apis/G/V
 * Segments are percent-decoded one by one (so an encoded "/" inside the proxy path survives as a
 * separator of the pod path, as Go's decoded URL.Path gives it).
 */
export interface ResourcePath {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** For pods/proxy: the path after "proxy", starting with "/". */
  rest?: string;
}

export type ApiPath =
  | { type: 'resource'; path: ResourcePath }
  | { type: 'groupVersion'; group: string; version: string }
  | { type: 'other' };

function decode(seg: string): string | undefined {
  try {
    return decodeURIComponent(seg);
  } catch {
    return undefined;
  }
}

export function parseApiPath(rawPath: string): ApiPath | { type: 'invalid'; error: string } {
  const raw = rawPath.split('/').slice(1);
  const trailingSlash = rawPath.length > 1 && rawPath.endsWith('/');
  if (trailingSlash) raw.pop();
  const segs: string[] = [];
  for (const s of raw) {
    const d = decode(s);
    if (d === undefined) return { type: 'invalid', error: `malformed percent-encoding in "${s}"` };
    segs.push(d);
  }
  let group: string;
  let version: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 2) {
    group = '';
    version = segs[1] ?? '';
    rest = segs.slice(2);
  } else if (segs[0] === 'apis' && segs.length >= 3) {
    group = segs[1] ?? '';
    version = segs[2] ?? '';
    rest = segs.slice(3);
  } else return { type: 'other' };
  if (rest.length === 0) return { type: 'groupVersion', group, version };

  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource = '', name, subresource, ...more] = rest;
  const path: ResourcePath = { group, version, resource };
  if (namespace !== undefined) path.namespace = namespace;
  if (name !== undefined) path.name = name;
  if (subresource !== undefined) path.subresource = subresource;
  if (subresource === 'proxy')
    path.rest = `/${more.join('/')}${trailingSlash && more.length > 0 ? '/' : ''}`;
  else if (more.length > 0) return { type: 'invalid', error: `unknown path ${rawPath}` };
  return { type: 'resource', path };
}
