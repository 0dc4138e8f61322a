import { FeatureSet } from '../../../features';
import { ConfigValidationError } from '../errors';
import { defaultConfiguration, loadSchedulerConfiguration } from '../load';
import { mergePluginSet } from '../merge';
import type { PluginDescriptor } from '../../../framework/runtime/registry';

const TYPE = { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration' };
const v126 = new FeatureSet('1.26');
const emptyRegistry = new Map<string, PluginDescriptor>();

function load(cfg: object, features = v126, registry: Map<string, PluginDescriptor> = emptyRegistry) {
  return loadSchedulerConfiguration({ ...TYPE, ...cfg }, { registry, features });
}

function errorsOf(fn: () => unknown): { field: string; message: string }[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigValidationError) return e.errors;
    throw e;
  }
  throw new Error('expected a ConfigValidationError');
}

const names = (l: { name: string }[]) => l.map((p) => p.name);

describe('mergePluginSet (upstream mergePluginSet cases)', () => {
  const defaults = { enabled: [{ name: 'A' }, { name: 'B', weight: 2 }, { name: 'C' }] };

  it('keeps defaults when nothing is customised', () => {
    expect(names(mergePluginSet(defaults, undefined).enabled)).toEqual(['A', 'B', 'C']);
  });
  it('replaces a re-listed default in place, weight included', () => {
    const m = mergePluginSet(defaults, { enabled: [{ name: 'X' }, { name: 'B', weight: 5 }] });
    expect(m.enabled.map((p) => [p.name, p.weight])).toEqual([
      ['A', undefined],
      ['B', 5],
      ['C', undefined],
      ['X', undefined],
    ]);
  });
  it('drops the default weight when re-listed without one', () => {
    expect(mergePluginSet(defaults, { enabled: [{ name: 'B' }] }).enabled[1]).toEqual({
      name: 'B',
      sourceIndex: 0,
    });
  });
  it('disables named defaults, or all with "*", and appends custom ones', () => {
    expect(names(mergePluginSet(defaults, { disabled: [{ name: 'A' }] }).enabled)).toEqual(['B', 'C']);
    expect(
      names(
        mergePluginSet(defaults, { enabled: [{ name: 'C' }, { name: 'D' }], disabled: [{ name: '*' }] })
          .enabled,
      ),
    ).toEqual(['C', 'D']);
  });
  it('keeps duplicated custom plugins for the framework to reject', () => {
    expect(names(mergePluginSet(defaults, { enabled: [{ name: 'D' }, { name: 'D' }] }).enabled)).toEqual([
      'A',
      'B',
      'C',
      'D',
      'D',
    ]);
  });
});

describe('default profile per version', () => {
  it('1.26 has no SchedulingGates unless PodSchedulingReadiness is on, then it is last', () => {
    expect(
      defaultConfiguration({ registry: emptyRegistry, features: v126 }).profiles[0].plugins.preEnqueue,
    ).toEqual([]);
    const on = defaultConfiguration({
      registry: emptyRegistry,
      features: new FeatureSet('1.26', { PodSchedulingReadiness: true }),
    });
    expect(names(on.profiles[0].plugins.preEnqueue)).toEqual(['SchedulingGates']);
  });
  it('1.27 adds SchedulingGates, PreScore of the resource plugins and PreFilter of VolumeZone', () => {
    const p = defaultConfiguration({ registry: emptyRegistry, features: new FeatureSet('1.27') }).profiles[0]
      .plugins;
    expect(names(p.preEnqueue)).toEqual(['SchedulingGates']);
    expect(names(p.preScore)).toEqual([
      'TaintToleration',
      'NodeAffinity',
      'NodeResourcesFit',
      'PodTopologySpread',
      'InterPodAffinity',
      'NodeResourcesBalancedAllocation',
    ]);
    expect(names(p.preFilter)).toContain('VolumeZone');
  });
  it('1.28 adds PreFilter of the volume limit plugins', () => {
    const p = defaultConfiguration({ registry: emptyRegistry, features: new FeatureSet('1.28') }).profiles[0]
      .plugins;
    expect(names(p.preFilter)).toEqual([
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'EBSLimits',
      'GCEPDLimits',
      'NodeVolumeLimits',
      'AzureDiskLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity',
    ]);
  });
  it('global defaults', () => {
    const c = defaultConfiguration({ registry: emptyRegistry, features: v126 });
    expect(c).toMatchObject({
      parallelism: 16,
      percentageOfNodesToScore: 0,
      podInitialBackoffSeconds: 1,
      podMaxBackoffSeconds: 10,
    });
    expect(c.profiles[0].schedulerName).toBe('default-scheduler');
    expect(c.profiles[0].percentageOfNodesToScore).toBeUndefined();
  });
});

describe('multiPoint expansion and overrides', () => {
  it('explicit score entries come first, in their order; score.disabled removes only from Score', () => {
    const p = load({
      profiles: [
        {
          plugins: {
            score: {
              enabled: [{ name: 'ImageLocality', weight: 7 }],
              disabled: [{ name: 'TaintToleration' }],
            },
          },
        },
      ],
    }).profiles[0].plugins;
    expect(p.score.map((s) => [s.name, s.weight])).toEqual([
      ['ImageLocality', 7],
      ['NodeAffinity', 2],
      ['NodeResourcesFit', 1],
      ['VolumeBinding', 1],
      ['PodTopologySpread', 2],
      ['InterPodAffinity', 2],
      ['NodeResourcesBalancedAllocation', 1],
    ]);
    expect(names(p.filter)).toContain('TaintToleration');
    expect(names(p.preScore)).toContain('TaintToleration');
  });

  it('a multiPoint override without weight falls back to weight 1', () => {
    const p = load({ profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'TaintToleration' }] } } }] })
      .profiles[0].plugins;
    expect(p.score.find((s) => s.name === 'TaintToleration')?.weight).toBe(1);
  });

  it('disabling a plugin in multiPoint removes it everywhere', () => {
    const p = load({ profiles: [{ plugins: { multiPoint: { disabled: [{ name: 'NodeAffinity' }] } } }] })
      .profiles[0].plugins;
    for (const point of ['preFilter', 'filter', 'preScore', 'score'] as const)
      expect(names(p[point])).not.toContain('NodeAffinity');
  });

  it('"*" at one point keeps only the plugins listed there', () => {
    const p = load({
      profiles: [
        {
          plugins: { score: { enabled: [{ name: 'ImageLocality', weight: 3 }], disabled: [{ name: '*' }] } },
        },
      ],
    }).profiles[0].plugins;
    expect(p.score).toEqual([{ name: 'ImageLocality', weight: 3 }]);
  });

  const threeOverrides = {
    profiles: [
      {
        plugins: {
          score: {
            enabled: [
              { name: 'TaintToleration', weight: 4 },
              { name: 'NodeAffinity', weight: 5 },
              { name: 'ImageLocality', weight: 6 },
            ],
          },
        },
      },
    ],
  };

  it('1.26: three overrides register the third twice and move the second after multiPoint (upstream bug)', () => {
    const p = load(threeOverrides).profiles[0].plugins;
    expect(p.score.map((s) => [s.name, s.weight])).toEqual([
      ['TaintToleration', 4],
      ['ImageLocality', 6],
      ['ImageLocality', 6],
      ['NodeResourcesFit', 1],
      ['VolumeBinding', 1],
      ['PodTopologySpread', 2],
      ['InterPodAffinity', 2],
      ['NodeResourcesBalancedAllocation', 1],
      ['NodeAffinity', 5],
    ]);
  });

  it('1.28: three overrides keep their order', () => {
    const p = load(threeOverrides, new FeatureSet('1.28')).profiles[0].plugins;
    expect(names(p.score).slice(0, 4)).toEqual([
      'TaintToleration',
      'NodeAffinity',
      'ImageLocality',
      'NodeResourcesFit',
    ]);
    expect(p.score).toHaveLength(8);
  });
});

describe('framework errors', () => {
  it('unknown plugin names the profile and field', () => {
    expect(
      errorsOf(() =>
        load({
          profiles: [{ plugins: { score: { enabled: [{ name: 'ImageLocality' }, { name: 'Nope' }] } } }],
        }),
      ),
    ).toEqual([
      { field: 'profiles[0].plugins.score.enabled[1]', message: 'ScorePlugin "Nope" does not exist' },
    ]);
  });
  it('plugin that does not implement the point', () => {
    expect(
      errorsOf(() => load({ profiles: [{ plugins: { filter: { enabled: [{ name: 'ImageLocality' }] } } }] })),
    ).toEqual([
      {
        field: 'profiles[0].plugins.filter.enabled[0]',
        message: 'plugin "ImageLocality" does not extend FilterPlugin plugin',
      },
    ]);
  });
  it('duplicate at one point', () => {
    const errs = errorsOf(() =>
      load({
        profiles: [
          { plugins: { bind: { enabled: [{ name: 'DefaultBinder' }, { name: 'DefaultBinder' }] } } },
        ],
      }),
    );
    expect(errs[0].message).toBe('plugin "DefaultBinder" already registered as "BindPlugin"');
  });
  it('double registration through multiPoint', () => {
    const errs = errorsOf(() =>
      load({
        profiles: [
          { plugins: { multiPoint: { enabled: [{ name: 'ImageLocality' }, { name: 'ImageLocality' }] } } },
        ],
      }),
    );
    expect(errs[0].message).toBe('plugin "ImageLocality" already registered as "ScorePlugin"');
  });
  it('no queue sort / no binder', () => {
    expect(
      errorsOf(() => load({ profiles: [{ plugins: { queueSort: { disabled: [{ name: '*' }] } } }] }))[0]
        .message,
    ).toBe(
      'only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 0',
    );
    expect(
      errorsOf(() =>
        load({ profiles: [{ plugins: { multiPoint: { disabled: [{ name: 'DefaultBinder' }] } } }] }),
      )[0].message,
    ).toBe('at least one bind plugin is needed for profile with scheduler name "default-scheduler"');
  });
});

describe('validation (upstream ValidateKubeSchedulerConfiguration cases)', () => {
  it('percentageOfNodesToScore out of range, globally and per profile', () => {
    expect(
      errorsOf(() =>
        load({
          percentageOfNodesToScore: 110,
          profiles: [{ schedulerName: 'a', percentageOfNodesToScore: -1 }],
        }),
      ),
    ).toEqual([
      {
        field: 'profiles[0].percentageOfNodesToScore',
        message: 'Invalid value: -1: not in valid range [0-100]',
      },
      { field: 'percentageOfNodesToScore', message: 'Invalid value: 110: not in valid range [0-100]' },
    ]);
  });
  it('schedulerName required with several profiles, and unique', () => {
    expect(errorsOf(() => load({ profiles: [{ schedulerName: 'a' }, {}, { schedulerName: 'a' }] }))).toEqual([
      { field: 'profiles[1].schedulerName', message: 'Required value' },
      { field: 'profiles[2].schedulerName', message: 'Duplicate value: "profiles[0].schedulerName"' },
    ]);
  });
  it('queueSort must match across profiles', () => {
    const errs = errorsOf(() =>
      load({
        profiles: [
          { schedulerName: 'a' },
          {
            schedulerName: 'b',
            plugins: { queueSort: { disabled: [{ name: '*' }], enabled: [{ name: 'PrioritySort' }] } },
          },
        ],
      }),
    );
    expect(errs).toEqual([
      { field: 'profiles[1].plugins.queueSort', message: 'Invalid value: has to match for all profiles' },
    ]);
  });
  it('parallelism and backoffs', () => {
    expect(
      errorsOf(() => load({ parallelism: 0, podInitialBackoffSeconds: 0, podMaxBackoffSeconds: -1 })),
    ).toEqual([
      { field: 'parallelism', message: 'Invalid value: 0: should be an integer value greater than zero' },
      { field: 'podInitialBackoffSeconds', message: 'Invalid value: 0: must be greater than 0' },
      {
        field: 'podMaxBackoffSeconds',
        message: 'Invalid value: -1: must be greater than or equal to PodInitialBackoffSeconds',
      },
    ]);
  });
  it('duplicate pluginConfig and removed plugins', () => {
    const errs = errorsOf(() =>
      load({
        profiles: [
          {
            plugins: { score: { enabled: [{ name: 'SelectorSpread' }] } },
            pluginConfig: [
              { name: 'Foo', args: {} },
              { name: 'Foo', args: {} },
            ],
          },
        ],
      }),
    );
    expect(errs).toEqual([
      {
        field: 'profiles[0].plugins.score.enabled[0]',
        message:
          'Invalid value: "SelectorSpread": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
      },
      { field: 'profiles[0].pluginConfig[1]', message: 'Duplicate value: "Foo"' },
    ]);
  });
  it('args are defaulted and validated through the registry, with kind checks', () => {
    const descriptor: PluginDescriptor<{ hardPodAffinityWeight: number }> = {
      name: 'InterPodAffinity',
      argsKind: 'InterPodAffinityArgs',
      defaultArgs: (raw) => ({ hardPodAffinityWeight: 1, ...(raw as object) }),
      validateArgs: (a) =>
        a.hardPodAffinityWeight < 0 || a.hardPodAffinityWeight > 100
          ? [
              {
                field: 'hardPodAffinityWeight',
                message: `Invalid value: ${a.hardPodAffinityWeight}: not in valid range [0-100]`,
              },
            ]
          : [],
      create: () => ({ name: 'InterPodAffinity' }) as never,
    };
    const registry = new Map<string, PluginDescriptor>([
      ['InterPodAffinity', descriptor as PluginDescriptor],
    ]);
    expect(load({}, v126, registry).profiles[0].pluginArgs.get('InterPodAffinity')).toEqual({
      hardPodAffinityWeight: 1,
    });
    expect(
      load(
        {
          profiles: [
            {
              pluginConfig: [
                {
                  name: 'InterPodAffinity',
                  args: {
                    kind: 'InterPodAffinityArgs',
                    apiVersion: 'kubescheduler.config.k8s.io/v1',
                    hardPodAffinityWeight: 7,
                  },
                },
              ],
            },
          ],
        },
        v126,
        registry,
      ).profiles[0].pluginArgs.get('InterPodAffinity'),
    ).toEqual({ hardPodAffinityWeight: 7 });
    expect(
      errorsOf(() =>
        load(
          {
            profiles: [
              { pluginConfig: [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: 101 } }] },
            ],
          },
          v126,
          registry,
        ),
      ),
    ).toEqual([
      {
        field: 'profiles[0].pluginConfig[0].args.hardPodAffinityWeight',
        message: 'Invalid value: 101: not in valid range [0-100]',
      },
    ]);
    expect(
      errorsOf(() =>
        load(
          {
            profiles: [{ pluginConfig: [{ name: 'InterPodAffinity', args: { kind: 'NodeAffinityArgs' } }] }],
          },
          v126,
          registry,
        ),
      ),
    ).toEqual([
      {
        field: 'profiles[0].pluginConfig[0].args',
        message:
          'args for plugin InterPodAffinity were not of type InterPodAffinityArgs.kubescheduler.config.k8s.io, got NodeAffinityArgs.kubescheduler.config.k8s.io',
      },
    ]);
  });
});

describe('decoding', () => {
  it('reads YAML text', () => {
    const yaml = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 50
profiles:
  - schedulerName: batch
    plugins:
      score:
        enabled:
          - name: NodeResourcesFit
            weight: 9
`;
    const c = loadSchedulerConfiguration(yaml, { registry: emptyRegistry, features: v126 });
    expect(c.percentageOfNodesToScore).toBe(50);
    expect(c.profiles[0].schedulerName).toBe('batch');
    expect(c.profiles[0].plugins.score[0]).toEqual({ name: 'NodeResourcesFit', weight: 9 });
  });
  it('reads JSON text as the YAML parser would, colons and quotes in strings included', () => {
    const config = {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      percentageOfNodesToScore: 50,
      profiles: [
        {
          schedulerName: 'a: "quoted", \\ and : colons',
          plugins: { score: { enabled: [{ name: 'NodeResourcesFit', weight: 9 }], disabled: [] } },
        },
      ],
    };
    const options = { registry: emptyRegistry, features: v126 };
    const fromJson = loadSchedulerConfiguration(JSON.stringify(config, null, 2), options);
    expect(fromJson).toEqual(loadSchedulerConfiguration(config, options));
    expect(fromJson.profiles[0].schedulerName).toBe('a: "quoted", \\ and : colons');
  });
  it('rejects a key repeated in JSON text, at any depth, as in YAML', () => {
    const options = { registry: emptyRegistry, features: v126 };
    const head = '"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration"';
    for (const text of [
      `{${head}, "percentageOfNodesToScore": 50, "percentageOfNodesToScore": 60}`,
      `{${head}, "profiles": [{"schedulerName": "a", "schedulerName": "b"}]}`,
      `apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nkind: KubeSchedulerConfiguration\n`,
    ]) {
      expect(errorsOf(() => loadSchedulerConfiguration(text, options))).toEqual([
        {
          field: '',
          message: expect.stringMatching(/^couldn't parse configuration: Map keys must be unique/),
        },
      ]);
    }
  });
  it('reports text that is not JSON after all through the YAML parser', () => {
    const options = { registry: emptyRegistry, features: v126 };
    expect(errorsOf(() => loadSchedulerConfiguration('{"kind": ', options))).toEqual([
      { field: '', message: expect.stringMatching(/^couldn't parse configuration: /) },
    ]);
  });
  it('rejects unknown fields with their path', () => {
    expect(errorsOf(() => load({ profiles: [{ plugins: { scroe: {} } }], foo: 1 }))).toEqual([
      { field: 'foo', message: 'unknown field "foo"' },
      { field: 'profiles[0].plugins.scroe', message: 'unknown field "profiles[0].plugins.scroe"' },
    ]);
  });
  it('rejects wrong types and missing type meta', () => {
    expect(
      errorsOf(() =>
        load({ profiles: [{ plugins: { score: { enabled: [{ name: 'ImageLocality', weight: 1.5 }] } } }] }),
      ),
    ).toEqual([
      {
        field: 'profiles[0].plugins.score.enabled[0].weight',
        message: 'invalid type: expected int32, got number 1.5',
      },
    ]);
    expect(
      errorsOf(() =>
        loadSchedulerConfiguration({ profiles: [] }, { registry: emptyRegistry, features: v126 }),
      ).map((e) => e.field),
    ).toEqual(['kind', 'apiVersion']);
  });
});
