import { anyType, isObject, type JsonObject } from './fields';
import { classifyType, sectionKindForMapKey } from './sections';
import { readStructuredText } from './text';
import type { ConfigDump, DumpProblem, DumpResource, DumpSection, ParseResult } from './types';

function describeKeys(obj: JsonObject): string {
  const keys = Object.keys(obj);
  if (keys.length === 0) return 'an empty object';
  // a few keys, each cut short: a wrong file can have huge keys, the message must stay one line
  const cut = (k: string) => JSON.stringify(k.length > 32 ? `${k.slice(0, 31)}…` : k);
  const shown = keys.slice(0, 4).map(cut).join(', ');
  return `top-level keys [${shown}${keys.length > 4 ? `, +${keys.length - 4} more` : ''}]`;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** Finds `configs`, unwrapping one level of wrapper object ({"pod.ns": {configs: ...}}). */
function locateConfigs(root: JsonObject): { configs: unknown; path: string } | null {
  if ('configs' in root) return { configs: root.configs, path: 'configs' };
  for (const [key, value] of Object.entries(root)) {
    if (isObject(value) && 'configs' in value) {
      return { configs: value.configs, path: `${key}.configs` };
    }
  }
  return null;
}

function fromList(list: unknown[], base: string, dump: ConfigDump, errors: DumpProblem[]): void {
  list.forEach((entry, i) => {
    const path = `${base}[${i}]`;
    if (!isObject(entry)) {
      errors.push({
        line: 0,
        reason: 'bad-entry',
        message: `${path} is ${describeValue(entry)}`,
        path,
      });
      return;
    }
    const type = anyType(entry);
    const match = classifyType(type);
    if (!match) {
      errors.push({
        line: 0,
        reason: 'unknown-section',
        message: `${path} has ${type ? `@type ${type}` : 'no @type'}, not an Envoy admin config dump type`,
        path,
      });
      return;
    }
    if (match.element) {
      const resource: DumpResource = {
        kind: match.kind,
        element: match.element,
        path,
        body: entry,
      };
      dump.resources.push(resource);
    } else dump.sections.push({ kind: match.kind, type, path, body: entry });
  });
}

function fromMap(map: JsonObject, base: string, dump: ConfigDump, errors: DumpProblem[]): void {
  for (const [key, entry] of Object.entries(map)) {
    const path = `${base}.${key}`;
    if (!isObject(entry)) {
      errors.push({
        line: 0,
        reason: 'bad-entry',
        message: `${path} is ${describeValue(entry)}`,
        path,
      });
      continue;
    }
    const type = anyType(entry);
    const kind = (type ? classifyType(type)?.kind : null) ?? sectionKindForMapKey(key);
    if (!kind) {
      errors.push({
        line: 0,
        reason: 'unknown-section',
        message: `${path}: unknown config dump key`,
        path,
      });
      continue;
    }
    const section: DumpSection = { kind, type, path, body: entry };
    dump.sections.push(section);
  }
}

/** Turns an already parsed JSON/YAML value into a ConfigDump, or explains why it is not one. */
export function readConfigDumpValue(value: unknown, syntax: 'json' | 'yaml'): ParseResult {
  if (!isObject(value)) {
    return {
      dump: null,
      errors: [
        {
          line: 0,
          reason: 'not-config-dump',
          message: `not an Envoy config dump: the document is ${describeValue(value)}, expected an object with "configs"`,
        },
      ],
    };
  }
  const found = locateConfigs(value);
  if (!found) {
    return {
      dump: null,
      errors: [
        {
          line: 0,
          reason: 'not-config-dump',
          message: `not an Envoy config dump: ${describeKeys(value)}, expected "configs"`,
        },
      ],
    };
  }
  const errors: DumpProblem[] = [];
  const { configs, path } = found;
  const isList = Array.isArray(configs);
  if (!isList && !isObject(configs)) {
    const message = `not an Envoy config dump: "${path}" is ${describeValue(configs)}`;
    return { dump: null, errors: [{ line: 0, reason: 'not-config-dump', message, path }] };
  }
  const dump: ConfigDump = { layout: 'configs-list', syntax, sections: [], resources: [] };
  if (isList) fromList(configs, path, dump, errors);
  else fromMap(configs, path, dump, errors);
  if (dump.resources.length > 0 && dump.sections.length === 0) dump.layout = 'resource-list';
  if (!isList) dump.layout = 'configs-map';
  const entries = isList ? configs.length : Object.keys(configs).length;
  if (entries > 0 && dump.sections.length === 0 && dump.resources.length === 0) {
    return {
      dump: null,
      errors: [
        {
          line: 0,
          reason: 'not-config-dump',
          message: `not an Envoy config dump: none of the ${entries} entries of "${path}" is an Envoy admin config dump section`,
          path,
        },
        ...errors,
      ],
    };
  }
  return { dump, errors };
}

/** Parses a config dump from text (JSON or YAML, snake_case or camelCase, any layout). */
export function parseConfigDump(text: string): ParseResult {
  const read = readStructuredText(text);
  if (read.errors.length > 0) return { dump: null, errors: read.errors };
  return readConfigDumpValue(read.value, read.syntax);
}

/** Sections of one kind, in document order. */
export function sectionsOf(dump: ConfigDump, kind: DumpSection['kind']): DumpSection[] {
  return dump.sections.filter((s) => s.kind === kind);
}

/** Single resources of one kind (from `?resource=`), in document order. */
export function resourcesOf(dump: ConfigDump, kind: DumpResource['kind']): DumpResource[] {
  return dump.resources.filter((r) => r.kind === kind);
}
