import { parsePolicy } from './policy';
import { PolicyError } from './schema';

const base = (profiles: unknown[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'descheduler/v1alpha2',
  kind: 'DeschedulerPolicy',
  profiles,
  ...extra,
});

const errorOf = (input: unknown): PolicyError => {
  try {
    parsePolicy(input);
  } catch (e) {
    if (e instanceof PolicyError) return e;
    throw e;
  }
  throw new Error('expected a PolicyError');
};

describe('parsePolicy: DeschedulerPolicy descheduler/v1alpha2', () => {
  it('reads a policy as users write it, adding DefaultEvictor with its defaults', () => {
    const policy = parsePolicy(
      base(
        [
          {
            name: 'default',
            pluginConfig: [
              { name: 'PodLifeTime', args: { maxPodLifeTimeSeconds: 86400 } },
              { name: 'RemovePodsViolatingNodeTaints' },
            ],
            plugins: { deschedule: { enabled: ['PodLifeTime', 'RemovePodsViolatingNodeTaints'] } },
          },
        ],
        { maxNoOfPodsToEvictPerNode: 2, nodeSelector: 'pool=general' },
      ),
    );
    expect(policy.maxNoOfPodsToEvictPerNode).toBe(2);
    expect(policy.nodeSelector).toBe('pool=general');
    const [profile] = policy.profiles;
    expect(profile.plugins.deschedule.enabled).toEqual(['PodLifeTime', 'RemovePodsViolatingNodeTaints']);
    expect(profile.plugins.filter.enabled).toEqual(['DefaultEvictor']);
    expect(profile.plugins.preEvictionFilter.enabled).toEqual(['DefaultEvictor']);
    expect(profile.pluginConfig.map((c) => c.name)).toEqual([
      'DefaultEvictor',
      'PodLifeTime',
      'RemovePodsViolatingNodeTaints',
    ]);
    expect(profile.pluginConfig[0].args).toMatchObject({
      nodeFit: false,
      minReplicas: 0,
      evictLocalStoragePods: false,
    });
    expect(profile.pluginConfig[2].args).toEqual({ includePreferNoSchedule: false });
    // The parsed policy is plain data and parses to itself.
    expect(parsePolicy(JSON.parse(JSON.stringify(policy)))).toEqual(policy);
  });

  it('matches extension point keys without regard to case, as upstream decodes them', () => {
    const policy = parsePolicy(
      base([
        {
          name: 'p',
          pluginConfig: [{ name: 'DefaultEvictor', args: { nodeFit: true } }],
          plugins: { preevictionfilter: { enabled: ['DefaultEvictor'] }, presort: { enabled: [] } },
        },
      ]),
    );
    expect(policy.profiles[0].plugins.preEvictionFilter.enabled).toEqual(['DefaultEvictor']);
    expect(policy.profiles[0].pluginConfig[0].args).toMatchObject({ nodeFit: true });
  });

  it.each([
    [
      'a plugin arg out of range',
      base([
        {
          name: 'default',
          pluginConfig: [{ name: 'PodLifeTime', args: { maxPodLifeTimeSeconds: -5 } }],
          plugins: {},
        },
      ]),
      'profiles[0] "default": pluginConfig "PodLifeTime": args.maxPodLifeTimeSeconds: must be a non-negative integer',
    ],
    [
      'a plugin arg of the wrong type',
      base([
        {
          name: 'default',
          pluginConfig: [{ name: 'PodLifeTime', args: { maxPodLifeTimeSeconds: '1h' } }],
          plugins: {},
        },
      ]),
      'profiles[0] "default": pluginConfig "PodLifeTime": args.maxPodLifeTimeSeconds: must be a non-negative integer',
    ],
    [
      'an unknown arg',
      base([
        {
          name: 'p1',
          pluginConfig: [{ name: 'RemovePodsViolatingNodeTaints', args: { includeNoExecute: true } }],
        },
      ]),
      'profiles[0] "p1": pluginConfig "RemovePodsViolatingNodeTaints": args: Unrecognized key: "includeNoExecute"',
    ],
    [
      'include and exclude namespaces together',
      base([
        {
          name: 'p1',
          pluginConfig: [
            {
              name: 'RemovePodsViolatingInterPodAntiAffinity',
              args: { namespaces: { include: ['a'], exclude: ['b'] } },
            },
          ],
        },
      ]),
      'profiles[0] "p1": pluginConfig "RemovePodsViolatingInterPodAntiAffinity": args.namespaces: only one of Include/Exclude namespaces can be set',
    ],
    [
      'PodLifeTime without any criterion',
      base([{ name: 'p1', pluginConfig: [{ name: 'PodLifeTime', args: {} }] }]),
      'profiles[0] "p1": pluginConfig "PodLifeTime": args: at least one filtering criterion must be specified (maxPodLifeTimeSeconds, states, conditions, or exitCodes)',
    ],
    [
      'RemovePodsViolatingNodeAffinity without nodeAffinityType',
      base([{ name: 'p1', pluginConfig: [{ name: 'RemovePodsViolatingNodeAffinity', args: {} }] }]),
      'profiles[0] "p1": pluginConfig "RemovePodsViolatingNodeAffinity": args.nodeAffinityType: nodeAffinityType needs to be set',
    ],
    [
      'RemovePodsHavingTooManyRestarts without a threshold',
      base([
        {
          name: 'p1',
          pluginConfig: [{ name: 'RemovePodsHavingTooManyRestarts', args: { states: ['Running'] } }],
        },
      ]),
      'profiles[0] "p1": pluginConfig "RemovePodsHavingTooManyRestarts": args.podRestartThreshold: invalid PodsHavingTooManyRestarts threshold',
    ],
    [
      'a state RemovePodsHavingTooManyRestarts does not know',
      base([
        {
          name: 'p1',
          pluginConfig: [
            {
              name: 'RemovePodsHavingTooManyRestarts',
              args: { podRestartThreshold: 3, states: ['Pending'] },
            },
          ],
        },
      ]),
      'profiles[0] "p1": pluginConfig "RemovePodsHavingTooManyRestarts": args.states: states must be one of [CrashLoopBackOff Running]',
    ],
    [
      'both included and excluded taints',
      base([
        {
          name: 'p1',
          pluginConfig: [
            { name: 'RemovePodsViolatingNodeTaints', args: { includedTaints: ['a'], excludedTaints: ['b'] } },
          ],
        },
      ]),
      'profiles[0] "p1": pluginConfig "RemovePodsViolatingNodeTaints": args: either includedTaints or excludedTaints can be set, but not both',
    ],
    [
      'an invalid label selector',
      base([
        {
          name: 'p1',
          pluginConfig: [
            {
              name: 'PodLifeTime',
              args: {
                states: ['Running'],
                labelSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] },
              },
            },
          ],
        },
      ]),
      'profiles[0] "p1": pluginConfig "PodLifeTime": args.labelSelector: invalid label selector: matchExpressions[0].operator: "Near" is not a valid label selector operator',
    ],
    [
      'a priority threshold above system-critical (upstream policyconfig_test)',
      base([
        {
          name: 'p1',
          pluginConfig: [{ name: 'DefaultEvictor', args: { priorityThreshold: { value: 2000000001 } } }],
        },
      ]),
      'profiles[0] "p1": pluginConfig "DefaultEvictor": args.priorityThreshold.value: priority threshold can\'t be greater than 2000000000',
    ],
    [
      'a pluginConfig for a plugin nobody registered',
      base([{ name: 'p1', pluginConfig: [{ name: 'RemoveFailedPods', args: {} }] }]),
      'profiles[0] "p1": pluginConfig "RemoveFailedPods": plugin RemoveFailedPods in pluginConfig not registered',
    ],
    [
      'a deschedule plugin enabled at the balance point',
      base([
        {
          name: 'p1',
          pluginConfig: [{ name: 'PodLifeTime', args: { states: ['Running'] } }],
          plugins: { balance: { enabled: ['PodLifeTime'] } },
        },
      ]),
      'profiles[0] "p1": plugins.balance.enabled[0] "PodLifeTime": profile "p1" configures balance extension point of non-existing plugins: [PodLifeTime]',
    ],
    [
      'an enabled plugin without its pluginConfig',
      base([
        {
          name: 'p1',
          pluginConfig: [],
          plugins: { deschedule: { enabled: ['RemovePodsViolatingInterPodAntiAffinity'] } },
        },
      ]),
      'profiles[0] "p1": plugins.deschedule.enabled[0] "RemovePodsViolatingInterPodAntiAffinity": unable to find "RemovePodsViolatingInterPodAntiAffinity" plugin config: add a pluginConfig entry named RemovePodsViolatingInterPodAntiAffinity',
    ],
    [
      'an unknown extension point',
      base([{ name: 'p1', plugins: { evict: { enabled: [] } } }]),
      'profiles[0] "p1": plugins.evict: unknown extension point (one of deschedule, balance, filter, preEvictionFilter)',
    ],
    ['a profile without a name', base([{ pluginConfig: [] }]), 'profiles[0] "": name: must be a string'],
    [
      'a negative limit',
      base([], { maxNoOfPodsToEvictTotal: -1 }),
      'maxNoOfPodsToEvictTotal: must be a non-negative integer',
    ],
    [
      'an unparsable nodeSelector',
      base([], { nodeSelector: 'a b c' }),
      'nodeSelector: cannot parse selector requirement "a b c"',
    ],
    [
      'the wrong apiVersion',
      { ...base([]), apiVersion: 'descheduler/v1alpha1' },
      'apiVersion: must be "descheduler/v1alpha2"',
    ],
    ['an unknown top-level field', base([], { strategies: {} }), 'Unrecognized key: "strategies"'],
    [
      'two providers of one source (upstream policyconfig_test)',
      base([], { metricsProviders: [{ source: 'KubernetesMetrics' }, { source: 'KubernetesMetrics' }] }),
      'metricsProviders[1]: metric provider "KubernetesMetrics" is already configured, each source can be configured only once',
    ],
    [
      'a metrics provider beside the enabled collector (upstream policyconfig_test)',
      base([], { metricsCollector: { enabled: true }, metricsProviders: [{ source: 'KubernetesMetrics' }] }),
      'metricsProviders[0]: it is not allowed to combine metrics provider when metrics collector is enabled',
    ],
    [
      'Prometheus without a URL (upstream policyconfig_test)',
      base([], { metricsProviders: [{ source: 'Prometheus', prometheus: {} }] }),
      'metricsProviders[0].prometheus.url: prometheus URL is required when prometheus is enabled',
    ],
    [
      'a Prometheus auth token without a secret (upstream policyconfig_test)',
      base([], {
        metricsProviders: [{ source: 'Prometheus', prometheus: { url: 'http://p', authToken: {} } }],
      }),
      'metricsProviders[0].prometheus.authToken: prometheus authToken secret is expected to be set when authToken field is',
    ],
    [
      'a Prometheus secret reference without a namespace (upstream policyconfig_test)',
      base([], {
        metricsProviders: [
          {
            source: 'Prometheus',
            prometheus: { url: 'http://p', authToken: { secretReference: { name: 'n' } } },
          },
        ],
      }),
      'metricsProviders[0].prometheus.authToken.secretReference: prometheus authToken secret reference does not set both namespace and name',
    ],
  ])('names profile, plugin and field for %s', (_what, input, message) => {
    expect(errorOf(input).message).toBe(message);
  });

  it('carries profile, plugin and field on the error for callers', () => {
    const e = errorOf(
      base([
        { name: 'default', pluginConfig: [{ name: 'PodLifeTime', args: { maxPodLifeTimeSeconds: -1 } }] },
      ]),
    );
    expect(e).toMatchObject({
      path: 'profiles[0].pluginConfig[0].args.maxPodLifeTimeSeconds',
      profile: 'default',
      plugin: 'pluginConfig "PodLifeTime"',
      field: 'args.maxPodLifeTimeSeconds',
    });
  });
});
