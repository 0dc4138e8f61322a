import {
  checkMoved,
  checkPlacements,
  checkSchedulable,
  checkUnschedulable,
  selectPods,
  type PodFact,
  type RunFacts,
} from './evaluate';

const FIT_ERROR =
  '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';

const pod = (key: string, over: Partial<PodFact> = {}): PodFact => ({
  pod: key,
  namespace: key.split('/')[0],
  labels: {},
  state: 'scheduled',
  node: 'n1',
  ...over,
});

const facts: RunFacts = {
  pods: [
    pod('a/web-1', { labels: { app: 'web' }, state: 'running' }),
    pod('a/web-2', { labels: { app: 'web' }, node: 'n2' }),
    pod('a/db-1', { labels: { app: 'db' }, state: 'unschedulable', node: null, message: FIT_ERROR }),
    pod('a/web-3', {
      labels: undefined,
      state: 'rejected',
      node: null,
      message: 'pods "web-3" is forbidden',
    }),
  ],
  nodeLabels: new Map([
    ['n1', { zone: 'z1' }],
    ['n2', { zone: 'z2' }],
  ]),
};

describe('check evaluation', () => {
  it('selects by namespace, kubectl label selector and names; a refused pod has no labels to match', () => {
    const keys = (s: Parameters<typeof selectPods>[1]) => selectPods(facts, s).map((p) => p.pod);
    expect(keys({ labels: 'app=web' })).toEqual(['a/web-1', 'a/web-2']);
    expect(keys({ namespace: 'a', labels: 'app!=web' })).toEqual(['a/db-1']);
    expect(keys({ namespace: 'a' })).toHaveLength(4);
    expect(keys({ pods: ['a/web-3'] })).toEqual(['a/web-3']);
    expect(keys({ namespace: 'b' })).toEqual([]);
  });

  it('schedulable: fails on pending and refused pods, and on a selector that matches nothing', () => {
    expect(checkSchedulable(facts, { labels: 'app=web' })).toMatchObject({
      passed: true,
      summary: '2 pods: 1 scheduled by the run, 1 running already',
    });
    const all = checkSchedulable(facts, { namespace: 'a' });
    expect(all.passed).toBe(false);
    expect(all.failures).toEqual([
      { pod: 'a/db-1', expected: 'a node', actual: 'pending: Insufficient cpu', message: FIT_ERROR },
      {
        pod: 'a/web-3',
        expected: 'a node',
        actual: 'rejected by admission: pods "web-3" is forbidden',
      },
    ]);
    expect(checkSchedulable(facts, { namespace: 'typo' })).toMatchObject({
      passed: false,
      summary: 'no pod matches the selector',
    });
  });

  it('unschedulable: a scheduled pod fails it, and so does a pending pod failing for another reason', () => {
    expect(checkUnschedulable(facts, { pods: ['a/db-1'] }, 'Insufficient cpu').passed).toBe(true);
    expect(checkUnschedulable(facts, { pods: ['a/db-1'] }, 'Insufficient memory').failures).toEqual([
      {
        pod: 'a/db-1',
        expected: 'no node, for "Insufficient memory"',
        actual: 'pending: Insufficient cpu',
        message: FIT_ERROR,
      },
    ]);
    expect(checkUnschedulable(facts, { labels: 'app' }, undefined).failures.map((f) => f.pod)).toEqual([
      'a/web-1',
      'a/web-2',
    ]);
  });

  it('placements: by node and by node labels, naming the labels the pod got', () => {
    expect(
      checkPlacements(facts, [{ pod: 'a/web-2', node: 'n2', nodeSelector: { zone: 'z2' } }]).passed,
    ).toBe(true);
    expect(
      checkPlacements(facts, [{ selector: { labels: 'app=web' }, nodeSelector: { zone: 'z1' } }]),
    ).toEqual({
      passed: false,
      summary: '1 pod not where expected',
      failures: [{ pod: 'a/web-2', expected: 'a node with zone=z1', actual: 'scheduled on n2 (zone=z2)' }],
    });
    expect(checkPlacements(facts, [{ pod: 'a/db-1', node: 'n1' }]).failures[0]).toMatchObject({
      actual: 'pending: Insufficient cpu',
      message: FIT_ERROR,
    });
  });

  it('maxMovedVsBaseline: counts pods the baseline placed that moved or lost their node', () => {
    const baseline = new Map<string, string | null>([
      ['a/web-1', 'n1'],
      ['a/web-2', 'n1'], // now on n2
      ['a/db-1', 'n2'], // now pending
      ['a/gone', 'n1'], // not in this run
      ['a/new', null], // the baseline did not place it
    ]);
    const within = checkMoved(facts, baseline, 2, 'main');
    expect(within).toEqual({
      passed: true,
      summary: '2 pods of 3 moved vs main (at most 2); 1 baseline pod not in this run',
      failures: [],
    });
    const over = checkMoved(facts, baseline, 1, 'main');
    expect(over.passed).toBe(false);
    expect(over.failures.map((f) => [f.pod, f.actual])).toEqual([
      ['a/web-2', 'scheduled on n2'],
      ['a/db-1', 'pending: Insufficient cpu'],
    ]);
  });
});
