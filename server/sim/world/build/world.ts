import type { KubeObject, Namespace, Pod, Service } from '../../../../lib/kube/types';
import type { ScenarioContext, StoreChange } from '../types';
import type { SimKind } from '../../mesh/types';
import { createIds, type Ids } from './ids';
import { createIpam, type Ipam } from './ipam';
import { NODES, type SimNode } from './nodes';
import { nodeObject } from './nodeobjects';
import { podTemplate } from './podspec';
import { parseDuration, planStart, planStop } from './plan';
import { planInstants, podStatusAt } from './status';
import { EventBook, eventsOf } from './events';
import { buildEndpointSlice, buildService, type ServiceSpec } from './service';
import { appStopLines } from './applog';
import { appLogs, appRuns, proxyLogs, withProxyInit } from './world-logs';
import { kubeTime } from './time';
import type { AccessEntry } from './accesslog';
import type { WorkloadSpec } from './workload';
import { WorkloadControllers } from './workloads';
import { objectKey } from '../../../../lib/refs/object-ref';
import {
  SYSTEM_NAMESPACES,
  type Deployment,
  type PodEntry,
  type PodStartOptions,
} from './world-types';

export {
  SYSTEM_NAMESPACES,
  type Deployment,
  type PodEntry,
  type PodStartOptions,
} from './world-types';

/**
 * The simulated cluster as scenarios build it: allocates IPs, uids and names deterministically,
 * writes objects to the store, and drives each pod's planned life on the clock (every status
 * transition an upsert, in order) while keeping EndpointSlices in sync with the pods.
 */
export class World {
  readonly ids: Ids;
  readonly ipam: Ipam = createIpam();
  readonly t0: number;
  private readonly events: EventBook;
  private readonly pods = new Map<string, PodEntry[]>();
  private readonly services = new Map<string, Service[]>();
  private readonly slices = new Map<string, string>();
  private nodeCursor = 0;
  private svcCounter = 0;
  private deferred: Set<string> | undefined;
  private deferredWorkloads: Set<string> | undefined;
  readonly podRemovedHooks: ((e: PodEntry) => void)[] = [];
  /** Deployments and ReplicaSets of the world's workloads; rolls them out when patched. */
  readonly controllers: WorkloadControllers;

  constructor(readonly ctx: ScenarioContext) {
    this.ids = createIds(ctx.random, ctx.uidSalt);
    this.t0 = ctx.clock.now().getTime();
    this.events = new EventBook(() => this.ids.suffix() + this.ids.suffix() + this.ids.suffix());
    this.controllers = new WorkloadControllers(this);
    // API writes to Deployments reach the controllers after the write (never inside it, so that
    // watchers see every change in resourceVersion order)
    ctx.store.subscribe?.((c: StoreChange) => {
      if (c.kind === 'deployments') queueMicrotask(() => this.controllers.onChange(c));
    });
    // every real cluster has these (a manifest for `default` applies as it would anywhere);
    // their uids are fixed, so the seeded names and uids of the scenario do not move
    SYSTEM_NAMESPACES.forEach((name, i) =>
      this.namespace(name, {}, `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`),
    );
    // and the nodes its pods are bound to, registered before anything was scheduled
    for (const node of NODES)
      this.ctx.store.upsert('nodes', nodeObject(node, this.t0 - 86_400_000, ctx.uidSalt));
  }

  now(): number {
    return this.ctx.clock.now().getTime();
  }

  /** Seconds relative to the world's start, as epoch ms. */
  at(seconds: number): number {
    return this.t0 + Math.round(seconds * 1000);
  }

  private upsert<T extends KubeObject>(kind: SimKind, obj: T): void {
    this.ctx.store.upsert(kind, obj);
  }

  namespace(name: string, labels: Record<string, string> = {}, uid?: string): void {
    const ns: Namespace = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        uid: uid ?? this.ids.uid(),
        creationTimestamp: kubeTime(this.t0 - 86_400_000),
        labels: { 'kubernetes.io/metadata.name': name, ...labels },
      },
      status: { phase: 'Active' },
    };
    this.upsert('namespaces', ns);
  }

  /** Write any other object (ConfigMap, Sidecar, DestinationRule...) with a uid and timestamp. */
  object<T extends KubeObject>(kind: SimKind, obj: T): T {
    obj.metadata.uid ??= this.ids.uid();
    obj.metadata.creationTimestamp ??= kubeTime(this.t0 - 86_400_000);
    this.upsert(kind, obj);
    return obj;
  }

  service(ns: string, spec: ServiceSpec): Service {
    this.svcCounter += 1;
    const n = this.svcCounter;
    const ip = `10.96.${Math.floor(n / 250)}.${(n % 250) + 2}`;
    const svc = buildService(ns, spec, ip, kubeTime(this.t0 - 86_400_000), this.ids.uid());
    this.upsert('services', svc);
    const list = this.services.get(ns) ?? [];
    list.push(svc);
    this.services.set(ns, list);
    this.syncEndpoints(ns);
    return svc;
  }

  servicesIn(ns: string): readonly Service[] {
    return this.services.get(ns) ?? [];
  }

  deployment(ns: string, spec: WorkloadSpec): Deployment {
    const dep = this.newReplicaSet(ns, spec);
    this.controllers.register(dep, false);
    return dep;
  }

  /** A pod template with its hash and ReplicaSet name and uid; writes nothing. */
  newReplicaSet(ns: string, spec: WorkloadSpec): Deployment {
    const hash = this.ids.templateHash();
    return {
      namespace: ns,
      spec,
      tpl: podTemplate(spec, ns, hash),
      hash,
      rsName: `${spec.name}-${hash}`,
      rsUid: this.ids.uid(),
    };
  }

  /** Every pod entry of one workload (all its ReplicaSets), live or gone. */
  workloadPods(ns: string, name: string): readonly PodEntry[] {
    return (this.pods.get(ns) ?? []).filter((e) => e.dep.spec.name === name);
  }

  /** Write the workload's Deployment and ReplicaSets status now, or at the end of a batch. */
  syncWorkload(ns: string, name: string): void {
    if (this.deferredWorkloads !== undefined) {
      this.deferredWorkloads.add(objectKey(ns, name));
      return;
    }
    this.controllers.sync(ns, name);
  }

  /** The same Deployment with a new pod template (a rollout): new hash, new ReplicaSet. */
  rollout(dep: Deployment, change: Partial<WorkloadSpec> = {}): Deployment {
    return this.deployment(dep.namespace, { ...dep.spec, ...change });
  }

  nextNode(): SimNode {
    const node = NODES[this.nodeCursor % NODES.length] ?? NODES[0];
    this.nodeCursor += 1;
    if (node === undefined) throw new Error('no nodes');
    return node;
  }

  /** Every pod entry of a namespace, the removed ones too (oldest first). */
  entriesIn(ns: string): readonly PodEntry[] {
    return this.pods.get(ns) ?? [];
  }

  livePods(ns?: string): PodEntry[] {
    const lists = ns === undefined ? [...this.pods.values()] : [this.pods.get(ns) ?? []];
    return lists.flat().filter((e) => !e.removed && e.pod !== undefined);
  }

  /** Start one pod of `dep` at `t0` (epoch ms; past = already running, its status rendered at now). */
  startPod(dep: Deployment, t0: number, o: PodStartOptions = {}): PodEntry {
    const node = o.node ?? this.nextNode();
    const ip = this.ipam.allocate(node, o.ip);
    const readyMs = (dep.spec.proxyReadySeconds ?? 2 + this.ids.random() * 2) * 1000;
    const plan = planStart(
      dep.tpl,
      `${dep.rsName}-${this.ids.suffix()}`,
      dep.namespace,
      node,
      ip,
      this.ids,
      {
        t0,
        proxyReadyMs: Math.round(readyMs),
        race: o.race ?? dep.spec.race ?? false,
      },
    );
    const entry: PodEntry = { dep, plan, removed: false };
    const list = this.pods.get(dep.namespace) ?? [];
    list.push(entry);
    this.pods.set(dep.namespace, list);
    this.drive(entry, planInstants(plan), o.quiet === true ? undefined : t0 - 1);
    if (o.quiet !== true) {
      proxyLogs(this, entry);
      appLogs(this, entry);
    }
    return entry;
  }

  /** Begin terminating a pod at `at` (epoch ms); it is removed once all containers exited. */
  stopPod(entry: PodEntry, at: number, quiet = false): void {
    if (entry.removed || entry.plan.deleteAt !== undefined) return;
    const cfg = entry.dep.tpl.annotations['proxy.istio.io/config'];
    let drain: number | undefined;
    if (cfg !== undefined) {
      try {
        const parsed: unknown = JSON.parse(cfg);
        if (typeof parsed === 'object' && parsed !== null && 'terminationDrainDuration' in parsed) {
          drain = parseDuration(parsed.terminationDrainDuration);
        }
      } catch {
        drain = undefined;
      }
    }
    const pre = entry.dep.spec.preStopSleep;
    entry.plan = planStop(entry.plan, at, {
      drainMs: drain ?? 5000,
      ...(pre !== undefined ? { preStopMs: pre * 1000 } : {}),
      exitOnZeroConnections: entry.dep.spec.proxyEnv?.EXIT_ON_ZERO_ACTIVE_CONNECTIONS === 'true',
    });
    this.drive(
      entry,
      planInstants(entry.plan).filter((x) => x >= at),
      quiet ? undefined : at - 1,
    );
    if (quiet || entry.plan.blocked !== undefined) return;
    const termAt = at + (pre ?? 0) * 1000;
    for (const app of appRuns(entry)) {
      if (app.exitAt !== undefined && termAt >= app.exitAt) continue; // SIGKILL, no SIGTERM
      for (const l of appStopLines(app, termAt)) this.log(entry, app.name, l.at, l.line);
    }
  }

  /** Render now, schedule future transitions, emit events newer than `eventsAfter`. */
  private drive(entry: PodEntry, instants: number[], eventsAfter: number | undefined): void {
    const now = this.now();
    const render = (t: number) => () => this.render(entry, t);
    if (entry.plan.createdAt <= now) this.render(entry, now);
    for (const x of instants) if (x > now) this.ctx.clock.schedule(new Date(x), render(x));
    const removeAt = entry.plan.removeAt;
    if (removeAt !== undefined) {
      if (removeAt <= now) this.remove(entry);
      else this.ctx.clock.schedule(new Date(removeAt), () => this.remove(entry));
    }
    if (eventsAfter === undefined) return;
    for (const o of eventsOf(entry.plan)) {
      if (o.at <= eventsAfter) continue;
      const emit = () => {
        if (!entry.removed) this.upsert('events', this.events.record(entry.plan, o));
      };
      if (o.at <= now) emit();
      else this.ctx.clock.schedule(new Date(o.at), emit);
    }
  }

  private render(entry: PodEntry, t: number): void {
    if (entry.removed) return;
    const { plan, dep } = entry;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: plan.name,
        generateName: `${dep.rsName}-`,
        namespace: plan.namespace,
        uid: plan.uid,
        creationTimestamp: kubeTime(plan.createdAt),
        labels: dep.tpl.labels,
        annotations: withProxyInit(dep.tpl.annotations, plan),
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: dep.rsName,
            uid: dep.rsUid,
            controller: true,
          },
        ],
      },
      spec: { ...dep.tpl.spec, nodeName: plan.node.name },
      status: podStatusAt(plan, Math.max(t, plan.createdAt)),
    };
    if (plan.deleteAt !== undefined && t >= plan.deleteAt) {
      pod.metadata.deletionTimestamp = kubeTime(plan.deleteAt + plan.grace * 1000);
      pod.metadata.deletionGracePeriodSeconds = plan.grace;
    }
    entry.pod = pod;
    this.upsert('pods', pod);
    this.syncEndpoints(plan.namespace);
    this.syncWorkload(plan.namespace, dep.spec.name);
  }

  private remove(entry: PodEntry): void {
    if (entry.removed) return;
    entry.removed = true;
    this.ctx.store.remove('pods', entry.plan.namespace, entry.plan.name);
    this.ipam.release(entry.plan.ip);
    this.syncEndpoints(entry.plan.namespace);
    this.syncWorkload(entry.plan.namespace, entry.dep.spec.name);
    for (const hook of this.podRemovedHooks) hook(entry);
  }

  /** Collect EndpointSlice updates while `fn` runs and write each namespace's slices once. */
  batch(fn: () => void): void {
    const outer = this.deferred;
    this.deferred ??= new Set();
    this.deferredWorkloads ??= new Set();
    try {
      fn();
    } finally {
      if (outer === undefined) {
        const pending = this.deferred;
        const workloads = this.deferredWorkloads;
        this.deferred = undefined;
        this.deferredWorkloads = undefined;
        for (const ns of pending) this.syncEndpoints(ns);
        for (const key of workloads) {
          const i = key.indexOf('/');
          this.controllers.sync(key.slice(0, i), key.slice(i + 1));
        }
      }
    }
  }

  syncEndpoints(ns: string): void {
    if (this.deferred !== undefined) {
      this.deferred.add(ns);
      return;
    }
    const pods = this.livePods(ns).map((e) => e.pod as Pod);
    for (const svc of this.servicesIn(ns)) {
      const slice = buildEndpointSlice(
        svc,
        pods,
        svc.metadata.creationTimestamp ?? kubeTime(this.t0),
      );
      const key = objectKey(ns, svc.metadata.name);
      const sig = JSON.stringify([slice.endpoints, slice.ports]);
      if (this.slices.get(key) === sig) continue;
      this.slices.set(key, sig);
      // the EndpointSlice controller writes what it saw, its lag later (the layer-delay model)
      const lag = this.ctx.xds?.model()?.timing.sliceLagMs ?? 0;
      if (lag > 0)
        this.ctx.clock.schedule(new Date(this.now() + lag), () =>
          this.upsert('endpointslices', slice),
        );
      else this.upsert('endpointslices', slice);
    }
  }

  /**
   * A request the pod's proxy logs at `at`, for its other access loggers (ctx.onAccess), when
   * the clock gets there; requests written as history before now were sent before meshdx
   * could hear them and are not sent again.
   */
  access(entry: PodEntry, e: AccessEntry): void {
    const sink = this.ctx.onAccess;
    if (!sink || e.at < this.now()) return;
    const send = () => {
      if (entry.removed) return;
      const { namespace, name, ip } = entry.plan;
      sink(
        { namespace, name, ip, labels: entry.pod?.metadata.labels ?? entry.dep.tpl.labels ?? {} },
        e,
      );
    };
    if (e.at <= this.now()) send();
    else this.ctx.clock.schedule(new Date(e.at), send);
  }

  /** Append a container log line at `at` (now if past, else when the clock gets there). */
  log(entry: PodEntry, container: string, at: number, line: string): void {
    const write = () => {
      if (!entry.removed) {
        this.ctx.logs.append(entry.plan.namespace, entry.plan.name, container, new Date(at), line);
      }
    };
    if (at <= this.now()) write();
    else this.ctx.clock.schedule(new Date(at), write);
  }
}
