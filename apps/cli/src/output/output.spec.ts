import { progressBar } from './progress';
import { formatTable } from './table';

describe('formatTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      formatTable(
        ['A', 'BB', 'C'],
        [
          ['xxx', 'y', 'long text'],
          ['z', '', ''],
        ],
      ),
    ).toEqual(['A    BB  C', 'xxx  y   long text', 'z']);
  });
});

describe('progressBar', () => {
  it('draws nothing when stderr is not a terminal', () => {
    expect(progressBar({ isTTY: false, write: () => true })).toBeUndefined();
  });

  it('redraws on a terminal once per percent (0 to 100) for long runs and clears the line at the end', () => {
    const writes: string[] = [];
    const report = progressBar({ isTTY: true, write: (t: string) => writes.push(t) })!;
    for (let done = 1; done <= 1000; done++) report(done, 1000);
    const bars = writes.filter((w) => w.includes('%'));
    expect(bars).toHaveLength(101);
    expect(bars[100]).toContain('100% 1000/1000 pods');
    expect(writes[writes.length - 1]).toMatch(/^\r\s+\r$/);
  });

  it('stays silent for runs too short to need it', () => {
    const writes: string[] = [];
    const report = progressBar({ isTTY: true, write: (t: string) => writes.push(t) })!;
    for (let done = 1; done <= 10; done++) report(done, 10);
    expect(writes).toEqual([]);
  });
});
