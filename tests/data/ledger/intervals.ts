/** Generated pod IP histories with every kind of interval, and tables of them (test data). */
import {
  IntervalTable,
  IntervalTableBuilder,
  type IntervalIdentity,
} from '../../../lib/ledger/interval-table';
import type { FromSource, PodInterval } from '../../../lib/ledger/types';
import { T0, MIN } from './pods';
import { mulberry32 } from '../../../lib/random';

const SOURCES: FromSource[] = ['event', 'startTime', 'condition', 'creationTimestamp'];

/** IPs held in turn by pods with every kind of interval: estimated starts, overlaps, open ends. */
export function intervals(seed: number): PodInterval[] {
  const r = mulberry32(seed);
  const out: PodInterval[] = [];
  for (let ip = 0; ip < 40; ip++) {
    let t = T0 + Math.floor(r() * 10) * MIN;
    const holders = 1 + Math.floor(r() * 6);
    for (let h = 0; h < holders; h++) {
      const last = h === holders - 1;
      const from = t + (r() < 0.2 ? -Math.floor(r() * 3) * MIN : 0); // some overlap the previous
      const deleting = !last || r() < 0.3;
      const deletionStartedAt = deleting ? from + Math.floor(5 + r() * 20) * MIN : null;
      const goneAt =
        deletionStartedAt !== null && r() < 0.9
          ? deletionStartedAt + Math.floor(r() * 60_000)
          : null;
      const uncertain = goneAt !== null && r() < 0.3;
      out.push({
        ip: `10.0.${ip}.7`, // each IP held by its pods in turn
        namespace: `ns-${ip % 3}`,
        name: `pod-${ip}-${h}`,
        uid: r() < 0.1 ? null : `uid-${ip}-${h}`,
        owner: r() < 0.2 ? null : { kind: 'ReplicaSet', name: `rs-${ip % 5}` },
        node: r() < 0.1 ? null : `node-${h}`,
        from,
        fromSource: SOURCES[Math.floor(r() * 4)] as FromSource,
        deletionStartedAt,
        graceEndsAt: deletionStartedAt === null ? null : deletionStartedAt + 30_000,
        goneAt,
        goneUncertain: uncertain,
        lastSeenAt: r() < 0.5 ? null : from + MIN,
      });
      t = (goneAt ?? deletionStartedAt ?? from + 30 * MIN) + Math.floor(r() * 4) * MIN;
    }
  }
  return out;
}

export function tableOf(list: PodInterval[]): IntervalTable {
  const b = new IntervalTableBuilder();
  for (const i of [...list].reverse()) {
    const who: IntervalIdentity = {
      namespace: i.namespace,
      name: i.name,
      uid: i.uid,
      owner: i.owner,
      node: i.node,
    };
    b.add(i.ip, i, JSON.stringify(who));
  }
  return IntervalTable.from(b, { decode: (text) => JSON.parse(text) as IntervalIdentity });
}
