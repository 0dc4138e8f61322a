// Declarative (zod) shape checks for the kinds Schedlab consumes. They reject what the API server
// would reject in the fields the scheduler reads; everything else passes through untouched.
// The parser runs them only for an object the generated checks (kind-checks.generated.ts, made
// from these schemas) did not pass, to name its first issue: zod loads only then.
import { z } from 'zod';
import {
  labelSelectorProblem,
  oneOfProblem,
  quantityProblem,
  resourceAmountsUsable,
  tolerationProblems,
} from './schema-refinements';
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

export const quantitySchema = refinedAs(
  z.unknown().superRefine((v, ctx: Ctx) => {
    const problem = quantityProblem(v);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  }),
  'quantity',
);

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
  'resourceAmounts',
);

function oneOf(values: readonly string[], allowEmpty = false) {
  return refinedAs(
    z.unknown().superRefine((v, ctx: Ctx) => {
      const problem = oneOfProblem(values, allowEmpty, v);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    }),
    'oneOf',
    values,
    allowEmpty,
  );
}

export const labelSelectorSchema = refinedAs(
  z
    .looseObject({
      matchLabels: stringMap,
      matchExpressions: z
        .array(z.looseObject({ key: str, operator: str, values: z.array(str).nullish() }))
        .nullish(),
    })
    .nullish()
    .superRefine((v, ctx: Ctx) => {
      const problem = labelSelectorProblem(v);
      if (problem)
        ctx.addIssue({ code: 'custom', message: problem.detail, path: pathSegments(problem.field) });
    }),
  'labelSelector',
);

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

const toleration = refinedAs(
  z
    .looseObject({
      key: optStr,
      operator: oneOf(['Exists', 'Equal'], true).nullish(),
      value: optStr,
      effect: oneOf(TAINT_EFFECTS, true).nullish(),
      tolerationSeconds: int.nullish(),
    })
    .superRefine((t, ctx: Ctx) => {
      for (const message of tolerationProblems(t))
        ctx.addIssue({ code: 'custom', message, path: ['operator'] });
    }),
  'toleration',
);

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
