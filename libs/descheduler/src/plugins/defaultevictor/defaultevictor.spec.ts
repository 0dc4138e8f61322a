import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import { ClusterView } from '../../framework/cluster-view';
import * as t from '../../testing/builders';
import { upstreamNodeFit } from '../../testing/node-fit';
import {
  NOW,
  effectiveProtectionRows,
  filterRows,
  namespaceOperationRows,
  namespaceOperationsCluster,
  preEvictionFilterRows,
  protectedStorageClassRows,
} from './__fixtures__/defaultevictor.table';
import { defaultEvictorArgsSchema, effectivePodProtections } from './args';
import { createDefaultEvictor } from './defaultevictor';

/** The DefaultEvictor over a cluster of these objects, as upstream's initializePlugin builds it. */
function evictorOver(args: Record<string, unknown>, objects: readonly KubeObject[]) {
  const view = new ClusterView(objects);
  return createDefaultEvictor(defaultEvictorArgsSchema.parse(args), {
    objects,
    nodes: view.nodes,
    pods: () => view.pods(),
    now: () => NOW,
    podFitsNode: upstreamNodeFit((name) => view.podsOnNode(name)),
  });
}

const clusterOf = (pods: Pod[], nodes: Node[] = [], objects: KubeObject[] = []) =>
  [...nodes, ...pods, ...objects] as unknown as KubeObject[];

describe('DefaultEvictor: upstream TestDefaultEvictorPreEvictionFilter', () => {
  it.each(preEvictionFilterRows().map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const evictor = evictorOver(row.args, clusterOf(row.pods, row.nodes, row.objects));
    expect(evictor.preEvictionFilter(row.pods[0])).toBe(row.result);
  });
});

describe('DefaultEvictor: upstream TestDefaultEvictorFilter and TestReinitialization', () => {
  it.each(filterRows().map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const objects = clusterOf(row.pods, row.nodes, row.objects);
    expect(evictorOver(row.args, objects).filter(row.pods[0])).toBe(row.result);
    // Built again from the same args, it answers the same (upstream re-initialises the plugin).
    expect(evictorOver(row.args, objects).filter(row.pods[0])).toBe(row.result);
  });
});

describe('DefaultEvictor: upstream TestGetEffectivePodProtections_TableDriven', () => {
  it.each(effectiveProtectionRows.map((row) => [row.name, row] as const))('%s', (_d, row) => {
    const got = effectivePodProtections(
      defaultEvictorArgsSchema.parse({ podProtections: row.podProtections }),
    );
    expect([...got].sort()).toEqual([...row.want].sort());
  });

  it('falls back to the deprecated booleans when podProtections lists are empty', () => {
    const got = effectivePodProtections(
      defaultEvictorArgsSchema.parse({
        evictLocalStoragePods: true,
        ignorePvcPods: true,
        ignorePodsWithoutPDB: true,
      }),
    );
    expect([...got].sort()).toEqual([
      'DaemonSetPods',
      'FailedBarePods',
      'PodsWithPVC',
      'PodsWithoutPDB',
      'SystemCriticalPods',
    ]);
  });
});

describe('DefaultEvictor: upstream Test_protectedPVCStorageClasses', () => {
  it.each(protectedStorageClassRows.map((row) => [row.name, row] as const))('%s', (_d, row) => {
    const args = defaultEvictorArgsSchema.parse({ podProtections: row.podProtections });
    expect(args.podProtections.config?.PodsWithPVC?.protectedStorageClasses.map((c) => c.name)).toEqual(
      row.expected,
    );
  });
});

describe('DefaultEvictor: upstream TestMultipleProfilesWithDifferentNamespaceLabelSelectors', () => {
  const ns = (name: string, labels: Record<string, string>) =>
    ({
      ...t.buildTestNamespace(name),
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } },
    }) as KubeObject;
  const inNs = (name: string, namespace: string) =>
    t.buildTestPod(
      name,
      100,
      100,
      'node1',
      (p) => ((p.metadata!.namespace = namespace), t.setNormalOwnerRef(p)),
    );
  const prod = inNs('pod-in-prod', 'ns-prod');
  const test = inNs('pod-in-test', 'ns-test');
  const backend = inNs('pod-in-backend', 'ns-backend');
  const objects = clusterOf(
    [prod, test, backend],
    [t.buildTestNode('node1', 1000, 2000, 10)],
    [ns('ns-prod', { env: 'prod' }), ns('ns-test', { env: 'test' }), ns('ns-backend', { team: 'backend' })],
  );
  it('profile1', () => {
    const e = evictorOver({ namespaceLabelSelector: { matchLabels: { env: 'prod' } } }, objects);
    expect([backend, test, prod].map((p) => e.preEvictionFilter(p))).toEqual([false, false, true]);
  });
  it('profile2', () => {
    const e = evictorOver({ namespaceLabelSelector: { matchLabels: { team: 'backend' } } }, objects);
    expect([prod, test, backend].map((p) => e.preEvictionFilter(p))).toEqual([false, false, true]);
  });
});

describe('DefaultEvictor: upstream TestNamespaceLabelSelectorAllOperations', () => {
  const { objects, pods } = namespaceOperationsCluster();
  const all = clusterOf(Object.values(pods), [t.buildTestNode('node1', 1000, 2000, 10)], objects);
  it.each(namespaceOperationRows.map((row) => [row.name, row] as const))('%s', (_d, row) => {
    const e = evictorOver({ namespaceLabelSelector: row.selector }, all);
    for (const p of row.pass) expect([p, e.preEvictionFilter(pods[p])]).toEqual([p, true]);
    for (const p of row.fail) expect([p, e.preEvictionFilter(pods[p])]).toEqual([p, false]);
  });
});

describe('DefaultEvictor args validation (upstream ValidateDefaultEvictorArgs)', () => {
  const problem = (args: Record<string, unknown>) => {
    const r = defaultEvictorArgsSchema.safeParse(args);
    return r.success ? undefined : r.error.issues[0].message;
  };
  it('refuses both priorityThreshold fields', () => {
    expect(problem({ priorityThreshold: { value: 1, name: 'x' } })).toBe(
      'priority threshold misconfigured, only one of priorityThreshold fields can be set',
    );
  });
  it('refuses deprecated booleans beside podProtections', () => {
    expect(
      problem({ evictLocalStoragePods: true, podProtections: { defaultDisabled: ['DaemonSetPods'] } }),
    ).toBe(
      'cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled',
    );
  });
  it('refuses unknown and duplicated protections', () => {
    expect(problem({ podProtections: { extraEnabled: ['DaemonSetPods'] } })).toMatch(
      /^invalid pod protection policy in ExtraEnabled: "DaemonSetPods"/,
    );
    expect(problem({ podProtections: { defaultDisabled: ['DaemonSetPods', 'DaemonSetPods'] } })).toBe(
      'PodProtections.DefaultDisabled contains duplicate entries',
    );
  });
  it('refuses an unknown noEvictionPolicy and an empty protected storage class', () => {
    expect(problem({ noEvictionPolicy: 'Sometimes' })).toMatch(/noEvictionPolicy accepts only/);
    expect(
      problem({
        podProtections: {
          extraEnabled: ['PodsWithPVC'],
          config: { PodsWithPVC: { protectedStorageClasses: [{ name: '' }] } },
        },
      }),
    ).toBe('PodProtections.Config.PodsWithPVC.ProtectedStorageClasses[0] name cannot be empty');
  });
});
