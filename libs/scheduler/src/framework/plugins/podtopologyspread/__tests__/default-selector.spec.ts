/**
 * The default constraints' selector finds the Services that select a pod through an index of
 * their selectors; it must merge exactly the Services a scan of the pod's namespace would, also
 * after Services are added or deleted once the index exists.
 */
import fc from 'fast-check';
import type { LabelSelector, Labels, Pod, ReplicaSet, Service } from '@schedlab/k8s';
import { isNothing, mergeSelectorsAnd, selectorFromLabelSelector, selectorFromSet } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { makePod } from '../../../../testing/builders';
import { defaultSelector } from '../default-selector';

/** The labels of every selecting Service of the pod's namespace, merged. */
function scannedServiceLabelSet(pod: Pod, objects: ClusterObjects): Labels {
  const namespace = pod.metadata?.namespace ?? 'default';
  const labels = pod.metadata?.labels ?? {};
  const merged: Labels = {};
  for (const svc of objects.services.list(namespace)) {
    const sel = svc.spec?.selector;
    if (sel == null) continue;
    if (Object.keys(sel).every((k) => Object.hasOwn(labels, k) && labels[k] === sel[k]))
      Object.assign(merged, sel);
  }
  return merged;
}

/** What the selector's Service part is defined as: every selecting Service of the namespace, merged. */
function scannedServiceLabels(pod: Pod, objects: ClusterObjects): string {
  const merged = scannedServiceLabelSet(pod, objects);
  return Object.keys(merged)
    .sort()
    .map((k) => `${k}=${merged[k]}`)
    .join(',');
}

const keys = fc.constantFrom('app', 'tier', 'team');
const values = fc.constantFrom('a', 'b', '');
const labelSets = fc.dictionary(keys, values, { maxKeys: 3 });
const namespaces = fc.constantFrom('default', 'other');
const services = fc.array(
  fc.record({
    namespace: namespaces,
    // null: a Service without a selector (it selects nothing); {}: one that selects every pod.
    selector: fc.option(labelSets, { nil: null }),
  }),
  { maxLength: 12 },
);

function service(i: number, namespace: string, selector: Labels | null): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `svc-${i}`, namespace },
    spec: selector === null ? {} : { selector },
  } as Service;
}

describe('defaultSelector', () => {
  it('merges the same Services as a scan of the namespace, before and after the Services change', () => {
    fc.assert(
      fc.property(
        services,
        services,
        fc.array(fc.record({ namespace: namespaces, labels: labelSets }), { minLength: 1, maxLength: 6 }),
        fc.nat(12),
        (first, added, pods, deleted) => {
          const objects = new ClusterObjects();
          first.forEach((s, i) => objects.services.set(service(i, s.namespace, s.selector)));
          const probes = pods.map((p, i) =>
            makePod({ name: `p${i}`, namespace: p.namespace, labels: p.labels }),
          );
          const check = () => {
            for (const pod of probes)
              expect(defaultSelector(pod, objects).toString()).toBe(scannedServiceLabels(pod, objects));
          };
          check();
          added.forEach((s, i) => objects.services.set(service(100 + i, s.namespace, s.selector)));
          const victim = first[deleted];
          if (victim) objects.services.delete(victim.namespace, `svc-${deleted}`);
          check();
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
  });

  it("gives a ReplicaSet's pods the selector a fresh computation gives, after the ReplicaSet and Services change", () => {
    const workloadSelectors = fc.oneof(
      labelSets.map((matchLabels): LabelSelector | undefined => ({ matchLabels })),
      fc.tuple(keys, values).map(([key, value]): LabelSelector => ({
        matchExpressions: [{ key, operator: 'In', values: [value] }],
      })),
      // Invalid, and missing: the ReplicaSet adds nothing.
      fc.constant<LabelSelector>({ matchExpressions: [{ key: 'app', operator: 'Bogus' }] }),
      fc.constant(undefined),
    );
    const replicaSet = (selector: LabelSelector | undefined): ReplicaSet =>
      ({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs', namespace: 'default' },
        spec: { selector },
      }) as ReplicaSet;
    /** What the selector is defined as: the Services' labels ANDed with a valid ReplicaSet selector. */
    const expected = (pod: Pod, selector: LabelSelector | undefined, objects: ClusterObjects): string => {
      const fromServices = selectorFromSet(scannedServiceLabelSet(pod, objects));
      let fromWorkload;
      try {
        fromWorkload = selectorFromLabelSelector(selector ?? null);
      } catch {
        return fromServices.toString();
      }
      return isNothing(fromWorkload)
        ? fromServices.toString()
        : mergeSelectorsAnd([fromServices, fromWorkload]).toString();
    };
    fc.assert(
      fc.property(
        services,
        services,
        fc.array(workloadSelectors, { minLength: 1, maxLength: 3 }),
        fc.array(labelSets, { minLength: 1, maxLength: 6 }),
        (first, added, selectors, podLabels) => {
          const objects = new ClusterObjects();
          first.forEach((s, i) => objects.services.set(service(i, s.namespace, s.selector)));
          const pods = podLabels.map((labels, i) => {
            const pod = makePod({ name: `p${i}`, labels });
            pod.metadata!.ownerReferences = [
              { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'uid-rs', controller: true },
            ];
            return pod;
          });
          for (const [step, selector] of selectors.entries()) {
            objects.replicaSets.set(replicaSet(selector));
            if (step === 1)
              added.forEach((s, i) => objects.services.set(service(100 + i, s.namespace, s.selector)));
            // Twice each: the second answer comes from what the first remembered.
            for (const pod of [...pods, ...pods])
              expect(defaultSelector(pod, objects).toString()).toBe(expected(pod, selector, objects));
          }
        },
      ),
      { numRuns: 300, seed: 4243 },
    );
  });
});
