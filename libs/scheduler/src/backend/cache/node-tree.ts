/**
 * Upstream's nodeTree: nodes grouped by zone, listed round-robin across zones so that a
 * partial search (percentageOfNodesToScore) samples every zone. Zones keep the order in
 * which their first node was added; nodes keep their order within a zone.
 */
import type { Node } from '@schedlab/k8s';

export const LABEL_ZONE = 'topology.kubernetes.io/zone';
export const LABEL_REGION = 'topology.kubernetes.io/region';
const LABEL_ZONE_BETA = 'failure-domain.beta.kubernetes.io/zone';
const LABEL_REGION_BETA = 'failure-domain.beta.kubernetes.io/region';

/** Region and zone joined as upstream's utilnode.GetZoneKey does; '' when the node has neither. */
export function zoneKeyOf(node: Node): string {
  const labels = node.metadata?.labels ?? {};
  const zone = labels[LABEL_ZONE] ?? labels[LABEL_ZONE_BETA] ?? '';
  const region = labels[LABEL_REGION] ?? labels[LABEL_REGION_BETA] ?? '';
  if (zone === '' && region === '') return '';
  return `${region}:\x00:${zone}`;
}

export function nodeTreeOrder(nodes: readonly Node[]): Node[] {
  const zones = new Map<string, Node[]>();
  for (const n of nodes) {
    const key = zoneKeyOf(n);
    let list = zones.get(key);
    if (!list) zones.set(key, (list = []));
    list.push(n);
  }
  const lists = [...zones.values()];
  const out: Node[] = [];
  for (let i = 0; out.length < nodes.length; i++) {
    for (const l of lists) if (i < l.length) out.push(l[i]);
  }
  return out;
}
