/**
 * upstream's topologyspreadconstraint_test.go tables (descheduler v0.36.0), each row's nodes and
 * pods dumped as JSON from the Go table itself, run through a real DefaultEvictor and PodEvictor.
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import { buildTestNamespace } from '../../testing/builders';
import { runPlugin } from '../../testing/harness';
import { upstreamNodeFit } from '../../testing/node-fit';
import defaults from './__fixtures__/defaults.json';
import sortDomainsRows from './__fixtures__/sort-domains.json';
import table from './__fixtures__/topology-spread-constraint.json';
import validation from './__fixtures__/validation.json';
import {
  REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT,
  removePodsViolatingTopologySpreadConstraintArgsSchema,
  sortDomains,
} from './topology-spread-constraint';

interface Row {
  name: string;
  nodes: Node[];
  pods: Pod[];
  namespaces?: string[];
  args: Record<string, unknown>;
  nodeFit: boolean;
  expectedEvictedCount: number;
  /** When set, these pods (at least) are evicted. */
  expectedEvictedPods?: string[];
}

const rows = table as unknown as Row[];

function run(row: Row) {
  const byName = (a: Pod, b: Pod) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
  return runPlugin({
    plugin: REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT,
    args: row.args,
    nodes: row.nodes,
    // Upstream's test lists each node's pods by name so the evicted pods are predictable.
    pods: [...row.pods].sort(byName),
    objects: (row.namespaces ?? []).map((ns) => buildTestNamespace(ns) as KubeObject),
    evictorArgs: { nodeFit: row.nodeFit },
  });
}

describe('RemovePodsViolatingTopologySpreadConstraint: upstream TestTopologySpreadConstraint', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', (_n, row) => {
    const { evicted } = run(row);
    expect(evicted).toHaveLength(row.expectedEvictedCount);
    if (row.expectedEvictedPods) expect(evicted).toEqual(expect.arrayContaining(row.expectedEvictedPods));
  });
});

describe('RemovePodsViolatingTopologySpreadConstraint: what each eviction says', () => {
  it('names the constraint and the two domains it balanced', () => {
    const [row] = rows.filter(
      (r) => r.name === '3 domains size [8 7 0], maxSkew=1, should move 5 to get [5 5 5]',
    );
    const { evictions } = run(row);
    expect(evictions.map((e) => e.detail)).toEqual([
      ...Array(3).fill(
        'topology spread constraint zone (maxSkew 1): domain zoneA holds 8 matching pods, domain zoneC 0 (average 5)',
      ),
      ...Array(2).fill(
        'topology spread constraint zone (maxSkew 1): domain zoneB holds 7 matching pods, domain zoneC 3 (average 5)',
      ),
    ]);
  });
});

describe('RemovePodsViolatingTopologySpreadConstraint args: upstream validation and defaults tables', () => {
  const validationRows = validation as { description: string; args: unknown; errInfo?: string }[];
  it.each(validationRows.map((row) => [row.description, row] as const))('%s', (_d, row) => {
    const result = removePodsViolatingTopologySpreadConstraintArgsSchema.safeParse(row.args);
    if (row.errInfo === undefined) expect(result.error).toBeUndefined();
    else if (row.errInfo.startsWith('failed to get label selectors'))
      // The label selector is refused by the shared labelSelector schema, in its own words.
      expect(result.error?.issues[0].path).toEqual(['labelSelector']);
    else expect(result.error?.issues[0].message).toBe(row.errInfo);
  });

  const defaultRows = defaults as { name: string; in: unknown; want: unknown }[];
  it.each(defaultRows.map((row) => [row.name, row] as const))('%s', (_n, row) => {
    expect(removePodsViolatingTopologySpreadConstraintArgsSchema.parse(row.in)).toEqual(row.want);
  });
});

describe('RemovePodsViolatingTopologySpreadConstraint: upstream TestSortDomains', () => {
  interface SortRow {
    name: string;
    domains: { value: string; pods: Pod[] }[];
    want: { value: string; pods: string[] }[];
  }
  // Upstream's test marks evictable pods with an annotation instead of a real evictor.
  const isEvictable = (pod: Pod) => pod.metadata?.annotations?.['evictable'] === 'true';
  it.each((sortDomainsRows as unknown as SortRow[]).map((row) => [row.name, row] as const))(
    '%s',
    (_n, row) => {
      const sorted = sortDomains(
        row.domains.map((d) => ({ value: d.value, pods: [...d.pods] })),
        isEvictable,
      );
      const byValue = sorted
        .map((d) => ({ value: d.value, pods: d.pods.map((p) => p.metadata?.name) }))
        .sort((a, b) => a.value.localeCompare(b.value));
      expect(byValue).toEqual(row.want.map((d) => ({ value: d.value, pods: d.pods })));
    },
  );
});

describe('RemovePodsViolatingTopologySpreadConstraint: which pods a domain gives up first', () => {
  const pod = (name: string, spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
    metadata: { name },
    spec: { ...spec, containers: [] },
  });
  it('keeps pods pinned by a nodeSelector or node affinity before the others, each by ascending priority', () => {
    const [domain] = sortDomains(
      [
        {
          value: 'a',
          pods: [
            pod('free-high', { priority: 100 }),
            pod('pinned', { nodeSelector: { disk: 'ssd' } }),
            pod('free-low', { priority: 1 }),
            pod('free-none'),
          ],
        },
      ],
      () => true,
    );
    // Pods are taken from the end: the unpinned pod of highest priority goes first.
    expect(domain.pods.map((p) => p.metadata?.name)).toEqual([
      'pinned',
      'free-none',
      'free-low',
      'free-high',
    ]);
  });
});

describe('RemovePodsViolatingTopologySpreadConstraint: asking the scheduler', () => {
  it('asks once per pod and node within a pass, however many pods a large domain gives up', () => {
    const [row] = rows.filter((r) => r.name.startsWith('3 domains, sizes [0, 1, 100]'));
    const asked: string[] = [];
    const fit = upstreamNodeFit((name) => row.pods.filter((p) => p.spec?.nodeName === name));
    const { evicted } = runPlugin({
      plugin: REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT,
      args: row.args,
      nodes: row.nodes,
      pods: row.pods,
      podFitsNode: (pod, node) => {
        asked.push(`${pod.metadata?.name}@${node.metadata?.name}`);
        return fit(pod, node);
      },
    });
    expect(evicted).toHaveLength(row.expectedEvictedCount);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked).size).toBe(asked.length);
  });
});
