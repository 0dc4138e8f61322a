// Declarative (zod) shape checks for the kinds Schedlab consumes. They reject what the API server
// would reject in the fields the scheduler reads; everything else passes through untouched.
import { z } from 'zod';
import { parseQuantity, QuantityError } from './quantity';
import { LabelSelectorError, selectorFromLabelSelector } from './labels';
import type { LabelSelector } from './types';
import { refinedAs } from './schema-check';

type Ctx = z.RefinementCtx;

/** Splits "a.b[0].c" into zod path segments. */
function pathSegments(field: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

const str = z.string();
const optStr = str.nullish();
const stringMap = z.record(z.string(), z.string()).nullish();
const int = z.number().int();

/**
 * Amounts already found usable, so each is judged once per process: a dump repeats a handful of
 * amounts ("32000m", "128Gi", "110") across thousands of nodes and pods, and judging one is
 * BigInt arithmetic. Bounded, since a dump may also hold many distinct amounts.
 */
class ValidValues {
  private readonly values = new Set<string | number>();
  has(v: string | number): boolean {
    return this.values.has(v);
  }
  add(v: string | number): void {
    if (this.values.size >= 10_000) this.values.clear();
    this.values.add(v);
  }
}

export const quantitySchema = z.unknown().superRefine((v, ctx: Ctx) => {
  if (typeof v !== 'string' && typeof v !== 'number') {
    ctx.addIssue({
      code: 'custom',
      message: `Invalid value: ${JSON.stringify(v)}: must be a quantity string or number`,
    });
    return;
  }
  // Not remembered here: parseQuantity keeps parsed strings, and the dump's fast check
  // (schema-check) remembers every value this refinement passed.
  try {
    parseQuantity(v);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    ctx.addIssue({ code: 'custom', message: `${e.reason} (got ${JSON.stringify(v)})` });
  }
});
/**
 * The largest amount the engine holds exactly, in its units (millicores for cpu, whole units for
 * everything else): 2^53-1. The apiserver stores larger quantities, but no real node has them,
 * and past this the scheduler's arithmetic would silently lose precision or reach Infinity.
 */
export const MAX_RESOURCE_AMOUNT = Number.MAX_SAFE_INTEGER;

/** Amounts with no problem, for cpu (millicores) and for every other resource (whole units). */
const usableCpuAmounts = new ValidValues();
const usableOtherAmounts = new ValidValues();

/** Why `value` is not a usable amount of `resource` (negative, or beyond MAX_RESOURCE_AMOUNT), or undefined. */
export function resourceQuantityProblem(resource: string, value: string | number): string | undefined {
  const usable = resource === 'cpu' ? usableCpuAmounts : usableOtherAmounts;
  if (usable.has(value)) return undefined;
  const problem = quantityProblem(resource, value);
  if (problem === undefined) usable.add(value);
  return problem;
}

function quantityProblem(resource: string, value: string | number): string | undefined {
  let q;
  try {
    q = parseQuantity(value);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    return `${e.reason} (got ${JSON.stringify(value)})`;
  }
  const shown = JSON.stringify(value);
  if (q.sign() < 0) return `Invalid value: ${shown}: must be greater than or equal to 0`;
  const perUnit = resource === 'cpu' ? 1_000_000n : 1_000_000_000n;
  if (q.nanos / perUnit >= BigInt(MAX_RESOURCE_AMOUNT)) {
    const unit = resource === 'cpu' ? 'm' : '';
    return `Invalid value: ${shown}: must be less than ${MAX_RESOURCE_AMOUNT}${unit} (the largest ${resource} amount the scheduler holds exactly)`;
  }
  return undefined;
}

/**
 * Whether every amount of a resource list is usable for its resource (values that are no string
 * or number are the quantity schema's to refuse); `onProblem` hears each one that is not, and
 * without it the walk stops at the first. for…in visits the keys Object.entries lists: the list is
 * plain data.
 */
function resourceAmountsUsable(
  list: Record<string, unknown>,
  onProblem?: (resource: string, problem: string) => void,
): boolean {
  let usable = true;
  for (const resource in list) {
    const value = list[resource];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const problem = resourceQuantityProblem(resource, value);
    if (problem === undefined) continue;
    if (!onProblem) return false;
    usable = false;
    onProblem(resource, problem);
  }
  return usable;
}

// The native stand-in is the same judgement without zod's payload and context per list (every
// container and node of a dump has one).
const resourceList = refinedAs(
  z
    .record(z.string(), quantitySchema)
    .nullish()
    .superRefine((list, ctx: Ctx) => {
      if (list)
        resourceAmountsUsable(list, (resource, message) =>
          ctx.addIssue({ code: 'custom', message, path: [resource] }),
        );
    }),
  (list) => !list || resourceAmountsUsable(list as Record<string, unknown>),
);

function oneOf(values: readonly string[], allowEmpty = false) {
  const allowed = allowEmpty ? ['', ...values] : values;
  return z.unknown().superRefine((v, ctx: Ctx) => {
    if (typeof v !== 'string' || !allowed.includes(v)) {
      ctx.addIssue({
        code: 'custom',
        message: `Unsupported value: ${JSON.stringify(v)}: supported values: ${values.map((x) => `"${x}"`).join(', ')}`,
      });
    }
  });
}

export const labelSelectorSchema = z
  .looseObject({
    matchLabels: stringMap,
    matchExpressions: z
      .array(z.looseObject({ key: str, operator: str, values: z.array(str).nullish() }))
      .nullish(),
  })
  .nullish()
  .superRefine((v, ctx: Ctx) => {
    if (!v) return;
    try {
      selectorFromLabelSelector(v as LabelSelector);
    } catch (e) {
      if (!(e instanceof LabelSelectorError)) throw e;
      ctx.addIssue({ code: 'custom', message: e.detail, path: pathSegments(e.field) });
    }
  });

const nodeSelectorRequirement = z.looseObject({
  key: str,
  operator: oneOf(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
  values: z.array(str).nullish(),
});
const nodeFieldRequirement = z.looseObject({
  key: str,
  operator: oneOf(['In', 'NotIn']),
  values: z.array(str).nullish(),
});
const nodeSelectorTerm = z.looseObject({
  matchExpressions: z.array(nodeSelectorRequirement).nullish(),
  matchFields: z.array(nodeFieldRequirement).nullish(),
});
export const nodeSelectorSchema = z.looseObject({ nodeSelectorTerms: z.array(nodeSelectorTerm) });

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

const toleration = z
  .looseObject({
    key: optStr,
    operator: oneOf(['Exists', 'Equal'], true).nullish(),
    value: optStr,
    effect: oneOf(TAINT_EFFECTS, true).nullish(),
    tolerationSeconds: int.nullish(),
  })
  .superRefine((t, ctx: Ctx) => {
    if (t.operator === 'Exists' && t.value) {
      ctx.addIssue({
        code: 'custom',
        message: `Invalid value: "${t.value}": value must be empty when \`operator\` is 'Exists'`,
        path: ['operator'],
      });
    }
    if (!t.key && t.operator !== 'Exists') {
      ctx.addIssue({
        code: 'custom',
        message: `Invalid value: "${t.operator ?? ''}": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
        path: ['operator'],
      });
    }
  });

export const taintSchema = z.looseObject({ key: str.min(1), value: optStr, effect: oneOf(TAINT_EFFECTS) });

const podAffinityTerm = z.looseObject({
  labelSelector: labelSelectorSchema,
  namespaceSelector: labelSelectorSchema,
  namespaces: z.array(str).nullish(),
  topologyKey: str.min(1),
});
const weightedPodAffinityTerm = z.looseObject({ weight: int.min(1).max(100), podAffinityTerm });
const podAffinity = z
  .looseObject({
    requiredDuringSchedulingIgnoredDuringExecution: z.array(podAffinityTerm).nullish(),
    preferredDuringSchedulingIgnoredDuringExecution: z.array(weightedPodAffinityTerm).nullish(),
  })
  .nullish();

const affinity = z
  .looseObject({
    nodeAffinity: z
      .looseObject({
        requiredDuringSchedulingIgnoredDuringExecution: nodeSelectorSchema.nullish(),
        preferredDuringSchedulingIgnoredDuringExecution: z
          .array(z.looseObject({ weight: int.min(1).max(100), preference: nodeSelectorTerm }))
          .nullish(),
      })
      .nullish(),
    podAffinity,
    podAntiAffinity: podAffinity,
  })
  .nullish();

const topologySpreadConstraint = z.looseObject({
  maxSkew: int.min(1),
  topologyKey: str.min(1),
  whenUnsatisfiable: oneOf(['DoNotSchedule', 'ScheduleAnyway']),
  labelSelector: labelSelectorSchema,
  minDomains: int.min(1).nullish(),
  nodeAffinityPolicy: oneOf(['Honor', 'Ignore']).nullish(),
  nodeTaintsPolicy: oneOf(['Honor', 'Ignore']).nullish(),
  matchLabelKeys: z.array(str).nullish(),
});

const resources = z.looseObject({ requests: resourceList, limits: resourceList }).nullish();

const containerPort = z.looseObject({
  containerPort: int.min(1).max(65535),
  hostPort: int.min(0).max(65535).nullish(),
  protocol: oneOf(['TCP', 'UDP', 'SCTP']).nullish(),
  hostIP: optStr,
});

const container = z.looseObject({
  name: str.min(1),
  resources,
  ports: z.array(containerPort).nullish(),
  restartPolicy: oneOf(['Always']).nullish(),
});

export const podSpecSchema = z.looseObject({
  containers: z.array(container).min(1),
  initContainers: z.array(container).nullish(),
  overhead: resourceList,
  resources,
  nodeSelector: stringMap,
  nodeName: optStr,
  schedulerName: optStr,
  priority: int.nullish(),
  priorityClassName: optStr,
  preemptionPolicy: oneOf(['PreemptLowerPriority', 'Never']).nullish(),
  tolerations: z.array(toleration).nullish(),
  affinity,
  topologySpreadConstraints: z.array(topologySpreadConstraint).nullish(),
});

export const metadataSchema = z.looseObject({
  name: str.min(1),
  namespace: optStr,
  labels: stringMap,
  annotations: stringMap,
});

const podTemplate = z.looseObject({
  metadata: z.looseObject({ labels: stringMap }).nullish(),
  spec: podSpecSchema,
});
const workloadSpec = z.looseObject({ selector: labelSelectorSchema, template: podTemplate.nullish() });

/** Per-kind schema for the object body (metadata is checked separately). */
export const KIND_SCHEMAS: Record<string, z.ZodType> = {
  Pod: z.looseObject({ spec: podSpecSchema }),
  Node: z.looseObject({
    spec: z
      .looseObject({ taints: z.array(taintSchema).nullish(), unschedulable: z.boolean().nullish() })
      .nullish(),
    status: z.looseObject({ capacity: resourceList, allocatable: resourceList }).nullish(),
  }),
  PersistentVolumeClaim: z.looseObject({
    spec: z
      .looseObject({
        resources: z.looseObject({ requests: resourceList }).nullish(),
        selector: labelSelectorSchema,
      })
      .nullish(),
  }),
  PersistentVolume: z.looseObject({
    spec: z
      .looseObject({
        capacity: resourceList,
        nodeAffinity: z.looseObject({ required: nodeSelectorSchema.nullish() }).nullish(),
      })
      .nullish(),
  }),
  PriorityClass: z.looseObject({
    value: int,
    preemptionPolicy: oneOf(['PreemptLowerPriority', 'Never']).nullish(),
  }),
  PodDisruptionBudget: z.looseObject({ spec: z.looseObject({ selector: labelSelectorSchema }).nullish() }),
  Service: z.looseObject({ spec: z.looseObject({ selector: stringMap }).nullish() }),
  ReplicationController: z.looseObject({
    spec: z.looseObject({ selector: stringMap, template: podTemplate.nullish() }).nullish(),
  }),
  ReplicaSet: z.looseObject({ spec: workloadSpec }),
  Deployment: z.looseObject({ spec: workloadSpec }),
  StatefulSet: z.looseObject({ spec: workloadSpec }),
  DaemonSet: z.looseObject({ spec: workloadSpec }),
  Job: z.looseObject({ spec: workloadSpec }),
  CronJob: z.looseObject({ spec: z.looseObject({ jobTemplate: z.looseObject({ spec: workloadSpec }) }) }),
  StorageClass: z.looseObject({
    provisioner: str.min(1),
    reclaimPolicy: oneOf(['Delete', 'Retain']).nullish(),
    volumeBindingMode: oneOf(['Immediate', 'WaitForFirstConsumer']).nullish(),
  }),
  CSIStorageCapacity: z.looseObject({
    storageClassName: str.min(1),
    nodeTopology: labelSelectorSchema,
    capacity: quantitySchema.nullish(),
    maximumVolumeSize: quantitySchema.nullish(),
  }),
  LimitRange: z.looseObject({
    spec: z.looseObject({
      limits: z.array(
        z.looseObject({
          max: resourceList,
          min: resourceList,
          default: resourceList,
          defaultRequest: resourceList,
          maxLimitRequestRatio: resourceList,
        }),
      ),
    }),
  }),
  ResourceQuota: z.looseObject({ spec: z.looseObject({ hard: resourceList }).nullish() }),
  RuntimeClass: z.looseObject({
    handler: str.min(1),
    overhead: z.looseObject({ podFixed: resourceList }).nullish(),
  }),
  Namespace: z.looseObject({}),
  CSINode: z.looseObject({}),
  CSIDriver: z.looseObject({}),
  // resource.k8s.io (DRA): the scheduler reads claims' requests and allocations, slices' nodes.
  ResourceClaim: z.looseObject({
    spec: z
      .looseObject({
        devices: z
          .looseObject({ requests: z.array(z.looseObject({ name: str.min(1) })).nullish() })
          .nullish(),
      })
      .nullish(),
    status: z
      .looseObject({ allocation: z.looseObject({ nodeSelector: nodeSelectorSchema.nullish() }).nullish() })
      .nullish(),
  }),
  // The resourceclaim controller copies spec.metadata and spec.spec into each generated claim.
  ResourceClaimTemplate: z.looseObject({
    spec: z.looseObject({ spec: z.looseObject({}).nullish() }).nullish(),
  }),
  DeviceClass: z.looseObject({}),
  // DRADeviceTaintRules: one taint for the devices the selector picks (driver, pool, device).
  DeviceTaintRule: z.looseObject({
    spec: z.looseObject({
      deviceSelector: z.looseObject({}).nullish(),
      taint: z.looseObject({ key: str.min(1), effect: str.min(1) }),
    }),
  }),
  ResourceSlice: z.looseObject({
    spec: z
      .looseObject({
        nodeName: str.nullish(),
        allNodes: z.boolean().nullish(),
        nodeSelector: nodeSelectorSchema.nullish(),
      })
      .nullish(),
  }),
};
