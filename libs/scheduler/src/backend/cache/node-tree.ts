/**
 * Upstream's nodeTree: nodes grouped by zone, listed round-robin across zones so that a
 * partial search (percentageOfNodesToScore) samples every zone. Zones keep the order in
 * which their first node was added; nodes keep their order within a zone.
 */
import { regionOf, zoneOf, type Node } from '@schedlab/k8s';

/** Region and zone joined as upstream's utilnode.GetZoneKey does; '' when the node has neither. */
export function zoneKeyOf(node: Node): string {
  const zone = zoneOf(node) ?? '';
  const region = regionOf(node) ?? '';
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
