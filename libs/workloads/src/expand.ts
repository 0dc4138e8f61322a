/**
 * expandWorkloads: the objects of a what-if in, the pods Kubernetes would create and admit out.
 * Workload controllers produce pods (and claims, ReplicaSets, Jobs); every created object goes
 * through admission in input order, so earlier objects use up quota first. Objects that are not
 * workloads pass through for the engine (nodes, services, classes, running pods...).
 */
import {
  namespaceOf,
  ObjectValidationError,
  defaultPod,
  seededRandomInt,
  type RandomInt,
} from '@schedlab/k8s';
import type {
  DaemonSet,
  Deployment,
  KubeObject,
  Node,
  PersistentVolumeClaim,
  Pod,
  PriorityClass,
  ReplicaSet,
  ReplicationController,
  StatefulSet,
} from '@schedlab/k8s';
import type { SkippedObject } from '@schedlab/k8s';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import { AdmissionPolicy, admitObject, admitPod } from './admission/chain';
import { ForbiddenError } from './admission/errors';
import type { LimitRange } from './admission/limit-range';
import { CountedObject, QuotaTracker, ResourceQuota } from './admission/resource-quota';
import type { RuntimeClass } from './admission/runtime-class';
import { WorkloadError, describe, withUid } from './controllers/common';
import { initialCronJobState, syncCronJob } from './controllers/cronjob';
import { reconcileDaemonSet } from './controllers/daemonset';
import { expandDeployment } from './controllers/deployment';
import { jobPods } from './controllers/job';
import { replicaSetPods, replicationControllerPods } from './controllers/replicaset';
import { StatefulSetController } from './controllers/statefulset';
import { isMirrorPod, mirrorPod } from './controllers/static-pods';

export const WORKLOAD_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'ReplicaSet',
  'ReplicationController',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
]);
/** Admission configuration kinds: they shape admission and are not themselves simulated. */
const POLICY_KINDS: ReadonlySet<string> = new Set(['LimitRange', 'ResourceQuota', 'RuntimeClass']);

export interface ExpandOptions {
  /** Seed for generated names. Default 0. */
  seed?: number;
  /** Nodes DaemonSets run on; default the Node objects among the items. */
  nodes?: readonly Node[];
  /** CronJobs: the controller syncs once a minute over (from, to]; without it no Job is due. */
  cronWindow?: { from: Date; to: Date };
  /** Adds apps.kubernetes.io/pod-index to StatefulSet pods (on from v1.28). Default true. */
  podIndexLabel?: boolean;
  /** Apply the valid objects even when others are invalid. Default false: nothing is applied. */
  bestEffort?: boolean;
  /** Static pods from kubelet manifest directories; each appears as a mirror pod bound to its node. */
  staticPods?: ReadonlyArray<{ nodeName: string; pod: Pod }>;
}

export interface RejectedObject {
  /** `Kind namespace/name`. */
  object: string;
  message: string;
  /** The admission plugin that rejected it; absent for invalid objects. */
  plugin?: string;
}

export interface ExpansionResult {
  /** Admitted pods in creation order: pending ones from controllers and input, plus mirror pods. */
  pods: Pod[];
  pvcs: PersistentVolumeClaim[];
  replicaSets: ReplicaSet[];
  jobs: Job[];
  /** StatefulSets (with uids) and their controllers, for the OrderedReady step loop. */
  statefulSets: StatefulSetController[];
  rejected: RejectedObject[];
  skipped: SkippedObject[];
  /** Workloads left alone because their pods (or ReplicaSet) are already in the input. */
  alreadyRunning: string[];
  /** Everything else, for buildClusterState (nodes, services, classes, running pods, controllers' owners). */
  passthrough: KubeObject[];
  /** The admission state, to admit pods created later (StatefulSet steps, recreations). */
  policy: AdmissionPolicy;
}

/** Thrown when the input has invalid objects and bestEffort is off; nothing was applied. */
export class InvalidWorkloadsError extends Error {
  constructor(readonly errors: RejectedObject[]) {
    super(
      `${errors.length} invalid object(s), nothing applied:\n${errors.map((e) => `  ${e.message}`).join('\n')}`,
    );
    this.name = 'InvalidWorkloadsError';
  }
}

function ownedBy(
  obj: {
    metadata?: {
      ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>;
      namespace?: string;
    };
  },
  kind: string,
  name: string,
  ns: string,
): boolean {
  return (
    namespaceOf(obj) === ns &&
    (obj.metadata?.ownerReferences ?? []).some(
      (r) => r.controller === true && r.kind === kind && r.name === name,
    )
  );
}

function nsOf(o: KubeObject): string {
  return namespaceOf(o);
}

/**
 * Which controllers the pods and ReplicaSets of the items name (item kind → namespace → owner
 * kind → owner names), so that "does this workload have its pods (its ReplicaSet) already" is a
 * lookup, not a scan of every item per workload. The items are indexed in order only as far as a
 * question needs, as the scan stopped at the first match: a dump that lists each workload's pods
 * early is not indexed to its end.
 */
class ControllerIndex {
  private readonly owners = new Map<string, Map<string, Map<string, Set<string>>>>();
  /** Items before it are indexed. */
  private next = 0;
  /** An owner reference list that is not an array of objects was met: the scan answers from then on. */
  private malformed = false;

  constructor(private readonly items: readonly KubeObject[]) {}

  /** Whether some item of `kind` in namespace `ns` has the controller `ownerKind` `ownerName`. */
  has(kind: 'Pod' | 'ReplicaSet', ownerKind: string, ownerName: string, ns: string): boolean {
    // The scan (ownedBy) meets a malformed list as before, and throws or not as it did.
    if (this.malformed)
      return this.items.some((o) => o.kind === kind && ownedBy(o, ownerKind, ownerName, ns));
    if (this.lookup(kind, ns, ownerKind, ownerName)) return true;
    while (this.next < this.items.length) {
      const o = this.items[this.next];
      if (!this.add(o)) {
        this.malformed = true;
        return this.has(kind, ownerKind, ownerName, ns);
      }
      this.next++;
      if (o.kind === kind && this.lookup(kind, ns, ownerKind, ownerName)) return true;
    }
    return false;
  }

  private lookup(kind: string, ns: string, ownerKind: string, ownerName: string): boolean {
    return this.owners.get(kind)?.get(ns)?.get(ownerKind)?.has(ownerName) ?? false;
  }

  /** Indexes `o`; false when its owner reference list is not an array of objects. */
  private add(o: KubeObject): boolean {
    if (o.kind !== 'Pod' && o.kind !== 'ReplicaSet') return true;
    const refs: unknown = o.metadata?.ownerReferences;
    if (refs === undefined || refs === null) return true;
    if (!Array.isArray(refs)) return false;
    for (let i = 0; i < refs.length; i++) {
      const r: unknown = refs[i];
      if (typeof r !== 'object' || r === null) return false;
    }
    for (const r of refs as { controller?: unknown; kind?: unknown; name?: unknown }[]) {
      if (r.controller !== true || typeof r.kind !== 'string' || typeof r.name !== 'string') continue;
      let byNamespace = this.owners.get(o.kind);
      if (!byNamespace) this.owners.set(o.kind, (byNamespace = new Map()));
      const ns = namespaceOf(o);
      let byOwnerKind = byNamespace.get(ns);
      if (!byOwnerKind) byNamespace.set(ns, (byOwnerKind = new Map()));
      let names = byOwnerKind.get(r.kind);
      if (!names) byOwnerKind.set(r.kind, (names = new Set()));
      names.add(r.name);
    }
    return true;
  }
}

/** The admission plugins' objects (priority classes, limit ranges, runtime classes, quotas) of `items`. */
export function admissionPolicy(items: readonly KubeObject[]): AdmissionPolicy {
  const byKind = (k: string) => items.filter((o) => o.kind === k);
  const withNs = <T extends KubeObject>(o: T) => ({ ...o, metadata: { ...o.metadata, namespace: nsOf(o) } });
  const quotas = byKind('ResourceQuota').map(withNs) as unknown as ResourceQuota[];
  // Only quotas count the objects already in the cluster: without one, no copy of every running pod.
  const existing: CountedObject[] =
    quotas.length === 0
      ? []
      : (items.filter(
          (o) =>
            (o.kind === 'Pod' && (o as Pod).spec?.nodeName) ||
            o.kind === 'PersistentVolumeClaim' ||
            o.kind === 'Service',
        ) as CountedObject[]);
  return {
    priorityClasses: byKind('PriorityClass') as unknown as PriorityClass[],
    limitRanges: byKind('LimitRange').map(withNs) as unknown as LimitRange[],
    runtimeClasses: byKind('RuntimeClass') as unknown as RuntimeClass[],
    quotas: new QuotaTracker(quotas, existing.map((o) => withNs(o as KubeObject)) as CountedObject[]),
  };
}

/** Runs admission on `pods`; admitted ones are returned, the others reported. */
export function admitPods(pods: readonly Pod[], policy: AdmissionPolicy, rejected: RejectedObject[]): Pod[] {
  const out: Pod[] = [];
  for (const p of pods) {
    try {
      out.push(admitPod(defaultPod(p), policy));
    } catch (e) {
      if (!(e instanceof ForbiddenError)) throw e;
      rejected.push({ object: describe({ ...p, kind: 'Pod' }), message: e.message, plugin: e.plugin });
    }
  }
  return out;
}

function tryAdmitObject<T extends CountedObject>(
  obj: T,
  policy: AdmissionPolicy,
  rejected: RejectedObject[],
): boolean {
  try {
    admitObject(obj, policy);
    return true;
  } catch (e) {
    if (!(e instanceof ForbiddenError)) throw e;
    rejected.push({ object: describe(obj), message: e.message, plugin: e.plugin });
    return false;
  }
}

interface Ctx {
  out: ExpansionResult;
  random: RandomInt;
  nodes: readonly Node[];
  items: readonly KubeObject[];
  options: ExpandOptions;
  controllers: ControllerIndex;
}

function expandJob(job: Job, ctx: Ctx): void {
  const owned = withUid({ ...job, kind: 'Job' as const });
  ctx.out.jobs.push(owned);
  ctx.out.pods.push(...admitPods(jobPods(owned, ctx.random), ctx.out.policy, ctx.out.rejected));
}

function expandOne(obj: KubeObject, ctx: Ctx): void {
  const { out, random } = ctx;
  const ns = nsOf(obj);
  const name = obj.metadata?.name ?? '';
  const podsExist = ctx.controllers.has('Pod', obj.kind, name, ns);
  if (obj.kind === 'Deployment' ? ctx.controllers.has('ReplicaSet', 'Deployment', name, ns) : podsExist) {
    out.alreadyRunning.push(describe(obj));
    return;
  }
  if (!tryAdmitObject(obj as CountedObject, out.policy, out.rejected)) return;
  switch (obj.kind) {
    case 'Deployment': {
      const { replicaSet, pods } = expandDeployment(obj as unknown as Deployment, random);
      if (!tryAdmitObject({ ...replicaSet, kind: 'ReplicaSet' }, out.policy, out.rejected)) return;
      out.replicaSets.push(replicaSet);
      out.pods.push(...admitPods(pods, out.policy, out.rejected));
      return;
    }
    case 'ReplicaSet': {
      const rs = withUid(obj as unknown as ReplicaSet);
      out.replicaSets.push(rs);
      out.pods.push(...admitPods(replicaSetPods(rs, random), out.policy, out.rejected));
      return;
    }
    case 'ReplicationController': {
      const rc = withUid(obj as unknown as ReplicationController);
      out.passthrough.push(rc as unknown as KubeObject);
      out.pods.push(...admitPods(replicationControllerPods(rc, random), out.policy, out.rejected));
      return;
    }
    case 'StatefulSet': {
      const controller = new StatefulSetController(obj as unknown as StatefulSet, {
        random,
        podIndexLabel: ctx.options.podIndexLabel,
      });
      out.statefulSets.push(controller);
      out.pods.push(...admitStatefulSetStep(controller, out.policy, out.rejected, out.pvcs));
      return;
    }
    case 'DaemonSet': {
      const existing = ctx.items.filter(
        (o) => o.kind === 'Pod' && ownedBy(o, 'DaemonSet', name, ns),
      ) as unknown as Pod[];
      out.pods.push(
        ...admitPods(
          reconcileDaemonSet(obj as unknown as DaemonSet, ctx.nodes, existing, random).create,
          out.policy,
          out.rejected,
        ),
      );
      return;
    }
    case 'Job':
      expandJob(obj as unknown as Job, ctx);
      return;
    case 'CronJob': {
      const window = ctx.options.cronWindow;
      if (!window) return;
      const cj = obj as unknown as CronJob;
      let state = initialCronJobState(cj, window.from);
      if (state.lastScheduleTime < window.from) state.lastScheduleTime = window.from;
      for (let t = window.from.getTime() + 60_000; t <= window.to.getTime(); t += 60_000) {
        const sync = syncCronJob(cj, state, new Date(t));
        state = sync.state;
        if (sync.created && tryAdmitObject({ ...sync.created, kind: 'Job' }, out.policy, out.rejected))
          expandJob(sync.created, ctx);
      }
      return;
    }
  }
}

/** One StatefulSet step through admission: claims first (quota), then the pods. */
export function admitStatefulSetStep(
  controller: StatefulSetController,
  policy: AdmissionPolicy,
  rejected: RejectedObject[],
  pvcs: PersistentVolumeClaim[],
): Pod[] {
  const step = controller.step();
  for (const c of step.claims)
    if (tryAdmitObject({ ...c, kind: 'PersistentVolumeClaim' }, policy, rejected)) pvcs.push(c);
  const admitted = admitPods(step.create, policy, rejected);
  // A rejected pod is never created: the set halts on it (OrderedReady) as upstream does.
  for (const p of step.create)
    if (!admitted.some((a) => a.metadata?.name === p.metadata?.name))
      controller.observe(p.metadata!.name!, false);
  return admitted;
}

function validationMessage(e: unknown): string | undefined {
  if (e instanceof WorkloadError || e instanceof ObjectValidationError) return e.message;
  return undefined;
}

export function expandWorkloads(items: readonly KubeObject[], options: ExpandOptions = {}): ExpansionResult {
  const out: ExpansionResult = {
    pods: [],
    pvcs: [],
    replicaSets: [],
    jobs: [],
    statefulSets: [],
    rejected: [],
    skipped: [],
    alreadyRunning: [],
    passthrough: [],
    policy: admissionPolicy(items),
  };
  const ctx: Ctx = {
    out,
    random: seededRandomInt(options.seed ?? 0),
    nodes: options.nodes ?? (items.filter((o) => o.kind === 'Node') as unknown as Node[]),
    items,
    options,
    controllers: new ControllerIndex(items),
  };
  const invalid: RejectedObject[] = [];
  for (const obj of items) {
    if (WORKLOAD_KINDS.has(obj.kind)) {
      // Controllers validate what they read; roll back this object's output if it turns out invalid.
      const mark = {
        pods: out.pods.length,
        pvcs: out.pvcs.length,
        rs: out.replicaSets.length,
        jobs: out.jobs.length,
        sets: out.statefulSets.length,
      };
      try {
        expandOne(obj, ctx);
      } catch (e) {
        const message = validationMessage(e);
        if (message === undefined) throw e;
        out.pods.length = mark.pods;
        out.pvcs.length = mark.pvcs;
        out.replicaSets.length = mark.rs;
        out.jobs.length = mark.jobs;
        out.statefulSets.length = mark.sets;
        // The object itself was charged to count quotas before its controller found it invalid.
        if (!out.rejected.some((r) => r.object === describe(obj)))
          out.policy.quotas.release(obj as CountedObject);
        invalid.push({ object: describe(obj), message });
      }
    } else if (obj.kind === 'Pod' && !(obj as unknown as Pod).spec?.nodeName) {
      if (isMirrorPod(obj as unknown as Pod)) {
        invalid.push({
          object: describe(obj),
          message: `${describe(obj)}: spec.nodeName: Required value: a mirror pod runs on the node named by its kubelet`,
        });
        continue;
      }
      // A pending bare pod is created by the what-if, so it is admitted like the controllers' pods.
      out.pods.push(...admitPods([obj as unknown as Pod], out.policy, out.rejected));
    } else if (!POLICY_KINDS.has(obj.kind)) {
      out.passthrough.push(obj);
    }
  }
  for (const { nodeName, pod } of options.staticPods ?? []) {
    const n = ctx.nodes.find((x) => x.metadata?.name === nodeName);
    if (!n) {
      invalid.push({
        object: describe({ ...pod, kind: 'Pod' }),
        message: `${describe({ ...pod, kind: 'Pod' })}: static pod for node ${nodeName}, which is not in the cluster`,
      });
      continue;
    }
    // Mirror pods skip admission and scheduling: the kubelet already runs them; they only take room.
    out.passthrough.push(defaultPod(mirrorPod(pod, n)) as unknown as KubeObject);
  }
  if (invalid.length > 0 && !options.bestEffort) throw new InvalidWorkloadsError(invalid);
  out.rejected.push(...invalid);
  return out;
}
