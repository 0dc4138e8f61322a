/** One handler per scenario operation: each mutates the world and records what changed. */
import {
  CLUSTER_SCOPED_KINDS,
  podKeyOf,
  namespaceOf,
  zoneOf,
  KubeObject,
  Node,
  Pod,
  Taint,
  parseKubernetesObjects,
} from '@schedlab/k8s';
import {
  controllerOf,
  isDaemonSetPod,
  isMirrorPod,
  isReplicaController,
  podGone,
  podsOwnedBy,
  reconcileReplicas,
} from './controllers';
import { EXPANDED_ON_APPLY, applyWorkload } from './apply-workloads';
import {
  condemnClaimsOnScaleDown,
  deleteClaim,
  deleteNamespace,
  expandClaim,
  localVolumesOn,
  setReclaimPolicy,
  setStorageCapacity,
} from './storage-steps';
import { checkEviction } from './disruption';
import { descheduleStep, type StepDescheduling } from './deschedule-step';
import { StepError, addedCsiNode, buildAddedNodes, parseLabelSelector, selectNodes } from './nodes';
import type { NodeTemplate, StepArgs, StepKind } from './schema';
import { TAINT_NOT_READY, TAINT_UNREACHABLE, TAINT_UNSCHEDULABLE, runTaintManager } from './taint-manager';
import { Change, World, nodeNameOf } from './world';

export interface OperationContext {
  world: World;
  templates: readonly NodeTemplate[];
  changes: Change[];
  /** Runs the scheduler (and taint manager) until the cluster settles. */
  settle(): void;
  /** Set by a deschedule step: its evictions, where they went, and the figures before and after. */
  descheduling?: StepDescheduling;
}

type Handler<K extends StepKind> = (args: StepArgs[K], ctx: OperationContext) => void;

function updateNode(ctx: OperationContext, node: Node, next: Node, detail: string): void {
  ctx.world.replace(node, next);
  ctx.changes.push({ type: 'nodeUpdated', object: `Node/${nodeNameOf(node)}`, detail });
}

function setTaints(node: Node, taints: Taint[]): Node {
  return { ...node, spec: { ...node.spec, taints } };
}

function cordon(ctx: OperationContext, node: Node): void {
  if (node.spec?.unschedulable) return;
  const taints = (node.spec?.taints ?? []).filter((t) => t.key !== TAINT_UNSCHEDULABLE);
  // The node lifecycle controller mirrors spec.unschedulable as a NoSchedule taint.
  const next = setTaints({ ...node, spec: { ...node.spec, unschedulable: true } }, [
    ...taints,
    { key: TAINT_UNSCHEDULABLE, effect: 'NoSchedule' },
  ]);
  updateNode(ctx, node, next, 'cordoned');
}

function removeNode(ctx: OperationContext, node: Node, reason = 'node removed', detail?: string): void {
  const name = nodeNameOf(node);
  for (const pod of ctx.world.podsOn(name))
    podGone(ctx.world, pod, 'podDeleted', ctx.changes, { reason, nodeGone: true });
  ctx.world.remove(node);
  ctx.changes.push({ type: 'nodeRemoved', object: `Node/${name}`, ...(detail ? { detail } : {}) });
}

function drainNodes(args: StepArgs['drain'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  const nodes = selectNodes(world, args.nodes);
  for (const n of nodes) cordon(ctx, n);
  const names = new Set(nodes.map(nodeNameOf));
  const toEvict: string[] = [];
  for (const pod of world.pods().filter((p) => names.has(p.spec?.nodeName ?? ''))) {
    if (isMirrorPod(pod)) changes.push({ type: 'podIgnored', object: podKeyOf(pod), detail: 'mirror pod' });
    else if (isDaemonSetPod(pod))
      changes.push({ type: 'podIgnored', object: podKeyOf(pod), detail: 'DaemonSet-managed pod' });
    else toEvict.push(podKeyOf(pod));
  }
  const respect = args.respectPodDisruptionBudgets ?? true;
  // Like kubectl drain, blocked evictions are retried while replacements become healthy.
  let remaining = toEvict;
  for (;;) {
    const blocked: string[] = [];
    let progress = false;
    for (const key of remaining) {
      const pod = world.pod(key);
      if (!pod || !names.has(pod.spec?.nodeName ?? '')) continue;
      const verdict = checkEviction(world, pod);
      if (verdict.allowed || !respect) {
        if (!verdict.allowed)
          changes.push({
            type: 'disruptionBudgetViolated',
            object: key,
            detail: [verdict.message, verdict.cause].filter(Boolean).join(' '),
          });
        podGone(world, pod, respect ? 'podEvicted' : 'podDeleted', changes, { reason: 'drain' });
        progress = true;
      } else blocked.push(key);
    }
    remaining = blocked;
    if (remaining.length === 0 || !progress) break;
    ctx.settle();
  }
  for (const key of remaining) {
    const verdict = checkEviction(world, world.pod(key)!);
    if (!verdict.allowed)
      changes.push({
        type: 'evictionRefused',
        object: key,
        detail: [verdict.message, verdict.cause].filter(Boolean).join(' '),
      });
  }
}

const nodeTaintMatches = (t: Taint, spec: { key: string; effect?: string }): boolean =>
  t.key === spec.key && (!spec.effect || t.effect === spec.effect);

function deleteObjects(args: StepArgs['delete'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  if (args.name === undefined && args.selector === undefined)
    throw new StepError('name', 'give a name or a selector');
  if (args.kind === 'Node') {
    const nodes = selectNodes(
      world,
      args.name !== undefined ? [args.name] : { selector: args.selector },
      args.name !== undefined ? 'name' : 'selector',
    );
    for (const n of nodes) removeNode(ctx, n);
    return;
  }
  const ns = args.namespace ?? 'default';
  const sel = args.selector !== undefined ? parseLabelSelector(args.selector) : undefined;
  const targets = world.items.filter(
    (i) =>
      i.kind === args.kind &&
      namespaceOf(i) === ns &&
      (args.name === undefined || i.metadata?.name === args.name) &&
      (!sel || sel.matches(i.metadata?.labels)),
  );
  if (targets.length === 0) {
    throw new StepError(
      args.name !== undefined ? 'name' : 'selector',
      `no ${args.kind} ${args.name !== undefined ? `"${ns}/${args.name}"` : `matches selector "${args.selector}" in namespace "${ns}"`}`,
    );
  }
  for (const obj of targets) {
    if (obj.kind === 'Pod') {
      podGone(world, obj as unknown as Pod, 'podDeleted', changes);
      continue;
    }
    // Garbage collection removes what the object controls (a Deployment's ReplicaSets and their pods).
    const dependents = (owner: KubeObject): void => {
      for (const child of world.items.filter(
        (i) =>
          i.kind !== 'Pod' &&
          controllerOf(i as never)?.name === owner.metadata?.name &&
          controllerOf(i as never)?.kind === owner.kind,
      )) {
        dependents(child);
        world.remove(child);
        changes.push({ type: 'objectDeleted', object: `${child.kind}/${ns}/${child.metadata?.name}` });
      }
      for (const pod of podsOwnedBy(world, owner)) {
        world.remove(pod);
        changes.push({
          type: 'podDeleted',
          object: podKeyOf(pod),
          detail: `owner ${owner.kind}/${owner.metadata?.name} deleted`,
        });
      }
    };
    dependents(obj);
    world.remove(obj);
    changes.push({ type: 'objectDeleted', object: `${obj.kind}/${ns}/${obj.metadata?.name}` });
  }
}

type Workload = KubeObject & { spec?: { replicas?: number } };

function scaleWorkload(args: StepArgs['scale'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  const ns = args.namespace ?? 'default';
  const find = (kind: string, name: string) =>
    world.items.find((i) => i.kind === kind && i.metadata?.name === name && namespaceOf(i) === ns) as
      Workload | undefined;
  const target = find(args.kind, args.name);
  if (!target) throw new StepError('name', `no ${args.kind} "${ns}/${args.name}" in the cluster`);
  let controlled: Workload = target;
  if (args.kind === 'Deployment') {
    // The Deployment controller scales its newest ReplicaSet.
    const sets = world.items.filter(
      (i) =>
        i.kind === 'ReplicaSet' &&
        controllerOf(i as never)?.kind === 'Deployment' &&
        controllerOf(i as never)?.name === args.name,
    ) as Workload[];
    const revision = (rs: Workload) =>
      Number(rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
    const newest = sets.sort((a, b) => revision(b) - revision(a))[0];
    if (!newest)
      throw new StepError(
        'name',
        `Deployment "${ns}/${args.name}" has no ReplicaSet in the snapshot to scale`,
      );
    const nextDeployment = { ...target, spec: { ...target.spec, replicas: args.replicas } };
    world.replace(target, nextDeployment);
    controlled = newest;
  }
  const next = { ...controlled, spec: { ...controlled.spec, replicas: args.replicas } } as Workload;
  world.replace(controlled, next);
  if (next.kind === 'StatefulSet') condemnClaimsOnScaleDown(ctx, next, args.replicas);
  changes.push({
    type: 'objectScaled',
    object: `${next.kind}/${ns}/${next.metadata?.name}`,
    detail: `${controlled.spec?.replicas ?? 1} → ${args.replicas} replicas`,
  });
  reconcileReplicas(world, next, changes);
}

function applyObjects(args: StepArgs['apply'], ctx: OperationContext): void {
  const { world, changes } = ctx;
  if (args.manifests === undefined && args.objects === undefined)
    throw new StepError('manifests', 'give manifests or objects');
  const objects: KubeObject[] = [];
  if (args.manifests !== undefined) {
    try {
      objects.push(...parseKubernetesObjects(args.manifests).objects);
    } catch (e) {
      throw new StepError('manifests', (e as Error).message);
    }
  }
  if (args.objects) objects.push(...parseKubernetesObjects(JSON.stringify(args.objects)).objects);
  for (const obj of objects) {
    const ns = CLUSTER_SCOPED_KINDS.has(obj.kind) ? undefined : namespaceOf(obj);
    const id = ns ? `${obj.kind}/${ns}/${obj.metadata?.name}` : `${obj.kind}/${obj.metadata?.name}`;
    if (EXPANDED_ON_APPLY.has(obj.kind)) {
      applyWorkload(obj, ctx);
      continue;
    }
    const existing = world.items.find(
      (i) =>
        i.kind === obj.kind &&
        i.metadata?.name === obj.metadata?.name &&
        (ns === undefined || namespaceOf(i) === ns),
    );
    if (existing && obj.kind === 'Pod')
      throw new StepError('manifests', `Pod "${ns}/${obj.metadata?.name}" already exists`);
    if (existing) world.replace(existing, obj);
    else world.add(obj);
    changes.push({
      type: obj.kind === 'Pod' ? 'podCreated' : obj.kind === 'Node' ? 'nodeAdded' : 'objectApplied',
      object: obj.kind === 'Pod' ? `${ns}/${obj.metadata?.name}` : id,
    });
    if (isReplicaController(obj.kind)) reconcileReplicas(world, obj, changes);
  }
}

export const OPERATIONS: { [K in StepKind]: Handler<K> } = {
  addNodes(args, ctx) {
    for (const node of buildAddedNodes(ctx.world, args, ctx.templates)) {
      ctx.world.add(node);
      const csiNode = addedCsiNode(ctx.world, args, ctx.templates, nodeNameOf(node));
      if (csiNode) ctx.world.add(csiNode);
      ctx.changes.push({
        type: 'nodeAdded',
        object: `Node/${nodeNameOf(node)}`,
        detail: zoneOf(node) ? `zone ${zoneOf(node)}` : undefined,
      });
    }
  },
  removeNodes(args, ctx) {
    for (const node of selectNodes(ctx.world, args.nodes)) removeNode(ctx, node);
  },
  nodeLoss(args, ctx) {
    // The machine fails for good: its Node object goes, and with it the data of its local volumes.
    for (const node of selectNodes(ctx.world, args.nodes)) {
      const local = localVolumesOn(ctx.world, nodeNameOf(node));
      removeNode(
        ctx,
        node,
        'node lost',
        `lost with its disks${local.length ? `; local volumes on it: ${local.join(', ')}` : ''}`,
      );
    }
  },
  cordon(args, ctx) {
    for (const node of selectNodes(ctx.world, args.nodes)) cordon(ctx, node);
  },
  uncordon(args, ctx) {
    for (const node of selectNodes(ctx.world, args.nodes)) {
      if (!node.spec?.unschedulable) continue;
      const { unschedulable: _u, ...spec } = node.spec;
      updateNode(
        ctx,
        node,
        setTaints(
          { ...node, spec },
          (node.spec.taints ?? []).filter((t) => t.key !== TAINT_UNSCHEDULABLE),
        ),
        'uncordoned',
      );
    }
  },
  drain: drainNodes,
  taint(args, ctx) {
    const timeAdded = new Date(Date.parse('2030-01-01T00:00:00Z') + ctx.world.clock * 1000)
      .toISOString()
      .replace('.000Z', 'Z');
    for (const node of selectNodes(ctx.world, args.nodes)) {
      // Same key and effect replaces the value, as kubectl taint --overwrite does.
      const kept = (node.spec?.taints ?? []).filter(
        (t) => !args.taints.some((n) => n.key === t.key && n.effect === t.effect),
      );
      const added = args.taints.map(
        (t) => ({ ...t, ...(t.effect === 'NoExecute' ? { timeAdded } : {}) }) as Taint,
      );
      updateNode(
        ctx,
        node,
        setTaints(node, [...kept, ...added]),
        `tainted ${args.taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ')}`,
      );
    }
  },
  untaint(args, ctx) {
    for (const node of selectNodes(ctx.world, args.nodes)) {
      const taints = node.spec?.taints ?? [];
      const kept = taints.filter((t) => !args.taints.some((s) => nodeTaintMatches(t, s)));
      if (kept.length !== taints.length)
        updateNode(ctx, node, setTaints(node, kept), `untainted ${args.taints.map((t) => t.key).join(', ')}`);
    }
  },
  label(args, ctx) {
    for (const node of selectNodes(ctx.world, args.nodes)) {
      const next = {
        ...node,
        metadata: { ...node.metadata, labels: { ...node.metadata?.labels, ...args.labels } },
      };
      updateNode(
        ctx,
        node,
        next,
        `labelled ${Object.entries(args.labels)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`,
      );
    }
  },
  unlabel(args, ctx) {
    for (const node of selectNodes(ctx.world, args.nodes)) {
      const labels = { ...node.metadata?.labels };
      for (const k of args.keys) delete labels[k];
      updateNode(
        ctx,
        node,
        { ...node, metadata: { ...node.metadata, labels } },
        `unlabelled ${args.keys.join(', ')}`,
      );
    }
  },
  zoneOutage(args, ctx) {
    const nodes = ctx.world.nodes().filter((n) => zoneOf(n) === args.zone);
    if (nodes.length === 0) throw new StepError('zone', `no node is in zone "${args.zone}"`);
    const unreachable = (args.condition ?? 'unreachable') === 'unreachable';
    const key = unreachable ? TAINT_UNREACHABLE : TAINT_NOT_READY;
    const timeAdded = new Date(Date.parse('2030-01-01T00:00:00Z') + ctx.world.clock * 1000)
      .toISOString()
      .replace('.000Z', 'Z');
    for (const node of nodes) {
      const conditions = (node.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
      conditions.push({
        type: 'Ready',
        status: unreachable ? 'Unknown' : 'False',
        reason: unreachable ? 'NodeStatusUnknown' : 'KubeletNotReady',
      });
      const taints = (node.spec?.taints ?? []).filter(
        (t) => t.key !== TAINT_NOT_READY && t.key !== TAINT_UNREACHABLE,
      );
      // The node lifecycle controller adds both: NoSchedule keeps new pods off, NoExecute evicts.
      taints.push({ key, effect: 'NoSchedule' }, { key, effect: 'NoExecute', timeAdded });
      const next = setTaints({ ...node, status: { ...node.status, conditions } }, taints);
      updateNode(ctx, node, next, `${unreachable ? 'unreachable' : 'not ready'} (zone ${args.zone} outage)`);
    }
  },
  delete: deleteObjects,
  deletePod(args, ctx) {
    const key = `${args.namespace ?? 'default'}/${args.name}`;
    const pod = ctx.world.pod(key);
    if (!pod)
      throw new StepError(
        'name',
        `pods "${args.name}" not found in namespace "${args.namespace ?? 'default'}"`,
      );
    podGone(ctx.world, pod, 'podDeleted', ctx.changes, { reason: 'deleted' });
  },
  deletePVC: deleteClaim,
  deleteNamespace,
  setReclaimPolicy,
  expandPVC: expandClaim,
  setStorageCapacity,
  scale: scaleWorkload,
  setProfile(args, ctx) {
    const engine = { ...ctx.world.engine };
    if ('schedulerConfiguration' in args) engine.schedulerConfiguration = args.schedulerConfiguration;
    if (args.compatibilityVersion !== undefined) engine.compatibilityVersion = args.compatibilityVersion;
    if (args.featureGates !== undefined) engine.featureGates = args.featureGates;
    ctx.world.setEngine(engine);
    try {
      ctx.world.engineSetup();
    } catch (e) {
      throw new StepError('schedulerConfiguration', (e as Error).message);
    }
    ctx.changes.push({
      type: 'profileChanged',
      object: 'scheduler',
      detail: engine.compatibilityVersion ? `compatibilityVersion ${engine.compatibilityVersion}` : undefined,
    });
  },
  advanceTime(args, ctx) {
    const { world } = ctx;
    const end = world.clock + args.seconds;
    // Evictions fall due in time order; each batch is rescheduled before the next one.
    for (;;) {
      const due = [...world.noExecuteDeadlines.values()]
        .filter((d) => d > world.clock && d <= end)
        .sort((a, b) => a - b)[0];
      if (due === undefined) break;
      world.clock = due;
      runTaintManager(world, ctx.changes);
      ctx.settle();
    }
    world.clock = end;
    ctx.changes.push({ type: 'timeAdvanced', object: 'clock', detail: `+${args.seconds}s, now t=${end}s` });
  },
  apply: applyObjects,
  deschedule(args, ctx) {
    ctx.descheduling = descheduleStep(args, ctx);
  },
};
