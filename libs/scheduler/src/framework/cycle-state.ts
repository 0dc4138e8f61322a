/** Per-attempt scratch space shared between a plugin's extension points (upstream CycleState). */
export interface StateData {
  /** Preemption evaluates "what if" copies of the state; data that changes there must clone itself. */
  clone(): StateData;
}

export class CycleState {
  private readonly data = new Map<string, StateData>();
  /** Plugins that returned Skip from PreFilter; their Filter is not called (upstream SkipFilterPlugins). */
  skipFilterPlugins = new Set<string>();
  /** Plugins that returned Skip from PreScore; their Score is not called. */
  skipScorePlugins = new Set<string>();
  /**
   * The Filter plugins the framework runs per node for this attempt (not skipped, not passing
   * everywhere); computed on first use. Pod-only facts, so clones share it.
   */
  filterPluginsToRun?: readonly unknown[];

  read<T extends StateData>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  write(key: string, value: StateData): void {
    this.data.set(key, value);
  }

  delete(key: string): void {
    this.data.delete(key);
  }

  clone(): CycleState {
    const copy = new CycleState();
    for (const [k, v] of this.data) copy.data.set(k, v.clone());
    copy.skipFilterPlugins = new Set(this.skipFilterPlugins);
    copy.skipScorePlugins = new Set(this.skipScorePlugins);
    copy.filterPluginsToRun = this.filterPluginsToRun;
    return copy;
  }
}

/** StateData for values that are never mutated after PreFilter/PreScore: cloning can share them. */
export class ImmutableState<T> implements StateData {
  constructor(readonly value: T) {}
  clone(): StateData {
    return this;
  }
}
