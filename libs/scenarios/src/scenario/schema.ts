/**
 * The scenario format: an ordered list of what-if operations applied to a cluster snapshot.
 * Each step is a one-key object (`{ drain: {...} }`) so that YAML reads like a runbook. The zod
 * schema is the single source of truth; docs/scenario.schema.json is generated from it.
 */
import { z } from 'zod';

const quantity = z.union([z.string(), z.number()]);
const resourceList = z.record(z.string(), quantity);
const labels = z.record(z.string(), z.string());

export const taintInputSchema = z.strictObject({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
});

/** Which nodes a step addresses: a list of names, or names and/or a label selector ("pool=gpu,!spot"). */
export const nodeSelectionSchema = z.union([
  z.array(z.string().min(1)).min(1),
  z.strictObject({
    names: z.array(z.string().min(1)).optional(),
    selector: z
      .string()
      .optional()
      .describe('Label selector in kubectl syntax: k=v, k!=v, k, !k, k in (a,b), k notin (a,b)'),
  }),
]);

/** A kind of node that can be added (addNodes) or bought (nodes-needed). */
export const nodeTemplateSchema = z.strictObject({
  name: z.string().min(1),
  labels: labels.optional(),
  taints: z.array(taintInputSchema).optional(),
  /** status.allocatable (and capacity) of each node made from the template. */
  allocatable: resourceList,
  /** Price per node-hour, used by nodes-needed. */
  hourlyPrice: z.number().nonnegative().optional(),
  /**
   * The CSI drivers the kubelet registers in each node's CSINode: their attachable-volume limit
   * (NodeVolumeLimits counts against it; absent: no limit) and topology keys.
   */
  csiDrivers: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        allocatableCount: z.number().int().nonnegative().optional(),
        topologyKeys: z.array(z.string().min(1)).optional(),
      }),
    )
    .optional(),
});

const addNodes = z.strictObject({
  count: z.number().int().positive(),
  /** Nodes are named `<namePrefix>-<k>`, k counting up from the first free index. */
  namePrefix: z.string().min(1).optional(),
  /** A template from the scenario's nodeTemplates, or... */
  template: z.string().optional(),
  /** ...an existing node to copy (labels, taints, allocatable, capacity). */
  cloneOf: z.string().optional(),
  zone: z.string().optional(),
  labels: labels.optional(),
  taints: z.array(taintInputSchema).optional(),
  allocatable: resourceList.optional(),
});

const nodesOnly = z.strictObject({ nodes: nodeSelectionSchema });

const drain = z.strictObject({
  nodes: nodeSelectionSchema,
  /** false: delete instead of evict (kubectl drain --disable-eviction); PDB violations are still reported. */
  respectPodDisruptionBudgets: z.boolean().optional(),
});

const taint = z.strictObject({ nodes: nodeSelectionSchema, taints: z.array(taintInputSchema).min(1) });
const untaint = z.strictObject({
  nodes: nodeSelectionSchema,
  /** Taints to remove by key, optionally restricted to an effect. */
  taints: z
    .array(
      z.strictObject({
        key: z.string().min(1),
        effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
      }),
    )
    .min(1),
});
const label = z.strictObject({ nodes: nodeSelectionSchema, labels });
const unlabel = z.strictObject({ nodes: nodeSelectionSchema, keys: z.array(z.string().min(1)).min(1) });

const zoneOutage = z.strictObject({
  zone: z.string().min(1),
  /** unreachable (kubelet stopped reporting, Ready=Unknown; the default) or not-ready (Ready=False). */
  condition: z.enum(['unreachable', 'not-ready']).optional(),
});

const objectRef = z.strictObject({
  kind: z.string().min(1),
  namespace: z.string().optional(),
  name: z.string().min(1).optional(),
  /** Label selector (kubectl syntax) instead of a name. */
  selector: z.string().optional(),
});

const scale = z.strictObject({
  kind: z.enum(['ReplicaSet', 'StatefulSet', 'ReplicationController', 'Deployment']),
  namespace: z.string().optional(),
  name: z.string().min(1),
  replicas: z.number().int().nonnegative(),
});

const setProfile = z.strictObject({
  /** A KubeSchedulerConfiguration (object or YAML/JSON text). */
  schedulerConfiguration: z.unknown().optional(),
  compatibilityVersion: z.string().optional(),
  featureGates: z.record(z.string(), z.boolean()).optional(),
});

/** A namespaced object by name (namespace defaults to "default"). */
const namespacedName = z.strictObject({ namespace: z.string().optional(), name: z.string().min(1) });

const deleteNamespace = z.strictObject({ name: z.string().min(1) });

const setReclaimPolicy = z.strictObject({
  /**
   * A StorageClass: its reclaimPolicy is immutable, so the update is refused as the API server
   * refuses it, unless `replace` (delete and create, as `kubectl replace --force`); either way the
   * volumes it already provisioned keep the policy they were provisioned with.
   */
  storageClass: z.string().min(1).optional(),
  replace: z.boolean().optional(),
  /** A PersistentVolume: its persistentVolumeReclaimPolicy can be patched (`kubectl patch pv`). */
  volume: z.string().min(1).optional(),
  reclaimPolicy: z.enum(['Retain', 'Delete']),
});

const expandPVC = z.strictObject({
  namespace: z.string().optional(),
  name: z.string().min(1),
  /** The new spec.resources.requests.storage, e.g. "100Gi". */
  storage: z.string().min(1),
});

const setStorageCapacity = z.strictObject({
  /** The class whose CSI driver publishes the capacity (CSIStorageCapacity.storageClassName). */
  storageClass: z.string().min(1),
  /** The topology segment: nodes of this zone (the driver's zone key). Absent: every object of the class. */
  zone: z.string().min(1).optional(),
  capacity: quantity,
  maximumVolumeSize: quantity.optional(),
  /** The object to create when none matches (default: kube-system/<storageClass>-<zone>). */
  namespace: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
});

const advanceTime = z.strictObject({ seconds: z.number().int().nonnegative() });

const apply = z.strictObject({
  /** YAML or JSON text with one or more objects. */
  manifests: z.string().optional(),
  objects: z.array(z.record(z.string(), z.unknown())).optional(),
});

const deschedule = z.strictObject({
  /**
   * A DeschedulerPolicy (descheduler/v1alpha2) as an object or YAML/JSON text. The CLI also takes
   * `policyFile`, a path relative to the scenario file, and inlines it here when it reads the file.
   */
  policy: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
  policyFile: z.string().min(1).optional(),
  /** Descheduling rounds at most (default 1); they stop once one evicts nothing. */
  rounds: z.number().int().min(1).max(100).optional(),
  /** The descheduler's clock (RFC 3339); default the cluster's newest timestamp, or later by advanceTime. */
  now: z.string().optional(),
  /** Seconds between rounds (default 300). */
  intervalSeconds: z.number().int().min(1).optional(),
});

export const STEP_SCHEMAS = {
  addNodes,
  removeNodes: nodesOnly,
  cordon: nodesOnly,
  uncordon: nodesOnly,
  drain,
  taint,
  untaint,
  label,
  unlabel,
  zoneOutage,
  delete: objectRef,
  deletePod: namespacedName,
  deletePVC: namespacedName,
  deleteNamespace,
  setReclaimPolicy,
  expandPVC,
  setStorageCapacity,
  nodeLoss: nodesOnly,
  scale,
  setProfile,
  advanceTime,
  apply,
  deschedule,
} as const;

export type StepKind = keyof typeof STEP_SCHEMAS;
export const STEP_KINDS = Object.keys(STEP_SCHEMAS) as StepKind[];

export const stepSchema = z.union(
  STEP_KINDS.map((k) => z.strictObject({ [k]: STEP_SCHEMAS[k] } as Record<string, z.ZodType>)) as unknown as [
    z.ZodType,
    z.ZodType,
    ...z.ZodType[],
  ],
);

export const scenarioSchema = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
  nodeTemplates: z.array(nodeTemplateSchema).optional(),
  steps: z.array(stepSchema),
});

export type TaintInput = z.infer<typeof taintInputSchema>;
export type NodeSelection = z.infer<typeof nodeSelectionSchema>;
export type NodeTemplate = z.infer<typeof nodeTemplateSchema>;
export type StepArgs = { [K in StepKind]: z.infer<(typeof STEP_SCHEMAS)[K]> };
export type Step = { [K in StepKind]: { [P in K]: StepArgs[K] } }[StepKind];
export interface Scenario {
  name?: string;
  description?: string;
  nodeTemplates?: NodeTemplate[];
  steps: Step[];
}

/** The published JSON Schema of a scenario file. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(scenarioSchema, { unrepresentable: 'any' }) as Record<string, unknown>;
}
