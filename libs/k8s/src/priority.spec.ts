import type { Pod, PriorityClass } from './types';
import { admitPriority, AdmissionError, podPriority, resolvePodPriority } from './priority';

const pc = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  metadata: { name },
  value,
  ...extra,
});
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: [], ...spec } as Pod['spec'],
});

// Cases modelled on plugin/pkg/admission/priority/admission_test.go TestPodAdmission.
describe('resolvePodPriority', () => {
  const classes = [
    pc('high', 1000),
    pc('low', 10, { preemptionPolicy: 'Never' }),
    pc('default-a', 100, { globalDefault: true }),
  ];
  it.each([
    [
      'named class',
      pod({ priorityClassName: 'high' }),
      classes,
      { priority: 1000, preemptionPolicy: 'PreemptLowerPriority', className: 'high' },
    ],
    [
      'class preemptionPolicy',
      pod({ priorityClassName: 'low' }),
      classes,
      { priority: 10, preemptionPolicy: 'Never', className: 'low' },
    ],
    [
      'global default',
      pod(),
      classes,
      { priority: 100, preemptionPolicy: 'PreemptLowerPriority', className: 'default-a' },
    ],
    [
      'several global defaults: lowest value wins',
      pod(),
      [
        ...classes,
        pc('default-b', 50, { globalDefault: true }),
        pc('default-c', 500, { globalDefault: true }),
      ],
      { priority: 50, preemptionPolicy: 'PreemptLowerPriority', className: 'default-b' },
    ],
    ['no default', pod(), [pc('high', 1000)], { priority: 0, preemptionPolicy: 'PreemptLowerPriority' }],
    [
      'system-cluster-critical built in',
      pod({ priorityClassName: 'system-cluster-critical' }),
      [],
      {
        priority: 2000000000,
        preemptionPolicy: 'PreemptLowerPriority',
        className: 'system-cluster-critical',
      },
    ],
    [
      'system-node-critical built in',
      pod({ priorityClassName: 'system-node-critical' }),
      [],
      { priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority', className: 'system-node-critical' },
    ],
  ] as const)('%s', (_n, p, cls, want) => {
    expect(resolvePodPriority(p, [...cls])).toEqual(want);
  });

  it('missing class is rejected', () => {
    expect(() => resolvePodPriority(pod({ priorityClassName: 'nope' }), classes)).toThrow(
      new AdmissionError('no PriorityClass with name nope was found'),
    );
  });

  it.each(['constructor', 'tostring', '__proto__'])(
    'a class named %s exists only if the dump has it',
    (name) => {
      expect(() => resolvePodPriority(pod({ priorityClassName: name }), classes)).toThrow(
        new AdmissionError(`no PriorityClass with name ${name} was found`),
      );
    },
  );
});

describe('admitPriority', () => {
  it('sets priority fields on a copy', () => {
    const input = pod();
    const out = admitPriority(input, [pc('d', 7, { globalDefault: true, preemptionPolicy: 'Never' })]);
    expect(out.spec).toMatchObject({ priority: 7, preemptionPolicy: 'Never', priorityClassName: 'd' });
    expect(input.spec?.priority).toBeUndefined();
  });
  it('no default class leaves priorityClassName empty and priority 0', () => {
    const out = admitPriority(pod(), []);
    expect(out.spec?.priority).toBe(0);
    expect(out.spec?.priorityClassName).toBeUndefined();
    expect(out.spec?.preemptionPolicy).toBe('PreemptLowerPriority');
  });
  it('rejects a conflicting explicit priority', () => {
    expect(() => admitPriority(pod({ priorityClassName: 'h', priority: 5 }), [pc('h', 10)])).toThrow(
      AdmissionError,
    );
    expect(admitPriority(pod({ priorityClassName: 'h', priority: 10 }), [pc('h', 10)]).spec?.priority).toBe(
      10,
    );
  });
  it('rejects a conflicting explicit preemptionPolicy', () => {
    expect(() =>
      admitPriority(pod({ priorityClassName: 'h', preemptionPolicy: 'Never' }), [pc('h', 10)]),
    ).toThrow(/PreemptionPolicy/);
  });
});

describe('podPriority', () => {
  it('defaults to 0', () => {
    expect(podPriority(pod())).toBe(0);
    expect(podPriority(pod({ priority: -5 }))).toBe(-5);
  });
});
