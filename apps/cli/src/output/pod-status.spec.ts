import { dominantReason, podReason, podStatus } from './pod-status';
import type { Placement } from './placements';

const placement = (over: Partial<Placement>): Placement => ({
  pod: 'ns/p',
  outcome: 'unschedulable',
  node: null,
  zone: null,
  priority: 0,
  ...over,
});

describe('dominantReason', () => {
  it.each([
    [
      '0/9 nodes are available: 1 node(s) were unschedulable, 2 node(s) had untolerated taint(s), 6 Insufficient cpu. preemption: 0/9 nodes are available: 9 Preemption is not helpful for scheduling.',
      'Insufficient cpu',
    ],
    // A tie: the first listed (upstream sorts the "count reason" strings).
    [
      "0/9 nodes are available: 3 Insufficient cpu, 3 node(s) didn't match pod anti-affinity rules.",
      'Insufficient cpu',
    ],
    // A resource name with a dot, and 1.29's PostFilter message without a closing period.
    [
      '0/3 nodes are available: 3 Insufficient example.com/foo. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod',
      'Insufficient example.com/foo',
    ],
    // PreFilter rejected the pod: no per-node counts, its message is the reason.
    [
      '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      'pod has unbound immediate PersistentVolumeClaims',
    ],
    ['0/0 nodes are available:', 'Unschedulable'],
    ['persistentvolumeclaim "x" not found', 'persistentvolumeclaim "x" not found'],
  ])('%s → %s', (message, reason) => {
    expect(dominantReason(message)).toBe(reason);
  });
});

describe('podStatus and podReason', () => {
  it('say what kubectl would for each outcome', () => {
    expect([
      podStatus(placement({ outcome: 'scheduled' })),
      podReason(placement({ outcome: 'scheduled' })),
    ]).toEqual(['Scheduled', '<none>']);
    const preemptor = placement({ outcome: 'scheduled', node: 'n', victims: ['ns/v'], message: '0/1 …' });
    expect(podReason(preemptor)).toBe('Preempting');
    expect(podStatus(placement({ outcome: 'gated' }))).toBe('SchedulingGated');
    expect(podReason(placement({ outcome: 'gated', message: 'waiting for scheduling gates: [g]' }))).toBe(
      'waiting for scheduling gates: [g]',
    );
    expect(podStatus(placement({ outcome: 'no-profile' }))).toBe('Pending');
    expect(podReason(placement({ outcome: 'no-profile' }))).toBe('NoSchedulerProfile');
    const refused = placement({
      outcome: 'rejected',
      message: 'pods "a" is forbidden: exceeded quota: compute, requested: requests.cpu=1',
    });
    expect([podStatus(refused), podReason(refused)]).toEqual(['Rejected', 'exceeded quota: compute']);
    expect(podReason(placement({ message: undefined }))).toBe('Unschedulable');
  });
});
