import type { KubeObject, Pod } from '../../../../lib/kube/types';
import type { StoreChange } from '../types';
import {
  canonicalJson,
  changeFromTemplate,
  countPods,
  deploymentObject,
  deploymentStatus,
  replicaSetObject,
  stableUid,
  templateObject,
  workloadFromDeployment,
} from './controllers';
import { kubeTime } from './time';
import type { Deployment, PodEntry, WorkloadWorld } from './world-types';
import { objectKey } from '../../../../lib/refs/object-ref';

interface ReplicaSetState {
  dep: Deployment;
  revision: number;
  created: string;
}

interface WorkloadState {
  namespace: string;
  name: string;
  uid: string;
  created: string;
  /** The ReplicaSet new pods come from. */
  current: Deployment;
  sets: ReplicaSetState[];
  desired: number;
  generation: number;
  revision: number;
  /** spec.template of the stored Deployment, as last written or seen. */
  templateJson: string;
}

type Stored = KubeObject & { spec?: Record<string, unknown>; status?: unknown };

/** Seconds between two pods of a rollout, and from a new pod's start to its old pod's stop. */
const ROLL_STEP_MS = 3000;
const ROLL_STOP_AFTER_MS = 5000;

/**
 * kube-controller-manager's Deployment and ReplicaSet controllers for the world's workloads:
 * keeps their objects and replica counts in step with the pods, and rolls a Deployment out when
 * its pod template is changed through the API (a new ReplicaSet, new pods started one by one,
 * each old pod stopped a few seconds after a new one started, all on the simulated clock).
 */
export class WorkloadControllers {
  private readonly states = new Map<string, WorkloadState>();
  private readonly written = new Map<string, string>();

  constructor(private readonly world: WorkloadWorld) {}

  private get store() {
    return this.world.ctx.store;
  }

  /** A new Deployment, or a new ReplicaSet of a known one (a rollout). */
  register(dep: Deployment, fromApi: boolean): void {
    const key = objectKey(dep.namespace, dep.spec.name);
    const st = this.states.get(key);
    const template = templateObject(dep.tpl, false);
    if (st === undefined && fromApi) {
      this.adoptState(dep);
      return;
    }
    if (st === undefined) {
      const created = kubeTime(this.world.t0 - 86_400_000);
      const state: WorkloadState = {
        namespace: dep.namespace,
        name: dep.spec.name,
        uid: stableUid(`deployment/${key}`, this.world.ctx.uidSalt),
        created,
        current: dep,
        sets: [{ dep, revision: 1, created }],
        desired: dep.spec.replicas,
        generation: 1,
        revision: 1,
        templateJson: canonicalJson(template),
      };
      this.states.set(key, state);
      this.store.upsert(
        'deployments',
        deploymentObject(dep.namespace, dep.spec.name, state.uid, created, dep.spec, dep.tpl),
      );
      this.world.syncWorkload(dep.namespace, dep.spec.name);
      return;
    }
    st.revision += 1;
    st.generation += 1;
    st.current = dep;
    st.sets.push({ dep, revision: st.revision, created: kubeTime(this.world.now()) });
    if (!fromApi) {
      // a scenario's own rollout: the Deployment's template becomes the new one
      st.templateJson = canonicalJson(template);
      const cur = this.store.get<Stored>('deployments', st.namespace, st.name);
      if (cur !== undefined) {
        this.store.upsert('deployments', { ...cur, spec: { ...cur.spec, template } });
      }
    }
    this.world.syncWorkload(dep.namespace, dep.spec.name);
  }

  /** State for a Deployment created through the API: the stored object is the user's. */
  private adoptState(dep: Deployment): void {
    const cur = this.store.get<Stored>('deployments', dep.namespace, dep.spec.name);
    if (cur === undefined) return;
    const created = cur.metadata.creationTimestamp ?? kubeTime(this.world.now());
    this.states.set(objectKey(dep.namespace, dep.spec.name), {
      namespace: dep.namespace,
      name: dep.spec.name,
      uid:
        cur.metadata.uid ??
        stableUid(`deployment/${objectKey(dep.namespace, dep.spec.name)}`, this.world.ctx.uidSalt),
      created,
      current: dep,
      sets: [{ dep, revision: 1, created: kubeTime(this.world.now()) }],
      desired: dep.spec.replicas,
      generation: 1,
      revision: 1,
      templateJson: canonicalJson(cur.spec?.template),
    });
    this.world.syncWorkload(dep.namespace, dep.spec.name);
  }

  /** A Deployment created through the API (kubectl create deployment): its ReplicaSet and pods. */
  private adopt(obj: Stored, ns: string): void {
    const nsObj = this.store.get('namespaces', undefined, ns);
    const injected = nsObj?.metadata.labels?.['istio-injection'] === 'enabled';
    const spec = workloadFromDeployment(obj.metadata.name, obj.spec, injected);
    if (spec === undefined) return;
    const dep = this.world.newReplicaSet(ns, spec);
    this.register(dep, true);
    const now = this.world.now();
    for (let i = 0; i < spec.replicas; i++) this.world.startPod(dep, now + i * 1000);
  }

  /** Write the ReplicaSets' and the Deployment's counts where they changed. */
  sync(ns: string, name: string): void {
    const st = this.states.get(objectKey(ns, name));
    if (st === undefined) return;
    const live = this.world
      .workloadPods(ns, name)
      .filter((e): e is PodEntry & { pod: Pod } => !e.removed && e.pod !== undefined);
    const podsOf = (rs: string) => live.filter((e) => e.dep.rsName === rs).map((e) => e.pod);
    for (const set of st.sets) {
      const counts = countPods(podsOf(set.dep.rsName));
      const current = set.dep.rsName === st.current.rsName;
      const rs = replicaSetObject({
        namespace: ns,
        name: set.dep.rsName,
        uid: set.dep.rsUid,
        deploymentName: name,
        deploymentUid: st.uid,
        tpl: set.dep.tpl,
        desired: st.desired,
        revision: set.revision,
        created: set.created,
        counts: current ? { ...counts, active: st.desired } : counts,
      });
      this.writeIfChanged('replicasets', rs);
    }
    const cur = this.store.get<Stored>('deployments', ns, name);
    if (cur === undefined) return;
    const status = deploymentStatus({
      generation: st.generation,
      total: countPods(live.map((e) => e.pod)),
      updated: countPods(podsOf(st.current.rsName)),
      desired: st.desired,
    });
    const metadata = {
      ...cur.metadata,
      generation: st.generation,
      annotations: {
        ...cur.metadata.annotations,
        'deployment.kubernetes.io/revision': String(st.revision),
      },
    };
    const sig = canonicalJson([metadata.generation, metadata.annotations, status]);
    const key = `deployments/${objectKey(ns, name)}`;
    if (this.written.get(key) === sig) return;
    this.written.set(key, sig);
    this.store.upsert('deployments', { ...cur, metadata, status });
  }

  private writeIfChanged(kind: 'replicasets', obj: KubeObject): void {
    const key = `${kind}/${objectKey(obj.metadata.namespace ?? '', obj.metadata.name)}`;
    const sig = canonicalJson(obj);
    if (this.written.get(key) === sig) return;
    this.written.set(key, sig);
    this.store.upsert(kind, obj);
  }

  /** A Deployment written through the API: roll out a new template, scale, or delete. */
  onChange(change: StoreChange): void {
    const seen = change.entry.obj as Stored;
    const ns = seen.metadata.namespace ?? 'default';
    // a controller reconciles what the object is now, not what one change said: a scenario
    // that rolls a Deployment out in the same tick has already moved its template on
    const obj =
      change.type === 'DELETED'
        ? seen
        : (this.store.get<Stored>('deployments', ns, seen.metadata.name) ?? seen);
    const key = objectKey(ns, obj.metadata.name);
    const st = this.states.get(key);
    if (st === undefined) {
      if (change.type === 'ADDED') this.adopt(obj, ns);
      return;
    }
    const now = this.world.now();
    const active = () =>
      this.world
        .workloadPods(ns, st.name)
        .filter((e) => !e.removed && e.plan.deleteAt === undefined);
    if (change.type === 'DELETED') {
      // the garbage collector: ReplicaSets and their pods go with their Deployment
      this.states.delete(key);
      this.written.delete(`deployments/${key}`);
      for (const e of active()) this.world.stopPod(e, now);
      for (const set of st.sets) {
        this.store.remove('replicasets', ns, set.dep.rsName);
        this.written.delete(`replicasets/${objectKey(ns, set.dep.rsName)}`);
      }
      return;
    }
    const spec = obj.spec ?? {};
    const replicas = typeof spec.replicas === 'number' ? spec.replicas : st.desired;
    const templateJson = canonicalJson(spec.template);
    if (templateJson === st.templateJson) {
      if (replicas !== st.desired) this.scale(st, replicas, active(), now);
      return;
    }
    st.templateJson = templateJson;
    st.desired = replicas;
    const next = this.world.newReplicaSet(ns, {
      ...st.current.spec,
      ...changeFromTemplate(st.current.spec, st.current.tpl, spec.template),
      replicas,
    });
    const olds = active();
    this.register(next, true);
    for (let i = 0; i < replicas; i++) this.world.startPod(next, now + i * ROLL_STEP_MS);
    olds.forEach((old, i) => this.world.stopPod(old, now + i * ROLL_STEP_MS + ROLL_STOP_AFTER_MS));
  }

  private scale(st: WorkloadState, replicas: number, active: PodEntry[], now: number): void {
    st.desired = replicas;
    st.generation += 1;
    const current = active.filter((e) => e.dep.rsName === st.current.rsName);
    for (let i = current.length; i < replicas; i++) this.world.startPod(st.current, now);
    for (const e of current.slice(replicas).reverse()) this.world.stopPod(e, now);
    this.world.syncWorkload(st.namespace, st.name);
  }
}
