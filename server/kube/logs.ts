import { badParameter } from '../../lib/api/request-error';
import { requireName } from '../../lib/kube/names';
import type { KubeTransport } from './transport';

export interface LogOptions {
  /** RFC 3339 time: only lines at or after it. */
  sinceTime?: string;
  tailLines?: number;
  timestamps?: boolean;
  previous?: boolean;
  timeoutMs?: number;
  limitBytes?: number;
}

/** The log of one container (pods/log), as text. */
export async function podLogs(
  t: KubeTransport,
  namespace: string,
  pod: string,
  container: string,
  opts: LogOptions = {},
): Promise<string> {
  const ns = requireName('namespace', namespace);
  const name = requireName('pod', pod);
  const ctr = requireName('container', container);
  if (opts.sinceTime !== undefined && Number.isNaN(Date.parse(opts.sinceTime))) {
    throw badParameter('from', `${JSON.stringify(opts.sinceTime)} is not an RFC 3339 time`);
  }
  const res = await t.request(`/api/v1/namespaces/${ns}/pods/${name}/log`, {
    query: {
      container: ctr,
      sinceTime: opts.sinceTime,
      tailLines: opts.tailLines,
      timestamps: opts.timestamps,
      previous: opts.previous,
      limitBytes: opts.limitBytes,
    },
    accept: 'text/plain',
    timeoutMs: opts.timeoutMs ?? 30_000,
  });
  return res.body;
}
