/**
 * The balance plugins as a DeschedulerPolicy names them: their args validated and defaulted
 * through the registry, errors naming profile, plugin and field, and a whole cycle.
 */
import type { KubeObject } from '@schedlab/k8s';
import { parsePolicy } from '../../api/policy';
import { PolicyError } from '../../api/schema';
import { deschedule } from '../../descheduler';
import { buildTestNode, buildTestPod, setRSOwnerRef } from '../../testing/builders';
import { upstreamNodeFit } from '../../testing/node-fit';

const policyWith = (name: string, args: Record<string, unknown>) => ({
  apiVersion: 'descheduler/v1alpha2',
  kind: 'DeschedulerPolicy',
  profiles: [
    { name: 'rebalance', pluginConfig: [{ name, args }], plugins: { balance: { enabled: [name] } } },
  ],
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

describe('balance plugins in a DeschedulerPolicy', () => {
  it("applies upstream's defaults", () => {
    const policy = parsePolicy(policyWith('RemovePodsViolatingTopologySpreadConstraint', {}));
    const config = policy.profiles[0].pluginConfig.find(
      (c) => c.name === 'RemovePodsViolatingTopologySpreadConstraint',
    );
    expect(config?.args).toEqual({ constraints: ['DoNotSchedule'], topologyBalanceNodeFit: true });
  });

  it.each([
    [
      'LowNodeUtilization',
      { thresholds: { cpu: 20 }, targetThresholds: { cpu: 120 } },
      'targetThresholds',
      'targetThresholds config is not valid: cpu threshold not in [0, 100] range',
    ],
    [
      'LowNodeUtilization',
      { thresholds: { cpu: 20 }, targetThresholds: { memory: 50 } },
      'targetThresholds',
      'thresholds and targetThresholds configured different resources',
    ],
    [
      'LowNodeUtilization',
      { thresholds: { constructor: 20 }, targetThresholds: { cpu: 50 } },
      'targetThresholds',
      'thresholds and targetThresholds configured different resources',
    ],
    ['HighNodeUtilization', { thresholds: {} }, 'thresholds', 'no resource threshold is configured'],
    [
      'RemovePodsViolatingTopologySpreadConstraint',
      { constraints: ['Sometimes'] },
      'constraints[0]',
      'constraint Sometimes is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]',
    ],
    [
      'RemoveDuplicates',
      { namespaces: { include: ['a'], exclude: ['b'] } },
      'namespaces',
      'only one of Include/Exclude namespaces can be set',
    ],
  ])('%s %j is refused, naming the profile, the plugin and the field', (plugin, args, field, detail) => {
    expect(errorOf(policyWith(plugin, args)).message).toBe(
      `profiles[0] "rebalance": pluginConfig "${plugin}": args.${field}: ${detail}`,
    );
  });

  it('runs LowNodeUtilization in a cycle: pods leave the overutilized node for the underutilized one', () => {
    const nodes = [buildTestNode('busy', 4000, 3000, 10), buildTestNode('idle', 4000, 3000, 10)];
    const pods = ['a', 'b', 'c', 'd'].map((name) => buildTestPod(name, 800, 0, 'busy', setRSOwnerRef));
    const objects = [...nodes, ...pods] as unknown as KubeObject[];
    const result = deschedule(
      objects,
      policyWith('LowNodeUtilization', { thresholds: { cpu: 20 }, targetThresholds: { cpu: 50 } }),
      {
        now: 0,
        podFitsNode: upstreamNodeFit((name) => pods.filter((p) => p.spec?.nodeName === name)),
      },
    );
    // busy requests 80% of its cpu; the lowest-priority pods go until it is at 50% or below.
    expect(result.evictions.map((e) => [e.name, e.node, e.strategy])).toEqual([
      ['a', 'busy', 'LowNodeUtilization'],
      ['b', 'busy', 'LowNodeUtilization'],
    ]);
    expect(result.profiles[0]).toEqual(expect.objectContaining({ balance: 2 }));
  });
});
