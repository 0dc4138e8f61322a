import type { KubeObject, Pod } from '@schedlab/k8s';
import * as t from '../testing/builders';
import { ClusterView } from './cluster-view';
import { DisruptionBudgets } from './disruption-budgets';

const web = (name: string, apply?: (p: Pod) => void) =>
  t.buildTestPod(name, 100, 0, 'n1', (p) => {
    p.metadata!.labels = { app: 'web' };
    p.metadata!.ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'rs', controller: true },
    ];
    apply?.(p);
  });
const pdb = (spec: Record<string, unknown>) =>
  ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { namespace: 'default', name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  }) as KubeObject;
const rs = (replicas: number) =>
  ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { namespace: 'default', name: 'web-rs' },
    spec: { replicas },
  }) as KubeObject;

function budgets(objects: KubeObject[]) {
  const view = new ClusterView(objects);
  return {
    view,
    budgets: new DisruptionBudgets(objects, view),
    pdb: objects.find((o) => o.kind === 'PodDisruptionBudget')!,
  };
}

describe('DisruptionBudgets: the eviction API over the snapshot', () => {
  const pods = () => [web('w1'), web('w2'), web('w3')];

  it('minAvailable as a number: healthy pods above it may go, one eviction at a time', () => {
    const objects = [...pods(), pdb({ minAvailable: 2 })] as unknown as KubeObject[];
    const { view, budgets: b, pdb: p } = budgets(objects);
    expect(b.disruptionsAllowed(p as never)).toBe(1);
    view.markEvicted(objects[0] as unknown as Pod);
    expect(b.disruptionsAllowed(p as never)).toBe(0);
    expect(b.check(objects[1] as unknown as Pod)).toMatchObject({
      allowed: false,
      refusal: 'pod-disruption-budget',
    });
  });

  it("percentages scale with the controller's replicas, rounding up", () => {
    // 4 replicas expected, 3 healthy: minAvailable 50% wants 2, so one may go.
    const objects = [...pods(), rs(4), pdb({ minAvailable: '50%' })] as unknown as KubeObject[];
    expect(budgets(objects).budgets.disruptionsAllowed(objects.at(-1) as never)).toBe(1);
    // maxUnavailable 25% of 4 is 1: desired 3, healthy 3, none may go.
    const strict = [...pods(), rs(4), pdb({ maxUnavailable: '25%' })] as unknown as KubeObject[];
    expect(budgets(strict).budgets.disruptionsAllowed(strict.at(-1) as never)).toBe(0);
  });

  it('does not count unready or pending pods as healthy, and lets them go', () => {
    const unready = web(
      'w3',
      (p) =>
        void (t.writable(p).status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }),
    );
    const objects = [web('w1'), web('w2'), unready, pdb({ minAvailable: 2 })] as unknown as KubeObject[];
    const { budgets: b, pdb: p } = budgets(objects);
    expect(b.disruptionsAllowed(p as never)).toBe(0);
    expect(b.check(unready)).toEqual({ allowed: true });
    expect(b.check(objects[0] as unknown as Pod)).toMatchObject({ allowed: false });
  });

  it('ignores budgets of other namespaces and budgets without a selector', () => {
    const other = {
      ...pdb({ minAvailable: 3 }),
      metadata: { namespace: 'other', name: 'web' },
    } as KubeObject;
    const noSelector = { ...pdb({ minAvailable: 3 }), spec: { minAvailable: 3 } } as KubeObject;
    const objects = [...pods(), other, noSelector] as unknown as KubeObject[];
    expect(budgets(objects).budgets.check(objects[0] as unknown as Pod)).toEqual({ allowed: true });
  });

  it('lets an unready pod go only while its budget is met, unless the budget says AlwaysAllow', () => {
    const unready = web(
      'w3',
      (p) =>
        void (t.writable(p).status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] }),
    );
    // minAvailable 3 with 2 healthy: the budget is not met, so even the unready pod stays (IfHealthyBudget).
    const unmet = [web('w1'), web('w2'), unready, pdb({ minAvailable: 3 })] as unknown as KubeObject[];
    expect(budgets(unmet).budgets.check(unready)).toMatchObject({
      allowed: false,
      message:
        "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 3 healthy pods and has 2 currently",
    });
    const always = [
      web('w1'),
      web('w2'),
      unready,
      pdb({ minAvailable: 3, unhealthyPodEvictionPolicy: 'AlwaysAllow' }),
    ] as unknown as KubeObject[];
    expect(budgets(always).budgets.check(unready)).toEqual({ allowed: true });
  });
});
