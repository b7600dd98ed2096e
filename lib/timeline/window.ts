/**
 * The Timelines time window: a pod belongs to [from, to] when it was alive at some moment of
 * it, i.e. it started before `to` and was not gone before `from`. A pod without a start time
 * (never scheduled) is kept only while it is not deleted, since nothing places it in time.
 */
export interface WindowedPod {
  startedAt: string | null;
  deletedAt: string | null;
}

const ms = (iso: string | null | undefined) => {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
};

export function aliveDuring(pod: WindowedPod, from?: string, to?: string): boolean {
  const lo = ms(from);
  const hi = ms(to);
  if (lo === null && hi === null) return true;
  const start = ms(pod.startedAt);
  const gone = ms(pod.deletedAt);
  if (start === null) return gone === null || lo === null || gone >= lo;
  if (hi !== null && start > hi) return false;
  if (lo !== null && gone !== null && gone < lo) return false;
  return true;
}
