import { PLUGIN_REGISTRY } from './registry';

/**
 * Upstream's defaults_test.go rows for the five deschedule plugins (descheduler v0.36.0): none of
 * them defaults anything but false booleans, so args come back as given. Upstream defaults and
 * validates separately; here one schema does both, so the three "empty" rows whose args upstream's
 * validation then refuses (node affinity, restarts, pod lifetime) are checked as refused.
 */
const rows: { plugin: string; name: string; in: Record<string, unknown>; want?: Record<string, unknown> }[] =
  [
    { plugin: 'RemovePodsViolatingNodeAffinity', name: 'RemovePodsViolatingNodeAffinityArgs empty', in: {} },
    {
      plugin: 'RemovePodsViolatingNodeAffinity',
      name: 'RemovePodsViolatingNodeAffinityArgs with value',
      in: {
        namespaces: {},
        labelSelector: {},
        nodeAffinityType: ['requiredDuringSchedulingIgnoredDuringExecution'],
      },
      want: {
        namespaces: {},
        labelSelector: {},
        nodeAffinityType: ['requiredDuringSchedulingIgnoredDuringExecution'],
      },
    },
    {
      plugin: 'RemovePodsViolatingNodeTaints',
      name: 'RemovePodsViolatingNodeTaintsArgs empty',
      in: {},
      want: { includePreferNoSchedule: false },
    },
    {
      plugin: 'RemovePodsViolatingNodeTaints',
      name: 'RemovePodsViolatingNodeTaintsArgs with value (upstream sets both taint lists, which its validation refuses; one list here)',
      in: {
        namespaces: {},
        labelSelector: {},
        includePreferNoSchedule: false,
        excludedTaints: ['ExcludedTaints'],
      },
      want: {
        namespaces: {},
        labelSelector: {},
        includePreferNoSchedule: false,
        excludedTaints: ['ExcludedTaints'],
      },
    },
    {
      plugin: 'RemovePodsViolatingInterPodAntiAffinity',
      name: 'RemovePodsViolatingInterPodAntiAffinityArgs empty',
      in: {},
      want: {},
    },
    {
      plugin: 'RemovePodsViolatingInterPodAntiAffinity',
      name: 'RemovePodsViolatingInterPodAntiAffinityArgs with value',
      in: { namespaces: {}, labelSelector: {} },
      want: { namespaces: {}, labelSelector: {} },
    },
    { plugin: 'RemovePodsHavingTooManyRestarts', name: 'RemovePodsHavingTooManyRestartsArgs empty', in: {} },
    {
      plugin: 'RemovePodsHavingTooManyRestarts',
      name: 'RemovePodsHavingTooManyRestartsArgs with value',
      in: {
        namespaces: {},
        labelSelector: {},
        podRestartThreshold: 10,
        includingInitContainers: true,
        states: ['Running'],
      },
      want: {
        namespaces: {},
        labelSelector: {},
        podRestartThreshold: 10,
        includingInitContainers: true,
        states: ['Running'],
      },
    },
    { plugin: 'PodLifeTime', name: 'PodLifeTimeArgs empty', in: {} },
    {
      plugin: 'PodLifeTime',
      name: 'PodLifeTimeArgs with value',
      in: {
        namespaces: {},
        labelSelector: { matchLabels: { foo: 'bar' } },
        maxPodLifeTimeSeconds: 600,
        states: ['Pending'],
      },
      want: {
        namespaces: {},
        labelSelector: { matchLabels: { foo: 'bar' } },
        maxPodLifeTimeSeconds: 600,
        states: ['Pending'],
        includingInitContainers: false,
        includingEphemeralContainers: false,
      },
    },
  ];

describe('plugin args defaults: upstream defaults_test.go', () => {
  it.each(rows.map((row) => [`${row.plugin}: ${row.name}`, row] as const))('%s', (_d, row) => {
    const result = PLUGIN_REGISTRY[row.plugin].argsSchema.safeParse(row.in);
    if (row.want === undefined) expect(result.success).toBe(false);
    else expect(result).toEqual({ success: true, data: row.want });
  });
});
