import type { PodSchedulingResult } from '@schedlab/scheduler';
import { STORED_NODE_VERDICTS_MAX, storedExplanation } from './stored-explanation';

const verdicts = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`node-${i}`, ['Insufficient cpu']]));
const plugins = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`node-${i}`, 'NodeResourcesFit']));

function result(fields: Record<string, unknown>): PodSchedulingResult {
  return fields as unknown as PodSchedulingResult;
}

describe('storedExplanation', () => {
  it('keeps the fields in their order and leaves out empty per-node fields', () => {
    const stored = storedExplanation(
      result({
        pod: 'default/a',
        node: 'node-1',
        feasible: [],
        pluginScores: {},
        scores: { 'node-1': 10 },
        maxScoreNodes: ['node-1'],
        filterReasons: {},
        message: undefined,
        attempts: 1,
      }),
    );
    expect(Object.keys(stored)).toEqual(['pod', 'node', 'scores', 'maxScoreNodes', 'message', 'attempts']);
    expect(JSON.stringify(stored)).toBe(
      '{"pod":"default/a","node":"node-1","scores":{"node-1":10},"maxScoreNodes":["node-1"],"attempts":1}',
    );
  });

  it('keeps every verdict up to the limit and counts them past it, in the first attempt too', () => {
    const few = {
      filterReasons: verdicts(STORED_NODE_VERDICTS_MAX),
      filterPlugin: plugins(STORED_NODE_VERDICTS_MAX),
    };
    const many = {
      filterReasons: verdicts(STORED_NODE_VERDICTS_MAX + 1),
      filterPlugin: plugins(3),
      filterCode: {},
    };
    const stored = storedExplanation(
      result({
        pod: 'default/b',
        node: null,
        ...many,
        message: '0/101 nodes are available',
        firstAttempt: { ...few },
      }),
    );
    expect(stored).toEqual({
      pod: 'default/b',
      node: null,
      message: '0/101 nodes are available',
      firstAttempt: few,
      nodeVerdictsOmitted: STORED_NODE_VERDICTS_MAX + 1,
    });
    expect(Object.keys(stored)).toEqual(['pod', 'node', 'message', 'firstAttempt', 'nodeVerdictsOmitted']);
  });
});
