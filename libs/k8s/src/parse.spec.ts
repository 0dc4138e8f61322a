import { ObjectValidationError, objectKey, ParseError, parseKubernetesObjects } from './parse';

function validationError(text: string): ObjectValidationError {
  try {
    parseKubernetesObjects(text);
  } catch (e) {
    if (e instanceof ObjectValidationError) return e;
    throw e;
  }
  throw new Error('expected ObjectValidationError');
}

function parseError(text: string): ParseError {
  try {
    parseKubernetesObjects(text);
  } catch (e) {
    if (e instanceof ParseError) return e;
    throw e;
  }
  throw new Error('expected ParseError');
}

const podYaml = (name: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: default
spec:
  containers:
  - name: c
    resources:
      requests: {cpu: 100m, memory: 64Mi}
${extra}`;

describe('parseKubernetesObjects: input shapes', () => {
  it('multi-document YAML, skipping empty documents and unknown kinds', () => {
    const r = parseKubernetesObjects(
      `${podYaml('a')}---\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\n`,
    );
    expect(r.objects.map((o) => `${o.kind}:${objectKey(o)}`)).toEqual(['Pod:default/a', 'Node:n1']);
    expect(r.skipped).toEqual([
      { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'ns', name: 'w', reason: 'unknown kind' },
    ]);
  });

  it('JSON List with items', () => {
    const r = parseKubernetesObjects(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } },
          { kind: 'PriorityClass', metadata: { name: 'hi' }, value: 10 },
        ],
      }),
    );
    expect(r.objects.map((o) => o.kind)).toEqual(['Namespace', 'PriorityClass']);
  });

  it('typed lists give their kind to items that omit it', () => {
    const r = parseKubernetesObjects(
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'NodeList',
        items: [{ metadata: { name: 'n1' } }, { metadata: { name: 'n2' } }],
      }),
    );
    expect(r.objects.map((o) => [o.kind, o.apiVersion, o.metadata.name])).toEqual([
      ['Node', 'v1', 'n1'],
      ['Node', 'v1', 'n2'],
    ]);
  });

  it('JSON array and a single JSON object', () => {
    expect(
      parseKubernetesObjects(
        '[{"kind":"Namespace","metadata":{"name":"a"}},{"kind":"Namespace","metadata":{"name":"b"}}]',
      ).objects,
    ).toHaveLength(2);
    expect(
      parseKubernetesObjects('  {"kind":"Namespace","metadata":{"name":"a"}}').objects[0].metadata.name,
    ).toBe('a');
  });

  it('YAML documents that are Lists', () => {
    const r = parseKubernetesObjects(
      `kind: List\nitems:\n- kind: Namespace\n  metadata: {name: a}\n---\nkind: Namespace\nmetadata: {name: b}\n`,
    );
    expect(r.objects.map((o) => o.metadata.name)).toEqual(['a', 'b']);
  });

  it('empty input yields nothing', () => {
    expect(parseKubernetesObjects('')).toEqual({ objects: [], skipped: [] });
    expect(parseKubernetesObjects('---\n# just a comment\n')).toEqual({ objects: [], skipped: [] });
  });

  it('all known kinds are accepted', () => {
    const minimal: Record<string, string> = {
      Pod: 'spec: {containers: [{name: c}]}',
      Node: '',
      Namespace: '',
      PriorityClass: 'value: 1',
      PodDisruptionBudget: 'spec: {selector: {matchLabels: {a: b}}}',
      Service: 'spec: {selector: {a: b}}',
      ReplicaSet: 'spec: {selector: {matchLabels: {a: b}}}',
      ReplicationController: 'spec: {selector: {a: b}}',
      StatefulSet: 'spec: {selector: {matchLabels: {a: b}}}',
      Deployment: 'spec: {selector: {matchLabels: {a: b}}, template: {spec: {containers: [{name: c}]}}}',
      DaemonSet: 'spec: {selector: {matchLabels: {a: b}}}',
      Job: 'spec: {template: {spec: {containers: [{name: c}]}}}',
      CronJob: 'spec: {jobTemplate: {spec: {}}}',
      PersistentVolume: 'spec: {capacity: {storage: 1Gi}}',
      PersistentVolumeClaim: 'spec: {resources: {requests: {storage: 1Gi}}}',
      StorageClass: 'provisioner: x',
      CSINode: '',
      CSIDriver: '',
      CSIStorageCapacity: 'storageClassName: s\ncapacity: 10Gi',
      LimitRange: 'spec: {limits: [{default: {cpu: 1}}]}',
      ResourceQuota: 'spec: {hard: {pods: "10"}}',
      RuntimeClass: 'handler: runc',
    };
    const text = Object.entries(minimal)
      .map(([kind, body]) => `kind: ${kind}\nmetadata: {name: x}\n${body}\n`)
      .join('---\n');
    const r = parseKubernetesObjects(text);
    expect(r.skipped).toEqual([]);
    expect(r.objects.map((o) => o.kind)).toEqual(Object.keys(minimal));
  });
});

describe('parseKubernetesObjects: syntax errors', () => {
  it('YAML errors carry line and column', () => {
    const e = parseError('kind: Pod\nmetadata:\n  name: [a\n  b: c\n');
    expect(e.line).toBeGreaterThanOrEqual(3);
    expect(e.column).toBeGreaterThanOrEqual(1);
    expect(e.message).toMatch(/line \d+/);
  });
  it('JSON errors carry line and column', () => {
    const e = parseError('{\n  "kind": "Pod",\n  "metadata" {"name": "x"}\n}');
    expect(e.line).toBe(3);
    expect(e.column).toBeGreaterThan(1);
  });
  it('source name appears in the message', () => {
    try {
      parseKubernetesObjects('{', { source: 'cluster.json' });
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(ParseError);
      expect((e as ParseError).message).toMatch(/^cluster\.json/);
    }
  });
});

describe('parseKubernetesObjects: validation names the field', () => {
  it('bad cpu request', () => {
    const e = validationError(podYaml('web-0').replace('cpu: 100m', 'cpu: 1.5.3'));
    expect([e.kind, e.namespace, e.name, e.field]).toEqual([
      'Pod',
      'default',
      'web-0',
      'spec.containers[0].resources.requests.cpu',
    ]);
    expect(e.message).toMatch(
      /^Pod default\/web-0: spec\.containers\[0\]\.resources\.requests\.cpu: quantities must match the regular expression/,
    );
  });

  it.each([
    ['missing name', 'kind: Namespace\nmetadata: {}\n', 'metadata.name', /Required value/],
    ['missing metadata', 'kind: Namespace\n', 'metadata', /Required value/],
    [
      'non-string label',
      'kind: Namespace\nmetadata: {name: a, labels: {x: 1}}\n',
      'metadata.labels.x',
      /expected string/,
    ],
    [
      'pod without containers',
      'kind: Pod\nmetadata: {name: p}\nspec: {containers: []}\n',
      'spec.containers',
      /at least 1/,
    ],
    [
      'init container limit',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  initContainers: [{name: i, resources: {limits: {memory: 12Q}}}]\n',
      'spec.initContainers[0].resources.limits.memory',
      /quantities must match/,
    ],
    [
      'extended resource key uses brackets',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {nvidia.com/gpu: x}}}]\n',
      'spec.containers[0].resources.requests[nvidia.com/gpu]',
      /quantities/,
    ],
    [
      'overhead',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  overhead: {cpu: 1Zi}\n',
      'spec.overhead.cpu',
      /quantities/,
    ],
    [
      'node capacity',
      'kind: Node\nmetadata: {name: n}\nstatus: {capacity: {memory: 1Ki5}}\n',
      'status.capacity.memory',
      /suffix/,
    ],
    [
      'node allocatable',
      'kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {cpu: abc}}\n',
      'status.allocatable.cpu',
      /quantities/,
    ],
    [
      'taint effect',
      'kind: Node\nmetadata: {name: n}\nspec: {taints: [{key: k, effect: Sometimes}]}\n',
      'spec.taints[0].effect',
      /Unsupported value: "Sometimes"/,
    ],
    [
      'taint without effect',
      'kind: Node\nmetadata: {name: n}\nspec: {taints: [{key: k}]}\n',
      'spec.taints[0].effect',
      /Unsupported value/,
    ],
    [
      'toleration operator',
      'kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], tolerations: [{key: k, operator: Foo}]}\n',
      'spec.tolerations[0].operator',
      /Unsupported value: "Foo"/,
    ],
    [
      'toleration effect',
      'kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], tolerations: [{key: k, operator: Exists, effect: Bad}]}\n',
      'spec.tolerations[0].effect',
      /Unsupported value/,
    ],
    [
      'toleration Exists with value',
      'kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}], tolerations: [{key: k, operator: Exists, value: v}]}\n',
      'spec.tolerations[0].operator',
      /value must be empty/,
    ],
    [
      'node affinity operator',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Has}]}]}}}\n',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator',
      /Unsupported value: "Has"/,
    ],
    [
      'node affinity matchFields operator',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: Exists}]}]}}}\n',
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].operator',
      /Unsupported value/,
    ],
    [
      'pod affinity label selector operator',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, labelSelector: {matchExpressions: [{key: a, operator: Gt, values: ["1"]}]}}]}}\n',
      'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator',
      /not a valid label selector operator/,
    ],
    [
      'topology spread selector',
      'kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: a, operator: In, values: []}]}}]\n',
      'spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values',
      /can't be empty/,
    ],
    [
      'PDB selector',
      'kind: PodDisruptionBudget\nmetadata: {name: b, namespace: ns}\nspec: {selector: {matchExpressions: [{key: a, operator: Within}]}}\n',
      'spec.selector.matchExpressions[0].operator',
      /not a valid/,
    ],
    [
      'PVC request',
      'kind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {resources: {requests: {storage: lots}}}\n',
      'spec.resources.requests.storage',
      /quantities/,
    ],
    [
      'PV capacity',
      'kind: PersistentVolume\nmetadata: {name: v}\nspec: {capacity: {storage: 1Gb}}\n',
      'spec.capacity.storage',
      /quantities must match/,
    ],
    [
      'deployment template pod',
      'kind: Deployment\nmetadata: {name: d}\nspec: {selector: {matchLabels: {a: b}}, template: {spec: {containers: [{name: c, resources: {requests: {cpu: x}}}]}}}\n',
      'spec.template.spec.containers[0].resources.requests.cpu',
      /quantities/,
    ],
    [
      'priority class value',
      'kind: PriorityClass\nmetadata: {name: p}\nvalue: high\n',
      'value',
      /expected number/,
    ],
    ['missing kind', 'metadata: {name: p}\n', 'kind', /kind is required/],
  ])('%s', (_n, text, field, msg) => {
    const e = validationError(text);
    expect(e.field).toBe(field);
    expect(e.message).toMatch(msg);
    expect(e.message).toContain(`: ${field}: `);
  });

  it('error exposes kind/namespace/name', () => {
    const e = validationError(
      'kind: PodDisruptionBudget\nmetadata: {name: b, namespace: ns}\nspec: {selector: {matchExpressions: [{key: a, operator: Within}]}}\n',
    );
    expect([e.kind, e.namespace, e.name]).toEqual(['PodDisruptionBudget', 'ns', 'b']);
    expect(e.message.startsWith('PodDisruptionBudget ns/b: ')).toBe(true);
  });

  it('numbers are accepted as quantities', () => {
    const r = parseKubernetesObjects(
      'kind: Node\nmetadata: {name: n}\nstatus: {capacity: {cpu: 4, pods: 110}}\n',
    );
    expect(r.objects).toHaveLength(1);
  });
});

describe('parseKubernetesObjects: where a non-object or one object too many sits', () => {
  const pod = (name: string) => ({ kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c' }] } });
  it.each([
    ['an element of a JSON array', JSON.stringify([pod('a'), 5]), '[1]'],
    ['an item of a List', JSON.stringify({ kind: 'List', items: [pod('a'), 'x'] }), '.items[1]'],
    [
      'an array in a typed list in an array',
      JSON.stringify([[pod('a')], { kind: 'PodList', items: [{ ...pod('b'), kind: undefined }, [7]] }]),
      '[1].items[1][0]',
    ],
    [
      'a list in a list of the second YAML document',
      `${podYaml('a')}---\nkind: List\nitems:\n- kind: List\n  items: [true]\n`,
      'document[1].items[0].items[0]',
    ],
  ])('%s', (_n, text, field) => {
    const e = validationError(text);
    expect(e.field).toBe(field);
    expect(e.message).toContain(`: ${field}: expected a Kubernetes object, got `);
  });

  it('the object past maxObjects, inside a nested list', () => {
    const text = JSON.stringify({
      kind: 'List',
      items: [pod('a'), pod('b'), { kind: 'List', items: [pod('c')] }],
    });
    expect(() => parseKubernetesObjects(text, { limits: { maxObjects: 2 } })).toThrow(
      expect.objectContaining({ field: '.items[2].items[0]' }),
    );
    expect(parseKubernetesObjects(text, { limits: { maxObjects: 3 } }).objects).toHaveLength(3);
  });
});

describe('objectKey', () => {
  it('namespace/name or name', () => {
    expect(objectKey({ metadata: { name: 'a', namespace: 'ns' } })).toBe('ns/a');
    expect(objectKey({ metadata: { name: 'n' } })).toBe('n');
  });
});
