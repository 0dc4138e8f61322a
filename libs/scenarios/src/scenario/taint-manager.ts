/**
 * The NoExecute taint manager: a pod on a node with a NoExecute taint it does not tolerate is
 * evicted at once; one that tolerates all of them for a limited time is evicted when the shortest
 * tolerationSeconds has elapsed since the manager first saw it tainted. Pods get the
 * DefaultTolerationSeconds admission tolerations (not-ready/unreachable for 300s) unless they
 * already tolerate those taints, as the API server would have given them.
 */
import {
  podKeyOf,
  Pod,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
  Taint,
  Toleration,
  tolerationToleratesTaint,
} from '@schedlab/k8s';
import { podGone } from './controllers';
import { Change, World } from './world';

export const TAINT_NOT_READY = TAINT_NODE_NOT_READY;
export const TAINT_UNREACHABLE = TAINT_NODE_UNREACHABLE;
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
export const DEFAULT_TOLERATION_SECONDS = 300;

export function admittedTolerations(pod: Pod): Toleration[] {
  const own = pod.spec?.tolerations ?? [];
  const out = [...own];
  for (const key of [TAINT_NOT_READY, TAINT_UNREACHABLE]) {
    const probe: Taint = { key, effect: 'NoExecute' };
    if (!own.some((t) => tolerationToleratesTaint(t, probe))) {
      out.push({
        key,
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: DEFAULT_TOLERATION_SECONDS,
      });
    }
  }
  return out;
}

/** Seconds the pod may stay: 0 = evict now, undefined = forever. */
export function toleratedSeconds(pod: Pod, taints: readonly Taint[]): number | undefined {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute');
  if (noExecute.length === 0) return undefined;
  const tolerations = admittedTolerations(pod);
  let min: number | undefined;
  for (const taint of noExecute) {
    const used = tolerations.filter((t) => tolerationToleratesTaint(t, taint));
    if (used.length === 0) return 0;
    for (const t of used) {
      if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
      const s = Math.max(0, t.tolerationSeconds);
      min = min === undefined ? s : Math.min(min, s);
    }
  }
  return min;
}

/** Evicts what is due now and (re)arms deadlines; returns whether anything was evicted. */
export function runTaintManager(world: World, changes: Change[]): boolean {
  let evicted = false;
  const nodes = new Map(world.nodes().map((n) => [n.metadata?.name ?? '', n]));
  const seen = new Set<string>();
  for (const pod of world.pods()) {
    const nodeName = pod.spec?.nodeName;
    if (!nodeName) continue;
    const key = podKeyOf(pod);
    seen.add(key);
    const seconds = toleratedSeconds(pod, nodes.get(nodeName)?.spec?.taints ?? []);
    if (seconds === undefined) {
      world.noExecuteDeadlines.delete(key);
      continue;
    }
    const deadline = world.noExecuteDeadlines.get(key) ?? world.clock + seconds;
    world.noExecuteDeadlines.set(key, deadline);
    if (deadline <= world.clock) {
      const reason =
        seconds === 0 ? 'NoExecute taint not tolerated' : `NoExecute taint tolerated for ${seconds}s`;
      podGone(world, pod, 'podEvicted', changes, { reason });
      evicted = true;
    }
  }
  for (const key of [...world.noExecuteDeadlines.keys()])
    if (!seen.has(key)) world.noExecuteDeadlines.delete(key);
  return evicted;
}
