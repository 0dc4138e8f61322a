/**
 * The default constraints' selector finds the Services that select a pod through an index of
 * their selectors; it must merge exactly the Services a scan of the pod's namespace would, also
 * after Services are added or deleted once the index exists.
 */
import fc from 'fast-check';
import type { Labels, Pod, Service } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { makePod } from '../../../../testing/builders';
import { defaultSelector } from '../default-selector';

/** What the selector's Service part is defined as: every selecting Service of the namespace, merged. */
function scannedServiceLabels(pod: Pod, objects: ClusterObjects): string {
  const namespace = pod.metadata?.namespace ?? 'default';
  const labels = pod.metadata?.labels ?? {};
  const merged: Labels = {};
  for (const svc of objects.services.list(namespace)) {
    const sel = svc.spec?.selector;
    if (sel == null) continue;
    if (Object.keys(sel).every((k) => Object.hasOwn(labels, k) && labels[k] === sel[k]))
      Object.assign(merged, sel);
  }
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
});
