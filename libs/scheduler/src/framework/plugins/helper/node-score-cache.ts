/**
 * A Score plugin's last score per node (by NodeInfo.index), with what it was computed from: an
 * object whose identity covers the node's inputs (the NodeInfo, or its Node), a generation
 * number, and the plugin's epoch (bumped when the pod's inputs differ from the previous pod's).
 * For plugins whose per-node score is a pure function of those: consecutive pods that ask the
 * same rescore only the nodes that changed.
 */
export class NodeScoreCache {
  private owners: unknown[] = [];
  private gen: Float64Array = new Float64Array(0);
  private epochs: Float64Array = new Float64Array(0);
  private scores: Float64Array = new Float64Array(0);
  private epoch = 0;
  private key: unknown = undefined;

  /**
   * Starts a pod: entries computed for another key are stale. `nodeCount`, the number of nodes
   * about to be scored, is a lower bound on the entries needed (their indexes are distinct): the
   * arrays grow to it at once, not by doubling from inside the caller's loop, where each growth
   * cost the first pod about 0.3 ms per 5,000 nodes.
   */
  begin(key: unknown, nodeCount = 0): void {
    if (key !== this.key || Number.isNaN(key)) {
      this.key = key;
      this.epoch++;
    }
    if (nodeCount > this.owners.length) this.grow(nodeCount);
  }

  /** The cached score of node `index`, or undefined when it is missing or stale. */
  get(index: number, owner: unknown, generation: number): number | undefined {
    if (
      index >= 0 &&
      index < this.owners.length &&
      this.epochs[index] === this.epoch &&
      this.gen[index] === generation &&
      this.owners[index] === owner
    ) {
      return this.scores[index];
    }
    return undefined;
  }

  set(index: number, owner: unknown, generation: number, score: number): void {
    if (index < 0) return;
    if (index >= this.owners.length) this.grow(index + 1);
    this.owners[index] = owner;
    this.gen[index] = generation;
    this.epochs[index] = this.epoch;
    this.scores[index] = score;
  }

  private grow(length: number): void {
    const size = Math.max(length, 2 * this.owners.length, 64);
    const grown = (a: Float64Array): Float64Array => {
      const b = new Float64Array(size).fill(-1);
      b.set(a);
      return b;
    };
    this.gen = grown(this.gen);
    this.epochs = grown(this.epochs);
    this.scores = grown(this.scores);
    while (this.owners.length < size) this.owners.push(undefined);
  }
}
