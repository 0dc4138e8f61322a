/**
 * A node label's values as small integers (topology domains), per snapshot node: InterPodAffinity
 * and PodTopologySpread look up "the node's value of the topology key, then that value's count"
 * for every node of every attempt; with the value numbered once per snapshot, that is two typed
 * array reads instead of a label lookup and a string-keyed map lookup.
 */
import type { Labels } from '@schedlab/k8s';

const hasOwn = Object.prototype.hasOwnProperty;

export class TopologyDomains {
  /** Per snapshot node index: the id of its value of `key`, or -1 when it lacks the label. */
  readonly ids: Int32Array;
  /** id → value, ids in order of first appearance in node order. */
  readonly values: string[] = [];
  private readonly byValue = new Map<string, number>();

  constructor(
    readonly key: string,
    nodeLabels: readonly (Labels | undefined)[],
  ) {
    this.ids = new Int32Array(nodeLabels.length);
    for (let i = 0; i < nodeLabels.length; i++) {
      const labels = nodeLabels[i];
      if (labels === undefined || !hasOwn.call(labels, key)) {
        this.ids[i] = -1;
        continue;
      }
      const value = labels[key];
      let id = this.byValue.get(value);
      if (id === undefined) {
        id = this.values.push(value) - 1;
        this.byValue.set(value, id);
      }
      this.ids[i] = id;
    }
  }

  /** Number of distinct values (ids are 0 … size-1). */
  get size(): number {
    return this.values.length;
  }

  /** The id of a value, or -1 when no snapshot node has it. */
  idOf(value: string): number {
    return this.byValue.get(value) ?? -1;
  }
}

/**
 * Keys whose lookup as `labels[key]` could reach Object.prototype (e.g. "constructor"): plugins
 * that read labels that way keep their own path for them, so the answers stay the same.
 */
export function inheritedKey(key: string): boolean {
  return key in Object.prototype;
}
