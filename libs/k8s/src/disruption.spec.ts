import { controllerScaleOf, expectedPodsOf, scaledIntOrPercent } from './disruption';

describe('PodDisruptionBudget arithmetic', () => {
  it('scales IntOrString values, rounding percentages up', () => {
    expect(scaledIntOrPercent(2, 10)).toBe(2);
    expect(scaledIntOrPercent('3', 10)).toBe(3);
    expect(scaledIntOrPercent('25%', 3)).toBe(1);
    expect(scaledIntOrPercent('50%', 5)).toBe(3);
    expect(scaledIntOrPercent('half', 4)).toBeUndefined();
  });

  it("answers a Deployment's ReplicaSet with the Deployment's scale", () => {
    const objects: Record<
      string,
      {
        spec?: { replicas?: number };
        metadata?: { ownerReferences?: { kind: string; name: string; controller?: boolean }[] };
      }
    > = {
      'ReplicaSet/web-1': {
        spec: { replicas: 2 },
        metadata: { ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] },
      },
      'Deployment/web': { spec: { replicas: 5 } },
      'StatefulSet/db': {},
    };
    const find = (kind: string, name: string) => objects[`${kind}/${name}`];
    expect(controllerScaleOf(find, 'ReplicaSet', 'web-1')).toBe(5);
    expect(controllerScaleOf(find, 'StatefulSet', 'db')).toBe(1);
    expect(controllerScaleOf(find, 'ReplicaSet', 'gone')).toBeUndefined();
  });

  it('counts each controller once and each bare pod once', () => {
    const owned = (name: string) => ({
      metadata: {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: name, controller: true }],
      },
    });
    const pods = [owned('a'), owned('a'), owned('b'), { metadata: {} }];
    expect(expectedPodsOf(pods, (_k, name) => (name === 'a' ? 4 : undefined))).toBe(4 + 1 + 1);
  });
});
