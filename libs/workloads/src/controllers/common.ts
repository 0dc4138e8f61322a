// Shared controller plumbing: owner references and pods stamped out of a pod template.
import type { Labels, ObjectMeta, OwnerReference, Pod, PodSpec } from '@schedlab/k8s';
import { namespaceOf, type RandomInt } from '@schedlab/k8s';
import { deterministicUid, generateName } from '../naming';

export interface WorkloadObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export interface PodTemplate {
  metadata?: ObjectMeta;
  spec?: PodSpec;
}

/** Error in a workload object, naming it and the offending field. */
export class WorkloadError extends Error {
  constructor(
    readonly object: string,
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${object}: ${field}: ${detail}`);
    this.name = 'WorkloadError';
  }
}

export function describe(obj: WorkloadObject): string {
  const ns = namespaceOf(obj);
  return `${obj.kind ?? '<no kind>'} ${ns}/${obj.metadata?.name ?? '<unnamed>'}`;
}

export { namespaceOf };

export function nameOf(obj: WorkloadObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new WorkloadError(describe(obj), 'metadata.name', 'Required value: name is required');
  return name;
}

/** The object's uid, or a deterministic one when the manifest has none (as it will not). */
export function uidOf(obj: WorkloadObject): string {
  return obj.metadata?.uid ?? deterministicUid(obj.kind ?? '', namespaceOf(obj), nameOf(obj));
}

/** metav1.NewControllerRef: the reference a controller puts on what it creates. */
export function controllerRef(owner: WorkloadObject, apiVersion: string): OwnerReference {
  return {
    apiVersion,
    kind: owner.kind ?? '',
    name: nameOf(owner),
    uid: uidOf(owner),
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Ensures the object carries the uid its children's owner references name. */
export function withUid<T extends WorkloadObject>(obj: T): T {
  if (obj.metadata?.uid) return obj;
  return { ...obj, metadata: { ...obj.metadata, uid: uidOf(obj) } };
}

export function requireTemplate(
  obj: WorkloadObject,
  template: PodTemplate | undefined | null,
  field = 'spec.template',
): PodTemplate {
  if (!template) throw new WorkloadError(describe(obj), field, 'Required value');
  if (!template.spec?.containers?.length)
    throw new WorkloadError(describe(obj), `${field}.spec.containers`, 'Required value');
  return template;
}

export function replicasOf(
  obj: WorkloadObject,
  replicas: number | undefined | null,
  field = 'spec.replicas',
): number {
  const n = replicas ?? 1;
  if (!Number.isInteger(n) || n < 0)
    throw new WorkloadError(describe(obj), field, `Invalid value: ${n}: must be greater than or equal to 0`);
  return n;
}

export interface PodFromTemplateOptions {
  namespace: string;
  owner: OwnerReference;
  /** Fixed name (StatefulSet); otherwise the API server generates one from `generateNamePrefix`. */
  name?: string;
  generateNamePrefix?: string;
  extraLabels?: Labels;
  extraAnnotations?: Record<string, string>;
  random: RandomInt;
}

/** controller.GetPodFromTemplate plus the name the API server assigns. */
export function podFromTemplate(template: PodTemplate, o: PodFromTemplateOptions): Pod {
  const t = structuredClone(template);
  const labels = { ...(t.metadata?.labels ?? {}), ...(o.extraLabels ?? {}) };
  const annotations = { ...(t.metadata?.annotations ?? {}), ...(o.extraAnnotations ?? {}) };
  const metadata: ObjectMeta & { uid?: string } = {
    namespace: o.namespace,
    labels,
    ownerReferences: [o.owner],
  };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (t.metadata?.finalizers) metadata.finalizers = t.metadata.finalizers;
  if (o.name) metadata.name = o.name;
  else {
    const prefix = o.generateNamePrefix ?? `${o.owner.name}-`;
    metadata.generateName = prefix;
    metadata.name = generateName(prefix, o.random);
  }
  (metadata as { uid?: string }).uid = deterministicUid('Pod', o.namespace, metadata.name!);
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: t.spec as PodSpec };
}
