/**
 * What is wrong with one object's shape, field by field, for the kinds meshdx checks: the
 * fields each check reads must be of the type it reads them as. [] when the object can be read.
 * Used by the findings screen (lib/findings/screen.ts) and by the adapters that list objects.
 */
import { isJsonObject } from '../json-object';
export type Obj = Record<string, unknown>;

export const isObj = isJsonObject;
export const isStr = (v: unknown): v is string => typeof v === 'string';

/** Kinds whose pod template meshdx reads (a Deployment's pods-to-be). */
export const TEMPLATE_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
]);

function stringMap(v: unknown, path: string, out: string[]): void {
  if (v === undefined || v === null) return;
  if (!isObj(v)) {
    out.push(`${path} is not a map`);
    return;
  }
  // keys, not entries: every object's labels and annotations pass here (no pair arrays made)
  for (const k of Object.keys(v)) {
    if (!isStr(v[k])) out.push(`${path}.${k} is not a string`);
  }
}

function optArray(v: unknown, path: string, out: string[]): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    out.push(`${path} is not a list`);
    return [];
  }
  return v;
}

function containers(v: unknown, path: string, out: string[], required: boolean): void {
  if (required && (v === undefined || v === null)) {
    out.push(`${path} is missing`);
    return;
  }
  optArray(v, path, out).forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!isObj(c)) {
      out.push(`${p} is not an object`);
      return;
    }
    if (!isStr(c.name) || c.name === '') out.push(`${p}.name is missing`);
    optArray(c.ports, `${p}.ports`, out).forEach((cp, j) => {
      if (!isObj(cp) || typeof cp.containerPort !== 'number') {
        out.push(`${p}.ports[${j}].containerPort is not a number`);
      }
    });
    optArray(c.env, `${p}.env`, out).forEach((e, j) => {
      if (!isObj(e) || !isStr(e.name)) out.push(`${p}.env[${j}].name is missing`);
    });
  });
}

function podSpec(v: unknown, path: string, out: string[]): void {
  if (!isObj(v)) {
    out.push(v === undefined ? `${path} is missing` : `${path} is not an object`);
    return;
  }
  containers(v.containers, `${path}.containers`, out, true);
  containers(v.initContainers, `${path}.initContainers`, out, false);
  if (v.nodeName !== undefined && !isStr(v.nodeName)) out.push(`${path}.nodeName is not a string`);
}

/** What is wrong with an object's metadata alone; [] when its name, labels and annotations can be read. */
export function metadataProblems(o: Obj): string[] {
  const out: string[] = [];
  metaProblems(o.metadata, out);
  return out;
}

function metaProblems(meta: unknown, out: string[]): void {
  if (!isObj(meta)) {
    out.push('metadata is missing');
    return;
  }
  if (!isStr(meta.name) || meta.name === '') out.push('metadata.name is missing');
  if (meta.namespace !== undefined && !isStr(meta.namespace)) {
    out.push('metadata.namespace is not a string');
  }
  stringMap(meta.labels, 'metadata.labels', out);
  stringMap(meta.annotations, 'metadata.annotations', out);
  optArray(meta.ownerReferences, 'metadata.ownerReferences', out).forEach((o, i) => {
    if (!isObj(o) || !isStr(o.kind) || !isStr(o.name)) {
      out.push(`metadata.ownerReferences[${i}] has no kind and name`);
    }
  });
}

function specObject(o: Obj, out: string[]): Obj {
  if (!isObj(o.spec)) {
    out.push(o.spec === undefined ? 'spec is missing' : 'spec is not an object');
    return {};
  }
  return o.spec;
}

function stringList(v: unknown, path: string, out: string[]): void {
  optArray(v, path, out).forEach((h, i) => {
    if (!isStr(h)) out.push(`${path}[${i}] is not a string`);
  });
}

function destinations(routes: unknown, path: string, out: string[]): void {
  optArray(routes, path, out).forEach((r, i) => {
    if (!isObj(r)) {
      out.push(`${path}[${i}] is not an object`);
      return;
    }
    // an empty entry (`- {}`) or a destination without host is read as host "" (istioctl
    // reports it as a reference to nothing); only a value of the wrong type is malformed
    optArray(r.route, `${path}[${i}].route`, out).forEach((d, j) => {
      const at = `${path}[${i}].route[${j}]`;
      if (!isObj(d)) out.push(`${at} is not an object`);
      else if (d.destination !== undefined && d.destination !== null) {
        if (!isObj(d.destination)) out.push(`${at}.destination is not an object`);
        else if (d.destination.host !== undefined && !isStr(d.destination.host)) {
          out.push(`${at}.destination.host is not a string`);
        }
      }
    });
    if (r.mirror !== undefined && r.mirror !== null) {
      if (!isObj(r.mirror)) out.push(`${path}[${i}].mirror is not an object`);
      else if (r.mirror.host !== undefined && !isStr(r.mirror.host)) {
        out.push(`${path}[${i}].mirror.host is not a string`);
      }
    }
  });
}

/** What is wrong with an object of a kind meshdx checks; [] when it can be read. */
export function objectProblems(o: Obj): string[] {
  const out: string[] = [];
  metaProblems(o.metadata, out);
  const kind = o.kind;
  if (kind === 'Pod') podSpec(o.spec, 'spec', out);
  else if (kind === 'Service') {
    const spec = specObject(o, out);
    stringMap(spec.selector, 'spec.selector', out);
    if (spec.type !== undefined && !isStr(spec.type)) out.push('spec.type is not a string');
    optArray(spec.ports, 'spec.ports', out).forEach((p, i) => {
      if (!isObj(p)) out.push(`spec.ports[${i}] is not an object`);
      else if (typeof p.port !== 'number' || !Number.isInteger(p.port)) {
        out.push(`spec.ports[${i}].port is not a number`);
      } else if (p.name !== undefined && !isStr(p.name)) {
        out.push(`spec.ports[${i}].name is not a string`);
      }
    });
  } else if (kind === 'Sidecar') {
    const spec = specObject(o, out);
    if (spec.workloadSelector !== undefined) {
      const ws = spec.workloadSelector;
      if (!isObj(ws)) out.push('spec.workloadSelector is not an object');
      else stringMap(ws.labels, 'spec.workloadSelector.labels', out);
    }
    optArray(spec.egress, 'spec.egress', out).forEach((e, i) => {
      if (!isObj(e)) out.push(`spec.egress[${i}] is not an object`);
      else stringList(e.hosts, `spec.egress[${i}].hosts`, out);
    });
  } else if (kind === 'DestinationRule') {
    const spec = specObject(o, out);
    if (!isStr(spec.host) || spec.host === '') out.push('spec.host is missing');
    optArray(spec.subsets, 'spec.subsets', out).forEach((s, i) => {
      if (!isObj(s) || !isStr(s.name)) out.push(`spec.subsets[${i}].name is missing`);
      else stringMap(s.labels, `spec.subsets[${i}].labels`, out);
    });
    stringList(spec.exportTo, 'spec.exportTo', out);
  } else if (kind === 'VirtualService') {
    const spec = specObject(o, out);
    stringList(spec.hosts, 'spec.hosts', out);
    stringList(spec.gateways, 'spec.gateways', out);
    stringList(spec.exportTo, 'spec.exportTo', out);
    destinations(spec.http, 'spec.http', out);
    destinations(spec.tcp, 'spec.tcp', out);
    destinations(spec.tls, 'spec.tls', out);
  } else if (kind === 'ServiceEntry') {
    const spec = specObject(o, out);
    if (!Array.isArray(spec.hosts)) out.push('spec.hosts is missing');
    else stringList(spec.hosts, 'spec.hosts', out);
    stringList(spec.exportTo, 'spec.exportTo', out);
    if (spec.workloadSelector !== undefined) {
      const ws = spec.workloadSelector;
      if (!isObj(ws)) out.push('spec.workloadSelector is not an object');
      else stringMap(ws.labels, 'spec.workloadSelector.labels', out);
    }
  } else if (isStr(kind) && TEMPLATE_KINDS.has(kind)) {
    const spec = specObject(o, out);
    const tpl = kind === 'CronJob' ? jobTemplate(spec) : spec.template;
    if (!isObj(tpl))
      out.push(`${kind === 'CronJob' ? 'spec.jobTemplate.spec' : 'spec'}.template is missing`);
    else {
      if (tpl.metadata !== undefined) {
        if (!isObj(tpl.metadata)) out.push('spec.template.metadata is not an object');
        else {
          stringMap(tpl.metadata.labels, 'spec.template.metadata.labels', out);
          stringMap(tpl.metadata.annotations, 'spec.template.metadata.annotations', out);
        }
      }
      podSpec(tpl.spec, 'spec.template.spec', out);
    }
  }
  return out;
}

/** A CronJob's pod template (spec.jobTemplate.spec.template). */
export function jobTemplate(spec: Obj): unknown {
  const jt = spec.jobTemplate;
  if (!isObj(jt) || !isObj(jt.spec)) return undefined;
  return jt.spec.template;
}
