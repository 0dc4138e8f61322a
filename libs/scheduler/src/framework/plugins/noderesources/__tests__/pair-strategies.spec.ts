// The scoring loop scores cpu and memory through each strategy's two-resource form
// (strategies.ts). Property: every form gives exactly the number its strategy gives for the same
// two resources through the general path (scratch arrays, count 2), for amounts from millicores
// to terabytes of memory, over-committed nodes included.
import fc from 'fast-check';
import {
  PAIR_BALANCE_IMPROVEMENT,
  PAIR_BALANCED,
  PAIR_LEAST_ALLOCATED,
  PAIR_MOST_ALLOCATED,
  PAIR_STRATEGIES,
  allocatedPair,
  balanceImprovementPair,
  balanceImprovementScorer,
  balanceScoreOfPair,
  balancedResourceScorer,
  leastAllocatedScorer,
  mostAllocatedScorer,
} from '../strategies';

const amount = fc.oneof(
  fc.integer({ min: 0, max: 64_000 }), // millicores
  fc.integer({ min: 0, max: 2 ** 42 }), // bytes, past V8's small integers
);
const capacity = fc.oneof(fc.integer({ min: 1, max: 64_000 }), fc.integer({ min: 1, max: 2 ** 42 }));

const pairCase = fc.record({
  used0: amount,
  used1: amount,
  pod0: amount,
  pod1: amount,
  alloc0: capacity,
  alloc1: capacity,
  w0: fc.integer({ min: 0, max: 100 }),
  w1: fc.integer({ min: 0, max: 100 }),
});

describe('two-resource forms of the resource strategies', () => {
  it('are registered for the four strategies that have one', () => {
    expect([...PAIR_STRATEGIES.entries()]).toEqual([
      [leastAllocatedScorer, PAIR_LEAST_ALLOCATED],
      [mostAllocatedScorer, PAIR_MOST_ALLOCATED],
      [balancedResourceScorer, PAIR_BALANCED],
      [balanceImprovementScorer, PAIR_BALANCE_IMPROVEMENT],
    ]);
  });

  it('score as the general path does', () => {
    fc.assert(
      fc.property(pairCase, ({ used0, used1, pod0, pod1, alloc0, alloc1, w0, w1 }) => {
        const req0 = used0 + pod0;
        const req1 = used1 + pod1;
        const requested = [req0, req1];
        const allocatable = [alloc0, alloc1];
        const weights = [w0, w1];
        const allocated = [used0, used1];
        expect(allocatedPair(false, req0, alloc0, w0, req1, alloc1, w1)).toBe(
          leastAllocatedScorer(requested, allocatable, weights, 2, allocated),
        );
        expect(allocatedPair(true, req0, alloc0, w0, req1, alloc1, w1)).toBe(
          mostAllocatedScorer(requested, allocatable, weights, 2, allocated),
        );
        expect(balanceScoreOfPair(req0, alloc0, req1, alloc1)).toBe(
          balancedResourceScorer(requested, allocatable, weights, 2, allocated),
        );
        expect(balanceImprovementPair(req0, alloc0, req1, alloc1, used0, used1)).toBe(
          balanceImprovementScorer(requested, allocatable, weights, 2, allocated),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('tell over-committed and empty nodes apart as the strategies do', () => {
    // Least allocated: an over-committed resource scores 0; most allocated caps it at full.
    expect(allocatedPair(false, 3000, 2000, 1, 0, 1000, 1)).toBe(50);
    expect(allocatedPair(true, 3000, 2000, 1, 0, 1000, 1)).toBe(50);
    // Equal fractions are perfectly balanced; half against nothing is 75.
    expect(balanceScoreOfPair(500, 1000, 2 ** 31, 2 ** 32)).toBe(100);
    expect(balanceScoreOfPair(500, 1000, 0, 2 ** 32)).toBe(75);
  });
});
