/**
 * Reads what `kubectl` prints about pods: a Pod (JSON or YAML, multi-document), a PodList or
 * List (`get pods,events -o json`), or a watch stream (`get pods -w -o json
 * --output-watch-events`, one JSON per line or pretty values concatenated; plain `-w -o json`
 * without event wrappers too). Gives pods (last state per pod), events, transitions, and
 * errors with line/column. Never throws on bad input.
 */
import { z } from 'zod';
import { parseAllDocuments } from 'yaml';
import { yamlValue } from '../yaml-limits';
import type { KubeEvent, Pod } from '../kube/types';
import { splitJsonValues } from './jsonstream';
import { positionAt } from '../parse-problem';
import { type TimelineInputProblem, type TimelineInputReason } from './position';
import type { Transition } from './types';
import { diffPod } from './watch';
import { isJsonObject } from '../json-object';
import { podIdKeyOfObject } from '../refs/pod-ref';
import { describeOnlyEvents, looksLikeDescribe, readDescribe, type DescribedPod } from './describe';

export interface TimelineInput {
  pods: Pod[];
  events: KubeEvent[];
  transitions: Transition[];
  errors: TimelineInputProblem[];
  /** Parts of the input (values, lines, documents) that could not be read or used. */
  unreadable: number;
  stats: { values: number; watchEvents: number; deleted: number; ignored: Record<string, number> };
  /** `kubectl describe pod` text: each pod with what describe could not tell. */
  described?: DescribedPod[];
}

const PodShape = z.object({
  metadata: z.object({ name: z.string().min(1) }).passthrough(),
  spec: z
    .object({ containers: z.array(z.object({ name: z.string() }).passthrough()) })
    .passthrough(),
});
const EventShape = z.object({
  metadata: z.object({}).passthrough().optional(),
  involvedObject: z.object({}).passthrough(),
});

interface At {
  line: number;
  column: number;
}

class Collector {
  readonly pods = new Map<string, Pod>();
  readonly events: KubeEvent[] = [];
  readonly transitions: Transition[] = [];
  readonly errors: TimelineInputProblem[] = [];
  readonly stats: TimelineInput['stats'] = { values: 0, watchEvents: 0, deleted: 0, ignored: {} };
  private readonly seenTransitions = new Set<string>();
  unreadable = 0;

  /** One part of the input could not be used. */
  fail(at: At, reason: TimelineInputReason, message: string): void {
    this.unreadable++;
    this.errors.push({ ...at, reason, message });
  }

  ignore(kind: string): void {
    this.stats.ignored[kind] = (this.stats.ignored[kind] ?? 0) + 1;
  }

  pod(value: unknown, at: At, watch: boolean): void {
    const parsed = PodShape.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue?.path.join('.') ?? '';
      this.fail(
        at,
        'not-a-pod',
        `not a readable Pod: ${path ? `${path}: ` : ''}${issue?.message ?? 'invalid'}`,
      );
      return;
    }
    const pod = value as Pod;
    const key = podIdKeyOfObject(pod);
    const prev = this.pods.get(key);
    if (watch || prev) {
      for (const t of diffPod(prev, pod)) {
        const id = `${t.podUid}|${t.container}|${t.field}|${String(t.value)}|${t.time}`;
        if (t.field === 'startedAt' && this.seenTransitions.has(id)) continue;
        this.seenTransitions.add(id);
        this.transitions.push(t);
      }
    }
    // Keep the map in first-seen order, value = latest state.
    this.pods.set(key, pod);
  }

  value(value: unknown, at: At): void {
    if (Array.isArray(value)) {
      for (const v of value) this.value(v, at);
      return;
    }
    if (!isJsonObject(value)) {
      this.fail(
        at,
        'not-an-object',
        `expected an object, got ${value === null ? 'null' : typeof value}`,
      );
      return;
    }
    const kind = typeof value.kind === 'string' ? value.kind : '';
    if (typeof value.type === 'string' && 'object' in value && !kind)
      return this.watchEvent(value, at);
    if (Array.isArray(value.items) && (kind === '' || kind.endsWith('List'))) {
      for (const item of value.items) this.value(item, at);
      return;
    }
    if (
      kind === 'Pod' ||
      (!kind && isJsonObject(value.spec) && Array.isArray(value.spec.containers))
    ) {
      return this.pod(value, at, false);
    }
    if (kind === 'Event' || (!kind && 'involvedObject' in value)) {
      if (EventShape.safeParse(value).success) this.events.push(value as unknown as KubeEvent);
      else this.fail(at, 'not-an-event', 'not a readable Event');
      return;
    }
    if (kind === 'Status') {
      this.fail(
        at,
        'api-status',
        `API status: ${String(value.message ?? value.reason ?? 'error')}`,
      );
      return;
    }
    this.ignore(kind || 'unknown');
  }

  watchEvent(ev: Record<string, unknown>, at: At): void {
    this.stats.watchEvents++;
    const type = ev.type as string;
    const obj = ev.object;
    if (type === 'BOOKMARK') return this.ignore('BOOKMARK');
    if (type === 'ERROR') {
      const msg = isJsonObject(obj) ? String(obj.message ?? obj.reason ?? 'error') : 'error';
      this.fail(at, 'watch-error', `watch ERROR event: ${msg}`);
      return;
    }
    if (!['ADDED', 'MODIFIED', 'DELETED'].includes(type)) {
      this.fail(at, 'unknown-event-type', `unknown watch event type ${JSON.stringify(type)}`);
      return;
    }
    if (type === 'DELETED') this.stats.deleted++;
    if (isJsonObject(obj) && obj.kind === 'Event') return this.value(obj, at);
    this.pod(obj, at, true);
  }

  result(): TimelineInput {
    return {
      pods: [...this.pods.values()],
      events: this.events,
      transitions: this.transitions,
      errors: this.errors,
      unreadable: this.unreadable,
      stats: this.stats,
    };
  }
}

function readYaml(text: string, c: Collector): void {
  for (const doc of parseAllDocuments(text, { prettyErrors: false })) {
    const line = doc.range ? lineAt(text, doc.range[0]) : 1;
    if (doc.errors.length) {
      // one broken document is one unreadable part, whatever the number of errors in it
      c.unreadable++;
      for (const e of doc.errors) {
        const pos = positionAt(text, e.pos[0]);
        c.errors.push({
          ...pos,
          reason: 'invalid-yaml',
          message: `invalid YAML: ${e.message.split('\n')[0] ?? e.message}`,
        });
      }
      continue;
    }
    const read = yamlValue(doc);
    if ('error' in read) {
      c.unreadable++;
      c.errors.push({ line, column: 1, reason: 'invalid-yaml', message: read.error });
      continue;
    }
    const value = read.value;
    if (value === null || value === undefined) continue; // empty document (e.g. a trailing ---)
    c.stats.values++;
    c.value(value, { line, column: 1 });
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

export function readTimelineInput(text: string): TimelineInput {
  const c = new Collector();
  const first = /\S/.exec(text);
  if (!first) {
    c.fail({ line: 1, column: 1 }, 'empty', 'empty input');
    return c.result();
  }
  if (looksLikeDescribe(text)) {
    const read = readDescribe(text);
    c.errors.push(...read.errors);
    c.unreadable += read.errors.length;
    for (const d of read.pods) {
      c.pods.set(podIdKeyOfObject(d.pod), d.pod);
      c.events.push(...d.events);
    }
    return { ...c.result(), described: read.pods };
  }
  const eventsAt = describeOnlyEvents(text);
  if (eventsAt !== null) {
    c.fail(
      { line: eventsAt, column: 1 },
      'not-a-pod',
      'only the Events table of `kubectl describe pod`: the pod (Name, Containers) is not in the paste; paste the whole describe output',
    );
    return c.result();
  }
  if (first[0] === '{' || first[0] === '[') {
    const { values, errors } = splitJsonValues(text);
    // each error is a value or a line that was skipped
    c.unreadable += errors.length;
    c.errors.push(...errors);
    for (const v of values) {
      c.stats.values++;
      c.value(v.value, { line: v.line, column: v.column });
    }
  } else readYaml(text, c);
  return c.result();
}
