/**
 * Image summaries as the v1.26 scheduler cache builds them (cache.addNodeImageStates): each
 * node's summary is taken when the node is added and never refreshed, so `numNodes` counts the
 * nodes added so far (in informer add order, i.e. input order) that list the image, this one
 * included, and `size` is the size reported by the first node that listed the name. The golden
 * cases confirm this; counting across all nodes (upstream's test-only NewSnapshot) does not match.
 */
import type { ImageStateSummary, NodeInfo } from '../../types';

export function assignImageStatesInAddOrder(nodesInAddOrder: readonly NodeInfo[]): void {
  const seen = new Map<string, { size: number; nodes: number }>();
  for (const ni of nodesInAddOrder) {
    const summaries = new Map<string, ImageStateSummary>();
    for (const img of ni.node.status?.images ?? []) {
      for (const name of img.names ?? []) {
        let state = seen.get(name);
        if (!state) seen.set(name, (state = { size: img.sizeBytes ?? 0, nodes: 0 }));
        if (summaries.has(name)) continue;
        state.nodes++;
        summaries.set(name, { size: state.size, numNodes: state.nodes });
      }
    }
    ni.imageStates = summaries;
  }
}
