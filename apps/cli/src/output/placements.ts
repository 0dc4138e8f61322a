import { zoneOf, type Node } from '@schedlab/k8s';
import type {
  PodOutcome,
  PodSchedulingResult,
  SimulationResult,
  SimulationSummary,
} from '@schedlab/scheduler';
import type { PlacementVolume, StorageDocument } from './storage';
import { formatTable } from './table';

/** Where one pending pod went, or why it did not. */
export interface Placement {
  pod: string;
  /** `rejected`: admission refused the pod (or its workload); `message` is the API server's. */
  outcome: PodOutcome | 'rejected';
  node: string | null;
  zone: string | null;
  priority: number;
  /** The FitError message of the (first) failed attempt, in upstream wording. */
  message?: string;
  nominatedNode?: string;
  victims?: string[];
  error?: string;
  /** The claims the pod mounts, their volumes and how each was bound. */
  volumes?: PlacementVolume[];
}

/** The machine-readable output of `schedlab simulate`: one document. */
export interface SimulationDocument {
  compatibilityVersion: string;
  summary: SimulationSummary;
  placements: Placement[];
  orphanPods: string[];
  unmodelledKinds: Record<string, number>;
  /** Present when the cluster has claims: volumes, and storage per class and zone. */
  storage?: StorageDocument;
}

export function toPlacement(result: PodSchedulingResult, nodesByName: ReadonlyMap<string, Node>): Placement {
  const placement: Placement = {
    pod: result.pod,
    outcome: result.outcome,
    node: result.node,
    zone: result.node ? (zoneOf(nodesByName.get(result.node)) ?? null) : null,
    priority: result.priority,
  };
  const message = result.firstAttempt?.message ?? result.message;
  if (message) placement.message = message;
  if (result.nominatedNode) placement.nominatedNode = result.nominatedNode;
  if (result.victims?.length) placement.victims = [...result.victims];
  if (result.error) placement.error = result.error;
  return placement;
}

/** A row for an object admission refused: it never reached the scheduler. */
export function rejectedPlacement(object: string, message: string): Placement {
  return { pod: object, outcome: 'rejected', node: null, zone: null, priority: 0, message };
}

export function simulationDocument(
  result: SimulationResult,
  nodes: readonly Node[],
  rejected: readonly { object: string; message: string }[] = [],
): SimulationDocument {
  const nodesByName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
  return {
    compatibilityVersion: result.compatibilityVersion,
    summary: result.summary,
    placements: [
      ...result.results.map((r) => toPlacement(r, nodesByName)),
      ...rejected.map((r) => rejectedPlacement(r.object, r.message)),
    ],
    orphanPods: result.orphanPods,
    unmodelledKinds: result.unmodelledKinds,
  };
}

/** What the RESULT column says: the reason a pod is pending, or what its placement cost. */
function resultText(p: Placement): string {
  if (p.outcome === 'scheduled')
    return p.victims ? `scheduled after preempting ${p.victims.join(', ')}` : 'scheduled';
  if (p.outcome === 'gated') return `gated: ${p.message ?? p.error ?? 'scheduling gates present'}`;
  if (p.outcome === 'error') return `error: ${p.error ?? p.message ?? ''}`;
  if (p.outcome === 'rejected') return `rejected: ${p.message ?? ''}`;
  if (p.outcome === 'no-profile') return p.error ?? p.message ?? 'no scheduler profile for this pod';
  return p.message ?? p.error ?? 'unschedulable';
}

export function formatPlacementTable(doc: SimulationDocument): string[] {
  const rows = doc.placements.map((p) => [
    p.pod,
    p.node ?? (p.outcome === 'rejected' ? '<not created>' : '<pending>'),
    p.zone ?? '',
    String(p.priority),
    resultText(p),
  ]);
  const s = doc.summary;
  const counts = [`${s.scheduled} scheduled`, `${s.unschedulable} unschedulable`, `${s.preempted} preempted`];
  if (s.gated) counts.push(`${s.gated} gated`);
  if (s.errors) counts.push(`${s.errors} errors`);
  const rejected = doc.placements.filter((p) => p.outcome === 'rejected').length;
  if (rejected) counts.push(`${rejected} rejected by admission`);
  const lines = doc.placements.length
    ? formatTable(['POD', 'NODE', 'ZONE', 'PRIORITY', 'RESULT'], rows)
    : ['no pending pods in the dump (pods without spec.nodeName are the ones scheduled)'];
  lines.push(
    '',
    `${s.pods} pending pods: ${counts.join(', ')} (kube-scheduler ${doc.compatibilityVersion} behaviour)`,
  );
  for (const orphan of doc.orphanPods)
    lines.push(`note: ${orphan} names a node the dump does not contain; left alone`);
  return lines;
}
