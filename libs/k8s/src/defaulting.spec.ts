import type { Pod } from './types';
import type { KubeObject } from './parse';

const o = (kind: string, extra: Record<string, unknown> = {}): KubeObject => ({
  kind,
  metadata: { name: 'x' },
  ...extra,
});
import {
  defaultNode,
  defaultObject,
  defaultPersistentVolume,
  defaultPersistentVolumeClaim,
  defaultPod,
  defaultStorageClass,
} from './defaulting';

describe('defaultPod', () => {
  const input: Pod = {
    metadata: { name: 'p' },
    spec: {
      containers: [
        {
          name: 'a',
          resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m' } },
          ports: [{ containerPort: 80 }],
        },
        { name: 'b' },
      ],
      initContainers: [{ name: 'i', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
    },
  };
  const out = defaultPod(input);

  it('does not mutate its input', () => {
    expect(input.metadata?.namespace).toBeUndefined();
    expect(input.spec?.containers[0].resources?.requests).toEqual({ cpu: '500m' });
  });
  it('defaults namespace and scheduler name', () => {
    expect(out.metadata?.namespace).toBe('default');
    expect(out.spec?.schedulerName).toBe('default-scheduler');
  });
  it('requests default to limits per missing resource only', () => {
    expect(out.spec?.containers[0].resources?.requests).toEqual({ cpu: '500m', memory: '1Gi' });
    expect(out.spec?.containers[1].resources).toBeUndefined();
    expect(out.spec?.initContainers?.[0].resources?.requests).toEqual({ 'nvidia.com/gpu': '1' });
  });
  it('port protocol defaults to TCP', () => {
    expect(out.spec?.containers[0].ports?.[0].protocol).toBe('TCP');
    expect(out.spec?.containers[0].ports?.[0].hostPort).toBeUndefined();
  });
  it('keeps tolerations and explicit values', () => {
    expect(out.spec?.tolerations).toEqual([{ key: 'k', operator: 'Exists' }]);
    const custom = defaultPod({
      metadata: { name: 'p', namespace: 'ns' },
      spec: { containers: [], schedulerName: 'mine' },
    });
    expect(custom.metadata?.namespace).toBe('ns');
    expect(custom.spec?.schedulerName).toBe('mine');
  });
  it('hostNetwork pods get hostPort = containerPort', () => {
    const p = defaultPod({
      metadata: { name: 'p' },
      spec: {
        hostNetwork: true,
        containers: [{ name: 'a', ports: [{ containerPort: 8080, protocol: 'UDP' }] }],
      },
    });
    expect(p.spec?.containers[0].ports?.[0]).toEqual({
      containerPort: 8080,
      hostPort: 8080,
      protocol: 'UDP',
    });
  });
});

describe('other kinds', () => {
  it('node allocatable defaults to capacity', () => {
    expect(
      defaultNode({ metadata: { name: 'n' }, status: { capacity: { cpu: '4' } } }).status?.allocatable,
    ).toEqual({ cpu: '4' });
    expect(
      defaultNode({ metadata: { name: 'n' }, status: { capacity: { cpu: '4' }, allocatable: { cpu: '3' } } })
        .status?.allocatable,
    ).toEqual({ cpu: '3' });
  });
  it('a node that needs no default comes back as it is; one that does is copied, its input untouched', () => {
    const complete = {
      metadata: { name: 'n' },
      status: { capacity: { cpu: '4' }, allocatable: { cpu: '3' } },
    };
    expect(defaultNode(complete)).toBe(complete);
    const bare = { metadata: { name: 'b' } };
    expect(defaultNode(bare)).toBe(bare);
    const partial = { metadata: { name: 'p' }, status: { capacity: { cpu: '4' } } };
    const defaulted = defaultNode(partial);
    expect(defaulted).not.toBe(partial);
    expect(defaulted.status?.allocatable).not.toBe(partial.status.capacity);
    expect(partial).toEqual({ metadata: { name: 'p' }, status: { capacity: { cpu: '4' } } });
  });
  it('PV and PVC volumeMode Filesystem, PVC namespace', () => {
    const pv = defaultPersistentVolume({ metadata: { name: 'v' }, spec: {} });
    expect(pv.spec?.volumeMode).toBe('Filesystem');
    expect(pv.spec?.persistentVolumeReclaimPolicy).toBe('Retain');
    expect(pv.metadata?.namespace).toBeUndefined();
    const pvc = defaultPersistentVolumeClaim({ metadata: { name: 'c' }, spec: { volumeMode: 'Block' } });
    expect(pvc.spec?.volumeMode).toBe('Block');
    expect(pvc.metadata?.namespace).toBe('default');
  });
  it('StorageClass binding mode and reclaim policy', () => {
    const sc = defaultStorageClass({ metadata: { name: 's' }, provisioner: 'x' });
    expect(sc.volumeBindingMode).toBe('Immediate');
    expect(sc.reclaimPolicy).toBe('Delete');
    expect(
      defaultStorageClass({
        metadata: { name: 's' },
        provisioner: 'x',
        volumeBindingMode: 'WaitForFirstConsumer',
      }).volumeBindingMode,
    ).toBe('WaitForFirstConsumer');
  });
  it('defaultObject dispatches on kind and namespaces namespaced kinds only', () => {
    expect(defaultObject(o('Service')).metadata.namespace).toBe('default');
    expect(defaultObject(o('Namespace')).metadata.namespace).toBeUndefined();
    expect(defaultObject(o('PriorityClass')).metadata.namespace).toBeUndefined();
    expect(
      (defaultObject(o('Pod', { spec: { containers: [] } })) as unknown as Pod).spec?.schedulerName,
    ).toBe('default-scheduler');
  });
});

/** Freezes every object reachable from `v`: a write into any of them then throws. */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const key of Reflect.ownKeys(v)) deepFreeze((v as Record<PropertyKey, unknown>)[key]);
  }
  return v;
}

describe('a defaulted pod shares what its defaults leave alone', () => {
  const input = deepFreeze(
    JSON.parse(
      '{"kind":"Pod","metadata":{"name":"p","labels":{"__proto__":"x","a":"b"}},"spec":{"hostNetwork":true,"affinity":{"nodeAffinity":{}},"resources":{"limits":{"cpu":"2"}},"containers":[{"name":"c","resources":{"limits":{"cpu":"1"}}},{"name":"d","resources":{"requests":{"cpu":"1"}},"ports":[{"containerPort":80,"hostPort":80,"protocol":"TCP"}]},{"name":"e","ports":[{"containerPort":81,"hostPort":81,"protocol":"UDP"},{"containerPort":82}]}]}}',
    ) as KubeObject,
  );
  // A frozen input: defaulting that wrote into it, or into anything it shares, would throw here.
  const out = defaultObject(input) as unknown as Pod;
  const spec = input.spec as NonNullable<Pod['spec']>;

  it('copies the pod, its spec and metadata that gets a namespace', () => {
    expect(out).not.toBe(input);
    expect(out.spec).not.toBe(spec);
    expect(out.metadata).not.toBe(input.metadata);
    expect(out.metadata?.namespace).toBe('default');
    expect(input.metadata.namespace).toBeUndefined();
  });
  it('shares what no default touches', () => {
    expect(out.metadata?.labels).toBe(input.metadata.labels);
    // An own "__proto__" key stays a key (it must not become the labels' prototype).
    expect(Object.keys(out.metadata?.labels ?? {})).toEqual(['__proto__', 'a']);
    expect(out.spec?.affinity).toBe(spec.affinity);
    expect(out.spec?.containers[1]).toBe(spec.containers[1]);
    const withNamespace = { ...input, metadata: { ...input.metadata, namespace: 'ns' } };
    expect(defaultObject(withNamespace).metadata).toBe(withNamespace.metadata);
  });
  it('copies a container along the paths its defaults change', () => {
    const [c, , e] = out.spec?.containers ?? [];
    expect(c).not.toBe(spec.containers[0]);
    expect(c.resources?.limits).toBe(spec.containers[0].resources?.limits);
    expect(c.resources?.requests).toEqual({ cpu: '1' });
    expect(e.ports?.[0]).toBe(spec.containers[2].ports?.[0]);
    expect(e.ports?.[1]).toEqual({ containerPort: 82, hostPort: 82, protocol: 'TCP' });
    expect(spec.containers[2].ports?.[1]).toEqual({ containerPort: 82 });
  });
  it('copies pod-level resources it fills in', () => {
    const res = (p: unknown) =>
      (p as { spec: { resources: { requests?: object; limits: object } } }).spec.resources;
    expect(res(out).requests).toEqual({ cpu: '2' });
    expect(res(out).limits).toBe(res(input).limits);
    expect(res(input).requests).toBeUndefined();
  });
});

describe('defaulted objects of other kinds are deep copies of their input', () => {
  it('shares no object with the input, and keeps values structuredClone keeps', () => {
    const input = JSON.parse(
      '{"kind":"PersistentVolumeClaim","metadata":{"name":"c","labels":{"__proto__":"x","a":"b"}},"spec":{"resources":{"requests":{"storage":"1Gi"}}}}',
    ) as KubeObject;
    const created = new Date(0);
    (input.metadata as Record<string, unknown>).created = created;
    const out = defaultObject(input) as unknown as KubeObject & { metadata: { created: Date } };
    // An own "__proto__" key stays a key (it must not become the labels' prototype).
    expect(Object.keys(out.metadata?.labels ?? {})).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(out.metadata?.labels)).toBe(Object.prototype);
    expect(out.metadata.created).toEqual(created);
    expect(out.metadata.created).not.toBe(created);
    expect(out.metadata).not.toBe(input.metadata);
    expect(out.spec).not.toBe(input.spec);
    // Defaulting wrote into the copy only.
    expect((out.spec as { volumeMode?: string }).volumeMode).toBe('Filesystem');
    expect((input.spec as { volumeMode?: string }).volumeMode).toBeUndefined();
  });

  it('copies an object under an own "__proto__" key too, and keeps every key in its order', () => {
    const input = JSON.parse(
      '{"kind":"Widget","metadata":{"name":"w","namespace":"n"},"2":0,"z":[{"a":[1,{"b":null}]}],"__proto__":{"x":{"y":1}},"1":true}',
    ) as KubeObject;
    const out = defaultObject(input) as unknown as Record<string, unknown>;
    expect(out).toEqual(input);
    expect(Object.keys(out)).toEqual(Object.keys(input));
    const own = (o: unknown, key: string) => Object.getOwnPropertyDescriptor(o, key)?.value as unknown;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(own(out, '__proto__')).toEqual({ x: { y: 1 } });
    expect(own(out, '__proto__')).not.toBe(own(input, '__proto__'));
    expect(own(own(out, '__proto__'), 'x')).not.toBe(own(own(input, '__proto__'), 'x'));
    const inner = (o: unknown) => (o as { z: { a: unknown[] }[] }).z[0].a[1] as object;
    expect(inner(out)).toEqual({ b: null });
    expect(inner(out)).not.toBe(inner(input));
  });
});
