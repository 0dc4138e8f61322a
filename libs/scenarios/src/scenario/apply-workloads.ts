/**
 * `apply` of a workload (Deployment, StatefulSet, DaemonSet, Job, CronJob): its controllers and
 * the API server's admission run through @schedlab/workloads, so the step creates the admitted
 * pods, claims, ReplicaSets and Jobs a real cluster would; refused objects are reported with the
 * API server's message. OrderedReady StatefulSets create one ordinal per scheduled predecessor.
 */
import { podKeyOf, namespaceOf } from '@schedlab/k8s';
import type { KubeObject, Pod } from '@schedlab/k8s';
import {
  InvalidWorkloadsError,
  admitStatefulSetStep,
  expandWorkloads,
  withUid,
  type ExpansionResult,
  type RejectedObject,
} from '@schedlab/workloads';
import { StepError } from './nodes';
import type { OperationContext } from './operations';

/** Kinds whose controllers @schedlab/workloads runs on apply (ReplicaSets stay with the scenario's own controller). */
export const EXPANDED_ON_APPLY: ReadonlySet<string> = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
]);

/** What admission needs to see of the cluster: policies and the objects quota already counts. */
const ADMISSION_CONTEXT_KINDS = new Set([
  'PriorityClass',
  'LimitRange',
  'ResourceQuota',
  'RuntimeClass',
  'PersistentVolumeClaim',
  'Service',
  'Node',
  'StorageClass',
]);

function admissionContext(items: readonly KubeObject[]): KubeObject[] {
  return items.filter(
    (o) => ADMISSION_CONTEXT_KINDS.has(o.kind) || (o.kind === 'Pod' && (o as unknown as Pod).spec?.nodeName),
  );
}

const idOf = (o: KubeObject) => `${o.kind}/${namespaceOf(o)}/${o.metadata?.name}`;

function reportRejected(ctx: OperationContext, rejected: readonly RejectedObject[]): void {
  for (const r of rejected) ctx.changes.push({ type: 'objectRejected', object: r.object, detail: r.message });
}

function addPods(ctx: OperationContext, pods: readonly Pod[], owner: string): void {
  for (const pod of pods) {
    ctx.world.add(pod);
    ctx.changes.push({ type: 'podCreated', object: podKeyOf(pod), detail: `by ${owner}, pending` });
  }
}

function addObjects(ctx: OperationContext, objects: readonly KubeObject[]): void {
  for (const o of objects) {
    ctx.world.add(o);
    ctx.changes.push({ type: 'objectApplied', object: idOf(o) });
  }
}

/** Steps an OrderedReady StatefulSet: settle, tell the controller which pods were bound, create the next. */
function runStatefulSetSteps(ctx: OperationContext, expansion: ExpansionResult): void {
  for (const controller of expansion.statefulSets) {
    const ns = namespaceOf(controller.set);
    const owner = `StatefulSet/${controller.set.metadata?.name}`;
    let created = expansion.pods.filter(
      (p) => namespaceOf(p) === ns && controller.ordinalOf(p.metadata?.name ?? '') !== undefined,
    );
    while (created.length > 0) {
      ctx.settle();
      for (const p of created)
        controller.observe(p.metadata!.name!, Boolean(ctx.world.pod(podKeyOf(p))?.spec?.nodeName));
      const rejected: RejectedObject[] = [];
      const claims: ExpansionResult['pvcs'] = [];
      created = admitStatefulSetStep(controller, expansion.policy, rejected, claims);
      addObjects(ctx, claims as unknown as KubeObject[]);
      addPods(ctx, created, owner);
      reportRejected(ctx, rejected);
    }
  }
}

export function applyWorkload(obj: KubeObject, ctx: OperationContext): void {
  const { world } = ctx;
  const ns = namespaceOf(obj);
  const exists = world.items.some(
    (i) => i.kind === obj.kind && i.metadata?.name === obj.metadata?.name && namespaceOf(i) === ns,
  );
  if (exists)
    throw new StepError(
      'manifests',
      `${obj.kind} "${ns}/${obj.metadata?.name}" already exists: updates (rollouts) are not simulated; use scale or delete`,
    );
  let expansion: ExpansionResult;
  try {
    // Generated names (ReplicaSet hashes, pod suffixes) come from the scenario's seeded generator.
    expansion = expandWorkloads([...admissionContext(world.items), obj], {
      seed: Math.floor(world.random() * 2 ** 31),
      nodes: world.nodes(),
    });
  } catch (e) {
    if (e instanceof InvalidWorkloadsError)
      throw new StepError('manifests', e.errors.map((x) => x.message).join('; '));
    throw e;
  }
  const refused = expansion.rejected.some((r) => r.object === `${obj.kind} ${ns}/${obj.metadata?.name}`);
  if (!refused) {
    const workload =
      obj.kind === 'Job'
        ? expansion.jobs.find((j) => j.metadata?.name === obj.metadata?.name)
        : obj.kind === 'StatefulSet'
          ? expansion.statefulSets[0]?.set
          : withUid(obj);
    addObjects(ctx, [(workload ?? obj) as unknown as KubeObject]);
  }
  addObjects(ctx, expansion.replicaSets as unknown as KubeObject[]);
  addObjects(
    ctx,
    expansion.jobs.filter(
      (j) => obj.kind !== 'Job' || j.metadata?.name !== obj.metadata?.name,
    ) as unknown as KubeObject[],
  );
  addObjects(ctx, expansion.pvcs as unknown as KubeObject[]);
  addPods(ctx, expansion.pods, `${obj.kind}/${obj.metadata?.name}`);
  reportRejected(ctx, expansion.rejected);
  if (obj.kind === 'CronJob')
    ctx.changes.push({
      type: 'objectApplied',
      object: idOf(obj),
      detail: 'no Job is due: CronJob schedules are not run by the scenario clock',
    });
  runStatefulSetSteps(ctx, expansion);
}
