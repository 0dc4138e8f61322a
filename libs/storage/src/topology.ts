/**
 * Where a provisioner can create a volume without knowing the pod: the distinct topology
 * segments of the driver over the cluster's nodes (what the CSI external provisioner offers as
 * requisite topology for Immediate binding), and the zone a volume or segment is in.
 */
import {
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_HOSTNAME,
  LABEL_TOPOLOGY_ZONE,
  zoneOf,
  type CSINode,
  type Labels,
  type Node,
  type PersistentVolume,
  type StorageClass,
} from '@schedlab/k8s';
import { volumeBinding } from '@schedlab/scheduler';

export interface TopologySegment {
  /** The driver's topology keys and their values, e.g. {"topology.ebs.csi.aws.com/zone": "a"}. */
  labels: Labels;
  /** Zone of the segment ("" when it names none). */
  zone: string;
  /** Nodes in the segment, by name. */
  nodes: string[];
}

function isZoneKey(key: string): boolean {
  return key === LABEL_TOPOLOGY_ZONE || key === LABEL_FAILURE_DOMAIN_BETA_ZONE || key.endsWith('/zone');
}

/** A node's zone ("" when it has none). */
const zoneOfNode = (node: Node): string => zoneOf(node) ?? '';

/** The driver's topology keys from the CSINodes; nodes without the driver registered do not count. */
function driverTopologyKeys(driver: string, csiNodes: readonly CSINode[]): string[] | undefined {
  const keys = new Set<string>();
  let registered = false;
  for (const cn of csiNodes) {
    const d = cn.spec?.drivers?.find((x) => x.name === driver);
    if (!d) continue;
    registered = true;
    for (const k of d.topologyKeys ?? []) keys.add(k);
  }
  return registered ? [...keys].sort() : undefined;
}

/**
 * Segments a class's provisioner can serve, sorted by their labels. Drivers not registered in
 * any CSINode are modelled by the nodes' zone label (how in-tree cloud volumes were zoned); a
 * cluster without zones yields one segment without labels (the volume gets no node affinity).
 * allowedTopologies keeps the segments with at least one node matching a term.
 */
export function provisioningSegments(
  sc: StorageClass,
  nodes: readonly Node[],
  csiNodes: readonly CSINode[],
): TopologySegment[] {
  const driver = sc.provisioner ?? '';
  const registeredKeys = driverTopologyKeys(driver, csiNodes);
  const registeredNodes = new Set(
    csiNodes
      .filter((cn) => cn.spec?.drivers?.some((d) => d.name === driver))
      .map((cn) => cn.metadata?.name ?? ''),
  );
  const keys = registeredKeys ?? (nodes.some((n) => zoneOfNode(n)) ? [LABEL_TOPOLOGY_ZONE] : []);
  const byKey = new Map<string, TopologySegment>();
  for (const node of nodes) {
    if (registeredKeys && !registeredNodes.has(node.metadata?.name ?? '')) continue;
    const labels = node.metadata?.labels ?? {};
    // The zone label may be the beta one on old nodes.
    const value = (k: string) =>
      labels[k] ?? (k === LABEL_TOPOLOGY_ZONE ? labels[LABEL_FAILURE_DOMAIN_BETA_ZONE] : undefined);
    if (keys.some((k) => value(k) === undefined)) continue;
    if (!volumeBinding.pvHelpers.matchTopologySelectorTerms(sc.allowedTopologies, labels)) continue;
    const seg: Labels = {};
    for (const k of keys) seg[k] = value(k)!;
    const id = JSON.stringify(seg);
    let s = byKey.get(id);
    if (!s) {
      const zoneKey = keys.find(isZoneKey);
      s = { labels: seg, zone: zoneKey ? seg[zoneKey] : zoneOfNode(node), nodes: [] };
      byKey.set(id, s);
    }
    s.nodes.push(node.metadata?.name ?? '');
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s);
}

/**
 * Zone of a volume: its zone label, else the values its node affinity allows for a zone key,
 * else the zone of the single node it is pinned to by hostname. Several zones join with ",".
 */
export function zoneOfVolume(pv: PersistentVolume, nodes: readonly Node[]): string {
  const labelled = zoneOf(pv);
  if (labelled) return labelled.split('__').join(',');
  const zones = new Set<string>();
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (e.operator !== 'In') continue;
      if (isZoneKey(e.key)) for (const v of e.values ?? []) zones.add(v);
      else if (e.key === LABEL_HOSTNAME) {
        for (const v of e.values ?? []) {
          const n = nodes.find((x) => (x.metadata?.labels?.[LABEL_HOSTNAME] ?? x.metadata?.name) === v);
          if (n && zoneOfNode(n)) zones.add(zoneOfNode(n));
        }
      }
    }
  }
  return [...zones].sort().join(',');
}

/** A volume's node affinity that no node of the cluster satisfies (it can never be used). */
export function volumeMatchesNoNode(pv: PersistentVolume, nodes: readonly Node[]): boolean {
  if (!pv.spec?.nodeAffinity?.required) return false;
  return !nodes.some((n) => volumeBinding.pvHelpers.pvNodeAffinityMatches(pv, n.metadata?.labels));
}
