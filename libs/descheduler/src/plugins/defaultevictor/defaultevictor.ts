/**
 * The DefaultEvictor: the profile's filter (may this pod be evicted at all: mirror, static,
 * terminating pods never; the pod protections, labelSelector, minReplicas, minPodAge) and
 * preEvictionFilter (nodeFit, namespaceLabelSelector), as descheduler v0.36 has them.
 */
import {
  type KubeObject,
  type Node,
  type PersistentVolumeClaim,
  type Pod,
  type PodDisruptionBudget,
  type PriorityClass,
  namespaceOf,
  parseSelectorText,
  selectorFromLabelSelector,
} from '@schedlab/k8s';
import { parseGoDuration } from '../../api/duration';
import { PolicyError } from '../../api/schema';
import {
  type PodPredicate,
  SYSTEM_CRITICAL_PRIORITY,
  hasEvictAnnotation,
  hasLocalStorage,
  hasNoEvictionAnnotation,
  hasPersistentVolumeClaim,
  hasResourceClaims,
  isCriticalPriorityPod,
  isDaemonSetPod,
  isMirrorPod,
  isNodeReady,
  isStaticPod,
  isTerminatingPod,
  ownerReferencesOf,
} from '../../framework/pods';
import { type DefaultEvictorArgs, effectivePodProtections } from './args';

/** What the DefaultEvictor reads of the cluster. */
export interface EvictorContext {
  objects: readonly KubeObject[];
  /** Every node of the snapshot (nodeFit looks at all ready ones, not only the processed). */
  nodes: readonly Node[];
  /** Every pod not evicted yet. */
  pods(): readonly Pod[];
  now(): number;
  podFitsNode(pod: Pod, node: Node): boolean;
}

export interface EvictorPlugin {
  readonly name: string;
  filter(pod: Pod): boolean;
  preEvictionFilter(pod: Pod): boolean;
}

const ofKind = <T>(objects: readonly KubeObject[], kind: string) =>
  objects.filter((o) => o.kind === kind) as unknown as T[];

/** priorityThreshold as a number: its value, its class's value, or system-critical by default. */
export function priorityThresholdOf(args: DefaultEvictorArgs, objects: readonly KubeObject[]): number {
  const t = args.priorityThreshold;
  if (t?.value !== undefined) return t.value;
  if (!t?.name) return SYSTEM_CRITICAL_PRIORITY;
  const pc = ofKind<PriorityClass>(objects, 'PriorityClass').find((c) => c.metadata?.name === t.name);
  if (!pc)
    throw new PolicyError(
      'priorityThreshold.name',
      `unable to get priority value from the priority class: priorityclass "${t.name}" not found`,
    );
  if (pc.value > SYSTEM_CRITICAL_PRIORITY)
    throw new PolicyError(
      'priorityThreshold.name',
      `priority threshold can't be greater than ${SYSTEM_CRITICAL_PRIORITY}`,
    );
  return pc.value;
}

/** A pod's owners' UIDs, as the minReplicas index keys pods. */
const ownerUids = (pod: Pod) => ownerReferencesOf(pod).map((o) => o.uid);

export function createDefaultEvictor(args: DefaultEvictorArgs, context: EvictorContext): EvictorPlugin {
  const protections = effectivePodProtections(args);
  const checks: PodPredicate[] = [];

  if (protections.has('SystemCriticalPods')) {
    checks.push((pod) => !isCriticalPriorityPod(pod));
    // Upstream applies the threshold only while system-critical pods are protected.
    const threshold = priorityThresholdOf(args, context.objects);
    checks.push(
      (pod) =>
        pod.spec?.priority === undefined || pod.spec.priority === null || pod.spec.priority < threshold,
    );
  }
  if (protections.has('FailedBarePods')) checks.push((pod) => ownerReferencesOf(pod).length > 0);
  else checks.push((pod) => ownerReferencesOf(pod).length > 0 || pod.status?.phase === 'Failed');
  if (protections.has('PodsWithLocalStorage')) checks.push((pod) => !hasLocalStorage(pod));
  if (protections.has('DaemonSetPods')) checks.push((pod) => !isDaemonSetPod(pod));
  if (protections.has('PodsWithPVC')) {
    const protectedClasses = new Set(
      (args.podProtections.config?.PodsWithPVC?.protectedStorageClasses ?? []).map((c) => c.name),
    );
    if (protectedClasses.size === 0) checks.push((pod) => !hasPersistentVolumeClaim(pod));
    else {
      const claims = ofKind<PersistentVolumeClaim>(context.objects, 'PersistentVolumeClaim');
      checks.push((pod) => {
        for (const v of pod.spec?.volumes ?? []) {
          if (!v.persistentVolumeClaim) continue;
          const claim = claims.find(
            (c) =>
              namespaceOf(c) === namespaceOf(pod) && c.metadata?.name === v.persistentVolumeClaim?.claimName,
          );
          // A claim that cannot be found or has no class cannot be cleared: the pod stays protected.
          const cls = claim?.spec?.storageClassName;
          if (!cls || protectedClasses.has(cls)) return false;
        }
        return true;
      });
    }
  }
  if (protections.has('PodsWithoutPDB')) {
    const budgets = ofKind<PodDisruptionBudget>(context.objects, 'PodDisruptionBudget');
    checks.push((pod) =>
      budgets.some((pdb) => {
        if (namespaceOf(pdb) !== namespaceOf(pod) || !pdb.spec?.selector) return false;
        try {
          return selectorFromLabelSelector(pdb.spec.selector).matches(pod.metadata?.labels);
        } catch {
          return false; // an invalid selector never matches
        }
      }),
    );
  }
  if (protections.has('PodsWithResourceClaims')) checks.push((pod) => !hasResourceClaims(pod));

  if (args.labelSelector) {
    const selector = selectorFromLabelSelector(args.labelSelector);
    if (!selector.isEmpty()) checks.push((pod) => selector.matches(pod.metadata?.labels));
  }
  if (args.minReplicas > 1) {
    checks.push((pod) => {
      const owners = ownerReferencesOf(pod);
      // Upstream checks only single-owner pods.
      if (owners.length !== 1) return true;
      const uid = owners[0].uid;
      const replicas = context.pods().filter((p) => ownerUids(p).includes(uid)).length;
      return replicas >= args.minReplicas;
    });
  }
  if (args.minPodAge !== undefined) {
    const minAgeMs = parseGoDuration(args.minPodAge) ?? 0;
    checks.push((pod) => {
      const started = Date.parse(pod.status?.startTime ?? '');
      return !Number.isNaN(started) && context.now() - started >= minAgeMs;
    });
  }

  const fitNodes = (() => {
    const sel = args.nodeSelector ? parseSelectorText(args.nodeSelector) : undefined;
    return () => context.nodes.filter((n) => isNodeReady(n) && (!sel || sel.matches(n.metadata?.labels)));
  })();
  const namespaceSelector =
    args.namespaceLabelSelector &&
    (Object.keys(args.namespaceLabelSelector.matchLabels ?? {}).length > 0 ||
      (args.namespaceLabelSelector.matchExpressions ?? []).length > 0)
      ? selectorFromLabelSelector(args.namespaceLabelSelector)
      : undefined;
  const namespaces = ofKind<KubeObject>(context.objects, 'Namespace');

  return {
    name: 'DefaultEvictor',
    filter(pod) {
      if (hasEvictAnnotation(pod)) return true;
      if (args.noEvictionPolicy === 'Mandatory' && hasNoEvictionAnnotation(pod)) return false;
      if (isMirrorPod(pod) || isStaticPod(pod) || isTerminatingPod(pod)) return false;
      return checks.every((check) => check(pod));
    },
    preEvictionFilter(pod) {
      if (args.nodeFit) {
        const here = pod.spec?.nodeName;
        const fits = fitNodes().some((n) => n.metadata?.name !== here && context.podFitsNode(pod, n));
        if (!fits) return false;
      }
      if (!namespaceSelector) return true;
      const ns = namespaces.find((n) => n.metadata?.name === namespaceOf(pod));
      return !!ns && namespaceSelector.matches(ns.metadata?.labels);
    },
  };
}
