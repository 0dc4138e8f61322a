import type { CycleState, StateData } from '../../cycle-state';

/**
 * A plugin's own CycleState key, read through a memo of the last cycle it was read or written in.
 * Filter reads its PreFilter state once per node, and at 100 % of nodes those map lookups add up;
 * the memo answers them with one identity check. Sound because the key is the plugin's own:
 * every write goes through `write`, and a cycle's clone is another CycleState.
 */
export class StateSlot<T extends StateData> {
  private cycle?: CycleState;
  private value?: T;

  constructor(readonly key: string) {}

  write(state: CycleState, value: T): void {
    state.write(this.key, value);
    this.cycle = state;
    this.value = value;
  }

  read(state: CycleState): T | undefined {
    if (state === this.cycle) return this.value;
    const value = state.read<T>(this.key);
    // Only a found value is kept: a later write to this cycle then goes through `write`.
    if (value !== undefined) {
      this.cycle = state;
      this.value = value;
    }
    return value;
  }
}
