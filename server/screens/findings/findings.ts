import type { FindingsReport } from '../../../lib/api/findings';
import { archiveAnalyzeBeside } from './archive-analyze';
import { getClusterInfo } from '../cluster/info';
import {
  listGatewaysForRoutes,
  listIstioConfig,
  listNamespaces,
  listNodes,
  listServices,
} from '../../kube/resources';
import { runtimeFor } from '../../runtime/registry';
import { listKinds } from '../../kube/kind-lists';
import { Memo } from '../../runtime/memo';
import { scopingOf } from '../scoping/scoping';
import { incidentsOf } from '../incidents/incidents';
import { ambientOf } from '../overview/ambient';
import { timelineFleetOf } from '../timelines/timelines';
import { lastReads, podListDetail, viewDeadline } from '../deadline';
import type { RequestScope } from '../../auth/identity';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import {
  logOptions,
  readAccessLogs,
  sharedLogs,
  type FindingsOptions,
  type LogProgress,
} from './access-logs';
import type { Pod, Service } from '../../../lib/kube/types';
import {
  assemble,
  CHANGE_KINDS,
  makeBase,
  PART,
  RULE_INPUT_KINDS,
  ruleInputNamespace,
  unreadRuleInputs,
  type Base,
  type FindingsRun,
  type Lists,
  type PartValue,
  type Parts,
} from './assemble';

export type { FindingsOptions };

/** A finished report is served this long: Overview and Findings both ask for it. */
export const FINDINGS_CACHE_MS = 30_000;

/**
 * The report of a context's cluster: one computation at a time, served from memory for a short
 * while (Overview's attention card and the Findings view ask for the same report). Options that
 * change what is read skip the cache.
 *
 * The first answer does not wait for the analyses: as soon as the lists every finding is made
 * from are in, the report of what is in (the config findings of the listed objects, and each
 * analysis already finished) is the answer, the analyses still running named as late with how
 * far they got; the computation goes on and the screens ask again until the report is whole.
 * Only the lists are waited for (by the view's deadline, else the 503 naming them): on a fresh
 * server they are the pod watch's first list and a few small lists.
 */
export async function getFindings(
  scope: RequestScope,
  opts: FindingsOptions = {},
): Promise<FindingsReport> {
  // the cluster's description (is it an archive?) is asked beside the report, not after it: on a
  // slow API server it would otherwise add a round trip past the view's deadline
  const infoAsked = getClusterInfo(scope);
  infoAsked.catch(() => undefined);
  const report = await findingsReportOf(scope, opts);
  const info = await infoAsked;
  if (!info.archive || report.late) return report;
  const istioctl = await archiveAnalyzeBeside(runtimeFor(scope), report);
  return istioctl ? { ...report, istioctl } : report;
}

async function findingsReportOf(
  scope: RequestScope,
  opts: FindingsOptions,
): Promise<FindingsReport> {
  const rt = runtimeFor(scope);
  if (Object.keys(opts).length > 0) return startFindingsRun(rt, opts).report;
  const { job, run } = findingsJob(rt);
  const current = run();
  if (!current) return job;
  // the whole report if in first, else what is in once the lists are; made for a change, once
  // the analyses of the configuration are in too (what stands in for them predates the change)
  let timer: NodeJS.Timeout | undefined;
  const grace = () => new Promise((r) => (timer = setTimeout(r, AFTER_CHANGE_GRACE_MS)));
  const waited = current.afterChange
    ? Promise.race([current.configIn, current.listed.then(grace)])
    : current.listed;
  await Promise.race([job, waited]).finally(() => clearTimeout(timer));
  return current.soFar() ?? job;
}

/** How long past its lists a report made for a configuration change is waited for, at most. */
const AFTER_CHANGE_GRACE_MS = 1_500;

/** The whole report (every analysis in, or late by the view's deadline), not a first answer. */
export function getWholeFindings(scope: RequestScope): Promise<FindingsReport> {
  return findingsJob(runtimeFor(scope)).job;
}

/** The runtime's cached report (FINDINGS_CACHE_MS). */
export const findingsScreen = defineScreen(
  'findings',
  () => new Memo<FindingsReport>(FINDINGS_CACHE_MS),
);
/** The last run's analyses, which stand in for the next run's until they are in. */
const findingsRunScreen = defineScreen<{ run: FindingsRun | null }>('findings-run', () => ({
  run: null,
}));

/** While a report was asked for this recently, a configuration change starts the next one. */
const FOLLOW_ASKED_MS = 10 * 60_000;
/** Changes this close together (a `kubectl apply -f dir/`) make one report. */
const FOLLOW_SETTLE_MS = 150;

/**
 * A configuration change heard (rt.configChanges) drops the cached report, and, while someone
 * is looking (a report asked for within FOLLOW_ASKED_MS), starts the next one at once, so the
 * browser polling the revision finds it made or under way.
 */
const findingsFollowScreen = defineScreen('findings-follow', (rt) => {
  const follow = { asked: 0, timer: undefined as NodeJS.Timeout | undefined };
  rt.configChanges.onChange(() => {
    rt.screen(findingsScreen).clear();
    if (Date.now() - follow.asked > FOLLOW_ASKED_MS || follow.timer) return;
    follow.timer = setTimeout(() => {
      follow.timer = undefined;
      if (rt.isStopped) return;
      findingsJob(rt).job.catch(() => undefined);
    }, FOLLOW_SETTLE_MS);
    follow.timer.unref?.();
  });
  return follow;
});

/** The runtime's fresh report, or the computation running (joined) or started. */
function findingsJob(rt: ClusterRuntime): {
  job: Promise<FindingsReport>;
  run: () => FindingsRun | null;
} {
  rt.screen(findingsFollowScreen).asked = Date.now();
  const memo = rt.screen(findingsScreen);
  const fresh = memo.fresh();
  if (fresh !== null) return { job: Promise.resolve(fresh), run: () => null };
  const state = rt.screen(findingsRunScreen);
  const job = memo.start(() => {
    // what the last run found stands in for its analyses until this run's are in
    const last = state.run;
    // its analyses only (a run that kept the run before it would keep every run before)
    const run = startFindingsRun(
      rt,
      {},
      last && { parts: last.parts, partsAt: last.partsAt, revision: last.revision },
    );
    state.run = run;
    return run.report;
  });
  // a report that misses late analyses is not kept: the next view asks again
  job.then(
    (r) => {
      if (r.late && r.late.length > 0 && memo.fresh() === r) memo.clear();
    },
    () => undefined,
  );
  return { job, run: () => state.run };
}

/**
 * `earlier`: the run before this one, whose analyses that succeeded stand in for this run's
 * until they are in (named late with their age): a report asked again after its cache expired
 * does not lose the findings it showed.
 */
function startFindingsRun(
  rt: ClusterRuntime,
  opts: FindingsOptions,
  earlier: Pick<FindingsRun, 'parts' | 'partsAt' | 'revision'> | null = null,
): FindingsRun {
  const o = logOptions(opts);
  const t = rt.transport;
  // the changes heard from here on are past this report: the browser asks again when it sees them
  const revision = rt.configChanges.revision;
  const watchedAsked = rt
    .rootNamespace()
    .then((root) => rt.configChanges.ensure(CHANGE_KINDS, ruleInputNamespace(root)));
  watchedAsked.catch(() => undefined);
  const follow = () => {
    const st = rt.configChanges.status();
    return {
      revision,
      unwatched: [
        ...Object.entries(st.unwatched).map(([kind, why]) => ({ kind, why })),
        {
          kind: 'Pod',
          why: 'pods change all the time: their findings follow at the report’s cache time',
        },
      ],
    };
  };
  // the lists every finding is made from are needed; each analysis is taken if done by then
  const d = viewDeadline(rt, 'Findings');
  const reads = lastReads(rt);
  const parts: Parts = {};
  const partsAt: Partial<Record<keyof Parts, number>> = {};
  let progress: LogProgress = { read: 0, of: null };
  // the logs, read by this run or shared with the run before it (sharedLogs)
  const readLogs = (pods: readonly Pod[], services: readonly Service[]) => {
    const shared = sharedLogs(rt, Object.keys(opts).length === 0, FINDINGS_CACHE_MS, (p) =>
      readAccessLogs(t, pods, services, o, p),
    );
    progress = shared.progress;
    return shared.job;
  };
  let base: Base | null = null;
  let markListed: () => void = () => undefined;
  const listed = new Promise<void>((resolve) => {
    markListed = resolve;
  });
  let markConfigIn: () => void = () => undefined;
  const configIn = new Promise<void>((resolve) => (markConfigIn = resolve));
  let lists: Lists | null = null;
  // while a big cluster's first pod list runs, a first answer made of the pods read so far
  let early = false;
  let earlyTimer: NodeJS.Timeout | undefined;
  const report = (async () => {
    // the served Istio version the config is listed at is the one its Gateways are listed at
    const istioConfig = listIstioConfig(t);
    istioConfig.catch(() => undefined);
    const small = Promise.all([
      d.needOrLast('namespaces', reads, 'namespaces', listNamespaces(t)),
      d.needOrLast('services', reads, 'services', listServices(t)),
      d.needOrLast('Istio config', reads, 'istio-config', istioConfig),
      d.needOrLast('mesh config', reads, 'root-namespace', rt.rootNamespace()),
      // the Gateways VirtualServices name: when not read in time, those references are not checked
      d
        .within(
          'Gateways',
          listGatewaysForRoutes(
            t,
            istioConfig.then((c) => c.version),
          ),
        )
        .then((r) =>
          r.ok ? r.value : { items: [], unknown: `not read in time: ${r.late.detail}` },
        ),
      // the Nodes, for the labels endpoints take from theirs (subsets by zone or hostname)
      d
        .within(
          'Nodes',
          listNodes(t, { timeoutMs: 10_000 }).then(
            // their names and labels only: a Node's status (images, conditions) is kilobytes
            (l) => ({
              items: l.items.map((n) => ({
                metadata: { name: n.metadata.name, labels: n.metadata.labels },
              })) as unknown[],
              unknown: null,
            }),
            (e: unknown) => ({
              items: [] as unknown[],
              unknown: e instanceof Error ? e.message : String(e),
            }),
          ),
        )
        .then((r) =>
          r.ok ? r.value : { items: [], unknown: `not read in time: ${r.late.detail}` },
        ),
      // the other kinds the analyzer rules read (Deployments, webhooks, Istio's other CRDs)
      d
        .within(
          'rule inputs',
          rt
            .rootNamespace()
            .then((root) => listKinds(t, RULE_INPUT_KINDS, ruleInputNamespace(root), 10_000)),
        )
        .then(
          (r) => (r.ok ? r.value : unreadRuleInputs(`not read in time: ${r.late.detail}`)),
          (e: unknown) => unreadRuleInputs(e instanceof Error ? e.message : String(e)),
        ),
    ]).then((l) => (lists = l));
    // the whole report needs every pod; a first answer, after MESHDX_FIRST_ANSWER_MS, the pods
    // read so far (as every view answers while the list runs), named as such
    earlyTimer = setTimeout(() => {
      small.then(
        () => {
          if (base || rt.pods.currentStatus.listed) return;
          if (rt.pods.currentStatus.progress.objects === 0) return;
          early = true;
          markListed();
        },
        () => undefined,
      );
    }, rt.settings.MESHDX_FIRST_ANSWER_MS);
    earlyTimer.unref?.();
    const [l] = await Promise.all([
      small,
      d.need('pods', rt.pods.whenListed(), () => podListDetail(rt)),
    ]).finally(() => clearTimeout(earlyTimer));
    // pods come from the runtime's pod watch (trimmed to what the checks read), with the objects
    // its list could not read, so a malformed pod is still named (MDX0002)
    base = makeBase(rt, l, [...rt.pods.snapshot(), ...rt.pods.rejectedObjects()], null);
    markListed();
    // the answers waiting for the lists are made and sent first: each analysis starts with a
    // stretch of synchronous work that would otherwise hold them back
    await new Promise((resolve) => setImmediate(resolve));
    const pods = { items: base.screened.pods };
    const services = { items: base.screened.services };
    // each analysis in parts once done (or late by the view's deadline, or failed)
    const analysis = <K extends keyof Parts>(k: K, work: Promise<PartValue<K>>): Promise<void> =>
      d.within(PART[k], work).then(
        (r) => {
          parts[k] = (r.ok ? r : { ok: false, error: `late: ${r.late.detail}` }) as Parts[K];
          partsAt[k] = Date.now();
        },
        (e: unknown) => {
          parts[k] = { ok: false, error: e instanceof Error ? e.message : String(e) } as Parts[K];
          partsAt[k] = Date.now();
        },
      );
    // the analyses of the configuration (not Scoping's and the logs' measurements of the proxies)
    const ofConfig = [
      analysis('timelines', timelineFleetOf(rt, d)),
      analysis('incidents', incidentsOf(rt, {})),
      analysis('ambient', ambientOf(rt)),
    ];
    void Promise.all(ofConfig).then(markConfigIn);
    await Promise.all([
      ...ofConfig,
      analysis('logs', readLogs(pods.items, services.items)),
      analysis('scoping', scopingOf(rt)),
    ]);
    return { ...assemble(rt, base, parts, d.late), follow: follow() };
  })();
  return {
    report,
    listed,
    parts,
    partsAt,
    revision,
    afterChange: earlier !== null && revision > earlier.revision,
    configIn,
    soFar: () => {
      let now = base;
      const late = [...d.late];
      if (!now) {
        if (!early || !lists) return null;
        const detail = podListDetail(rt);
        now = makeBase(
          rt,
          lists,
          [...rt.cache.livePods(), ...rt.pods.rejectedObjects()],
          `${rt.cache.livePods().length.toLocaleString('en-US')} pods read so far: ${detail}`,
        );
        late.push({
          part: 'pods',
          detail: `${detail}: shown are the findings of the pods read so far; the report fills in as the list goes on`,
        });
      }
      const shown: Parts = { ...parts };
      const pending = (Object.keys(PART) as (keyof Parts)[])
        .filter((k) => parts[k] === undefined)
        .map((k) => {
          const running =
            k === 'logs' && progress.of !== null
              ? `still being read: ${progress.read} of ${progress.of} workloads' istio-proxy logs read so far`
              : 'still running';
          const before = earlier?.parts[k];
          const at = earlier?.partsAt[k];
          if (before?.ok && at !== undefined) {
            // Parts is keyed by analysis: the earlier run's outcome of k has k's type
            Object.assign(shown, { [k]: before });
            const ageS = Math.max(0, Math.round((Date.now() - at) / 1000));
            return {
              part: PART[k],
              detail: `${running}: shown as found ${ageS} s ago until it finishes`,
            };
          }
          return { part: PART[k], detail: `${running}: the report fills in as it finishes` };
        });
      return { ...assemble(rt, now, shown, [...late, ...pending]), follow: follow() };
    },
  };
}
