import { CycleState, ImmutableState } from '../../../cycle-state';
import { StateSlot } from '../state-slot';

describe('StateSlot', () => {
  const slot = () => new StateSlot<ImmutableState<number>>('PreFilterExample');

  it('reads what was last written to each cycle, whichever cycle was used last', () => {
    const s = slot();
    const a = new CycleState();
    const b = new CycleState();
    s.write(a, new ImmutableState(1));
    s.write(b, new ImmutableState(2));
    expect(s.read(a)?.value).toBe(1);
    expect(s.read(b)?.value).toBe(2);
    s.write(b, new ImmutableState(3));
    expect(s.read(b)?.value).toBe(3);
    expect(a.read<ImmutableState<number>>('PreFilterExample')?.value).toBe(1);
  });

  it('finds a value written after a read that found none, and a clone holds its own copy', () => {
    const s = slot();
    const c = new CycleState();
    expect(s.read(c)).toBeUndefined();
    s.write(c, new ImmutableState(4));
    expect(s.read(c)?.value).toBe(4);
    const copy = c.clone();
    expect(s.read(copy)?.value).toBe(4);
    s.write(copy, new ImmutableState(5));
    expect(s.read(c)?.value).toBe(4);
    expect(s.read(copy)?.value).toBe(5);
  });
});
