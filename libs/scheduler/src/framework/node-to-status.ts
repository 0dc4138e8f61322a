import type { Status } from './status';

/**
 * node name → status of the node that failed (upstream NodeToStatusMap / NodeToStatus), in the
 * order the nodes failed, as a Map keeps them. From 1.32 upstream also gives nodes without an
 * entry a status (`absentNodesStatus`): nodes a PreFilterResult left out are
 * UnschedulableAndUnresolvable, and they count in the FitError.
 *
 * The filter loop records thousands of failed nodes per attempt and nearly every attempt is read
 * only in order (reason counts, explanations); so entries are two arrays, and the index by name
 * that `get`, `has` and `set` need is built on the first such call.
 */
export class NodeToStatusMap implements Iterable<[string, Status]> {
  absentNodesStatus?: Status;
  private readonly names: string[] = [];
  private readonly statuses: Status[] = [];
  private index: Map<string, number> | undefined;

  constructor(entries?: Iterable<readonly [string, Status]>) {
    if (entries) for (const [name, status] of entries) this.set(name, status);
  }

  get size(): number {
    return this.names.length;
  }

  /** Records a node that has no entry yet (the filter loop examines each node once per attempt). */
  add(name: string, status: Status): void {
    this.index?.set(name, this.names.length);
    this.names.push(name);
    this.statuses.push(status);
  }

  /** As Map.set: a node with an entry keeps its place and takes the new status. */
  set(name: string, status: Status): this {
    const i = this.indexByName().get(name);
    if (i === undefined) this.add(name, status);
    else this.statuses[i] = status;
    return this;
  }

  get(name: string): Status | undefined {
    const i = this.indexByName().get(name);
    return i === undefined ? undefined : this.statuses[i];
  }

  has(name: string): boolean {
    return this.indexByName().has(name);
  }

  keys(): IterableIterator<string> {
    return this.names.values();
  }

  values(): IterableIterator<Status> {
    return this.statuses.values();
  }

  *entries(): IterableIterator<[string, Status]> {
    for (let i = 0; i < this.names.length; i++) yield [this.names[i], this.statuses[i]];
  }

  [Symbol.iterator](): IterableIterator<[string, Status]> {
    return this.entries();
  }

  private indexByName(): Map<string, number> {
    if (this.index === undefined) {
      this.index = new Map();
      for (let i = 0; i < this.names.length; i++) this.index.set(this.names[i], i);
    }
    return this.index;
  }
}
