import { zoneOf, type Node } from '@schedlab/k8s';
import {
  claimDevicesOf,
  placementMessage,
  type ClaimDevice,
  type DeviceClassSummary,
  type PodOutcome,
  type PodSchedulingResult,
  type SimulationResult,
  type SimulationSummary,
} from '@schedlab/scheduler';
import { podMessage, podReason, podStatus } from './pod-status';
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
  /** DRA: the devices the pod's claims were allocated (or already held) when it was placed. */
  devices?: ClaimDevice[];
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
  /** Present when the cluster has DeviceClasses: devices per class and node after scheduling. */
  devices?: DeviceClassSummary[];
}

export function toPlacement(result: PodSchedulingResult, nodesByName: ReadonlyMap<string, Node>): Placement {
  const placement: Placement = {
    pod: result.pod,
    outcome: result.outcome,
    node: result.node,
    zone: result.node ? (zoneOf(nodesByName.get(result.node)) ?? null) : null,
    priority: result.priority,
  };
  // The attempt that decided the pod (a placed preemptor: its retry), as the service's rows say;
  // an engine error has its own field here.
  const message = result.outcome === 'error' ? result.message : placementMessage(result);
  if (message) placement.message = message;
  if (result.nominatedNode) placement.nominatedNode = result.nominatedNode;
  if (result.victims?.length) placement.victims = [...result.victims];
  if (result.error) placement.error = result.error;
  const devices = claimDevicesOf(result.claims);
  if (devices.length) placement.devices = devices;
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
    ...(result.devices ? { devices: result.devices } : {}),
  };
}

/**
 * The placements as kubectl would table them: short STATUS and REASON columns; `wide` adds the
 * nominated node, the preemption victims and the full FitError.
 */
export function formatPlacementTable(doc: SimulationDocument, { wide = false } = {}): string[] {
  const headers = ['POD', 'STATUS', 'NODE', 'ZONE', 'PRIORITY', 'REASON'];
  if (wide) headers.push('NOMINATED NODE', 'VICTIMS', 'MESSAGE');
  const rows = doc.placements.map((p) => {
    const row = [
      p.pod,
      podStatus(p),
      p.node ?? (p.outcome === 'rejected' ? '<not created>' : '<pending>'),
      p.zone ?? '',
      String(p.priority),
      podReason(p),
    ];
    if (wide) row.push(p.nominatedNode ?? '<none>', p.victims?.join(',') ?? '<none>', podMessage(p));
    return row;
  });
  const s = doc.summary;
  const counts = [`${s.scheduled} scheduled`, `${s.unschedulable} unschedulable`, `${s.preempted} preempted`];
  if (s.gated) counts.push(`${s.gated} gated`);
  if (s.errors) counts.push(`${s.errors} errors`);
  const rejected = doc.placements.filter((p) => p.outcome === 'rejected').length;
  if (rejected) counts.push(`${rejected} rejected by admission`);
  const lines = doc.placements.length
    ? formatTable(headers, rows)
    : ['no pending pods in the dump (pods without spec.nodeName are the ones scheduled)'];
  lines.push(
    '',
    `${s.pods} pending pods: ${counts.join(', ')} (kube-scheduler ${doc.compatibilityVersion} behaviour)`,
  );
  for (const orphan of doc.orphanPods)
    lines.push(`note: ${orphan} names a node the dump does not contain; left alone`);
  if (!wide && doc.placements.some((p) => p.outcome !== 'scheduled' && p.message))
    lines.push("(-o wide adds each pod's full message: the FitError word for word)");
  return lines;
}
