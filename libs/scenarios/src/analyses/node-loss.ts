/**
 * "If these nodes disappear, where do their pods go?" The nodes and their pods are removed; the
 * pods come back pending (same name, labels and spec, no nodeName, empty status) and are
 * scheduled again with preemption, against the surviving nodes.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import type { PodSchedulingResult, SimulateOptions } from '@schedlab/scheduler';
import { buildClusterState, createSimulator, schedulePending, setupEngine } from '@schedlab/scheduler';

export interface NodeLossSummary {
  rescheduled: number;
  unschedulable: number;
  victims: number;
}

export interface NodeLossResult {
  results: PodSchedulingResult[];
  summary: NodeLossSummary;
}

/** The dump with the lost nodes gone and their pods re-created as pending at the same position. */
export function withoutNodes(items: readonly KubeObject[], lost: ReadonlySet<string>): KubeObject[] {
  const out: KubeObject[] = [];
  for (const item of items) {
    if (item.kind === 'Node' && lost.has(item.metadata?.name ?? '')) continue;
    if (item.kind === 'Pod') {
      const pod = item as unknown as Pod;
      const nodeName = pod.spec?.nodeName;
      if (nodeName && lost.has(nodeName)) {
        const { nodeName: _dropped, ...spec } = pod.spec!;
        out.push({ ...item, spec, status: {} } as KubeObject);
        continue;
      }
    }
    out.push(item);
  }
  return out;
}

export function nodeLoss(
  items: readonly KubeObject[],
  lostNodes: readonly string[],
  options: SimulateOptions = {},
): NodeLossResult {
  const lost = new Set(lostNodes);
  const known = new Set(items.filter((i) => i.kind === 'Node').map((i) => i.metadata?.name));
  for (const n of lost) if (!known.has(n)) throw new Error(`nodes: node "${n}" is not in the cluster`);
  const cluster = buildClusterState(withoutNodes(items, lost));
  const setup = setupEngine(options);
  const sim = createSimulator(cluster, setup, options);
  // Only the re-created pods are pending: the input has no other pending pods by construction
  // of the question, but a dump may; they are scheduled too, in queue order.
  const results = schedulePending(sim, cluster.pendingPods, options.onProgress);
  const summary: NodeLossSummary = { rescheduled: 0, unschedulable: 0, victims: 0 };
  for (const r of results) {
    if (r.node) summary.rescheduled++;
    else summary.unschedulable++;
    summary.victims += r.victims?.length ?? 0;
  }
  return { results, summary };
}
