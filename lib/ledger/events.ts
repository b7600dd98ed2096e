import type { PodEvent, PodEventType } from './types';
import { asObj, observePod, time } from './observation';
import { createJsonSplitter, type JsonSplitterOptions, type StreamProblem } from '../json-stream';
import type { ParseProblem } from '../parse-problem';

export interface HistoryProblem extends ParseProblem {
  reason: StreamProblem['reason'] | 'invalid-json' | 'not-a-pod' | 'watch-error';
}

export interface HistoryCounts {
  values: number;
  events: number;
  bookmarks: number;
  /** Events that carried their own observation time. */
  timed: number;
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED']);
/** Keys meshdx accepts for an observation time on a watch event (kubectl writes none). */
const TIME_KEYS = ['time', 'observedAt', 'timestamp'];

/**
 * Turns one JSON value of a history file into pod events: a watch event
 * `{"type":"ADDED","object":{Pod}}`, a PodList/List, or a plain Pod.
 */
export function eventsFromValue(
  value: unknown,
  line: number,
): { events: PodEvent[]; problems: HistoryProblem[]; bookmarks: number } {
  const obj = asObj(value);
  const events: PodEvent[] = [];
  const problems: HistoryProblem[] = [];
  if (!obj)
    return {
      events,
      problems: [{ line, reason: 'not-a-pod', message: 'JSON value is not an object' }],
      bookmarks: 0,
    };
  const add = (type: PodEventType, pod: unknown, at: number | null) => {
    const observed = observePod(pod);
    if (typeof observed === 'string')
      problems.push({ line, reason: 'not-a-pod', message: observed });
    else events.push({ type, pod: observed, time: at });
  };
  if (typeof obj.type === 'string' && 'object' in obj) {
    if (obj.type === 'BOOKMARK') return { events, problems, bookmarks: 1 };
    if (!EVENT_TYPES.has(obj.type)) {
      const status = asObj(obj.object);
      const message = typeof status?.message === 'string' ? status.message : obj.type;
      return { events, problems: [{ line, reason: 'watch-error', message }], bookmarks: 0 };
    }
    add(obj.type as PodEventType, obj.object, eventTime(obj));
    return { events, problems, bookmarks: 0 };
  }
  if (Array.isArray(obj.items)) {
    for (const item of obj.items) add('LISTED', item, null);
    return { events, problems, bookmarks: 0 };
  }
  add('LISTED', obj, null);
  return { events, problems, bookmarks: 0 };
}

function eventTime(obj: Record<string, unknown>): number | null {
  for (const key of TIME_KEYS) {
    const t = time(obj[key]);
    if (t !== null) return t;
  }
  return null;
}

export interface HistoryReader {
  push(chunk: string): PodEvent[];
  end(): void;
  problems: HistoryProblem[];
  counts: HistoryCounts;
}

/** Reads a history file chunk by chunk (see json-stream.ts for the accepted layouts). */
export function createHistoryReader(
  maxProblems = 1000,
  limits: JsonSplitterOptions = {},
): HistoryReader {
  const splitter = createJsonSplitter(limits);
  const problems: HistoryProblem[] = [];
  const counts: HistoryCounts = { values: 0, events: 0, bookmarks: 0, timed: 0 };
  const note = (p: HistoryProblem) => {
    if (problems.length < maxProblems) problems.push(p);
  };
  return {
    problems,
    counts,
    push(chunk) {
      const out: PodEvent[] = [];
      const { values, problems: streamProblems } = splitter.push(chunk);
      streamProblems.forEach(note);
      for (const v of values) {
        counts.values++;
        let parsed: unknown;
        try {
          parsed = JSON.parse(v.text);
        } catch (e) {
          note({
            line: v.line,
            reason: 'invalid-json',
            message: e instanceof Error ? e.message : String(e),
          });
          continue;
        }
        const r = eventsFromValue(parsed, v.line);
        r.problems.forEach(note);
        counts.bookmarks += r.bookmarks;
        counts.events += r.events.length;
        counts.timed += r.events.filter((e) => e.time !== null).length;
        out.push(...r.events);
      }
      return out;
    },
    end() {
      splitter.end().problems.forEach(note);
    },
  };
}

/** Reads a whole history text at once. */
export function readHistory(text: string): {
  events: PodEvent[];
  problems: HistoryProblem[];
  counts: HistoryCounts;
} {
  const reader = createHistoryReader();
  const events = reader.push(text);
  reader.end();
  return { events, problems: reader.problems, counts: reader.counts };
}
