/**
 * StatefulSet: pods <set>-<ordinal> with stable hostnames and one claim per volumeClaimTemplate
 * (<template>-<set>-<ordinal>). OrderedReady creates ordinal N+1 only once N is running, so the
 * controller is a step machine the caller drives with scheduling results; Parallel creates all.
 */
import type { OwnerReference, PersistentVolumeClaim, Pod, StatefulSet } from '@schedlab/k8s';
import type { Volume } from 'kubernetes-types/core/v1';
import type { RandomInt } from '@schedlab/k8s';
import { deterministicUid } from '../naming';
import {
  WorkloadError,
  controllerRef,
  describe,
  nameOf,
  namespaceOf,
  podFromTemplate,
  replicasOf,
  requireTemplate,
  uidOf,
  withUid,
} from './common';
import { computeHash } from './hash';

export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';

export interface StatefulSetOptions {
  random: RandomInt;
  /** Adds apps.kubernetes.io/pod-index (PodIndexLabel, on from v1.28). Default true. */
  podIndexLabel?: boolean;
}

type RetentionPolicy = 'Retain' | 'Delete';

export interface StatefulSetStep {
  /** Pods to create now. */
  create: Pod[];
  /** Claims created with them (claims that already exist are not recreated). */
  claims: PersistentVolumeClaim[];
  /** Names of pods deleted by a scale-down, highest ordinal first. */
  deletePods: string[];
  /** Claims removed with them (whenScaled: Delete); Retain keeps them. */
  deleteClaims: string[];
}

export class StatefulSetController {
  readonly set: StatefulSet;
  private readonly name: string;
  private readonly namespace: string;
  private readonly start: number;
  private readonly parallel: boolean;
  private replicas: number;
  /** ordinal → state of the pod the controller created. */
  private readonly pods = new Map<number, 'pending' | 'running' | 'failed'>();
  private readonly claimNames = new Set<string>();
  private readonly revision: string;

  constructor(
    set: StatefulSet,
    private readonly opts: StatefulSetOptions,
  ) {
    this.set = withUid({ ...set, kind: 'StatefulSet' as const });
    this.name = nameOf(this.set);
    this.namespace = namespaceOf(this.set);
    requireTemplate(this.set, set.spec?.template);
    this.replicas = replicasOf(this.set, set.spec?.replicas);
    this.start = set.spec?.ordinals?.start ?? 0;
    const policy = set.spec?.podManagementPolicy ?? 'OrderedReady';
    if (policy !== 'OrderedReady' && policy !== 'Parallel') {
      throw new WorkloadError(
        describe(this.set),
        'spec.podManagementPolicy',
        `Unsupported value: "${policy}": supported values: "OrderedReady", "Parallel"`,
      );
    }
    this.parallel = policy === 'Parallel';
    this.revision = `${this.name}-${computeHash(set.spec?.template)}`;
  }

  podName(ordinal: number): string {
    return `${this.name}-${ordinal}`;
  }

  claimName(template: string, ordinal: number): string {
    return `${template}-${this.name}-${ordinal}`;
  }

  private retention(field: 'whenDeleted' | 'whenScaled'): RetentionPolicy {
    return (
      (this.set.spec?.persistentVolumeClaimRetentionPolicy?.[field] as RetentionPolicy | undefined) ??
      'Retain'
    );
  }

  private ordinals(): number[] {
    return Array.from({ length: this.replicas }, (_, i) => this.start + i);
  }

  private newPod(ordinal: number): Pod {
    const name = this.podName(ordinal);
    const labels: Record<string, string> = {
      [CONTROLLER_REVISION_HASH_LABEL]: this.revision,
      [STATEFULSET_POD_NAME_LABEL]: name,
    };
    if (this.opts.podIndexLabel !== false) labels[POD_INDEX_LABEL] = String(ordinal);
    const pod = podFromTemplate(this.set.spec!.template, {
      namespace: this.namespace,
      owner: controllerRef(this.set, 'apps/v1'),
      name,
      extraLabels: labels,
      random: this.opts.random,
    });
    const spec = pod.spec!;
    spec.hostname = name;
    if (this.set.spec?.serviceName) spec.subdomain = this.set.spec.serviceName;
    const claimVolumes: Volume[] = (this.set.spec?.volumeClaimTemplates ?? []).map((t) => ({
      name: t.metadata?.name ?? '',
      persistentVolumeClaim: { claimName: this.claimName(t.metadata?.name ?? '', ordinal) },
    }));
    // A claim template replaces a template volume of the same name.
    const kept = (spec.volumes ?? []).filter((v) => !claimVolumes.some((c) => c.name === v.name));
    if (claimVolumes.length > 0 || spec.volumes) spec.volumes = [...claimVolumes, ...kept];
    return pod;
  }

  private newClaims(ordinal: number): PersistentVolumeClaim[] {
    const out: PersistentVolumeClaim[] = [];
    (this.set.spec?.volumeClaimTemplates ?? []).forEach((t, i) => {
      const templateName = t.metadata?.name;
      if (!templateName)
        throw new WorkloadError(
          describe(this.set),
          `spec.volumeClaimTemplates[${i}].metadata.name`,
          'Required value',
        );
      const name = this.claimName(templateName, ordinal);
      if (this.claimNames.has(name)) return;
      this.claimNames.add(name);
      const claim = structuredClone(t) as PersistentVolumeClaim;
      const selectorLabels = this.set.spec?.selector?.matchLabels ?? {};
      const ownerReferences: OwnerReference[] = [];
      if (this.retention('whenDeleted') === 'Delete') {
        // v1.26 sets a plain (non-controller) reference so deleting the set deletes the claim.
        ownerReferences.push({
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: this.name,
          uid: uidOf(this.set),
          blockOwnerDeletion: true,
        });
      }
      claim.apiVersion = 'v1';
      claim.kind = 'PersistentVolumeClaim';
      claim.metadata = {
        ...(claim.metadata ?? {}),
        name,
        namespace: this.namespace,
        labels: { ...(claim.metadata?.labels ?? {}), ...selectorLabels },
        uid: deterministicUid('PersistentVolumeClaim', this.namespace, name),
      };
      if (ownerReferences.length > 0) claim.metadata.ownerReferences = ownerReferences;
      out.push(claim);
    });
    return out;
  }

  private emptyStep(): StatefulSetStep {
    return { create: [], claims: [], deletePods: [], deleteClaims: [] };
  }

  /**
   * What the controller creates now. OrderedReady: the lowest missing ordinal, and only when every
   * lower ordinal is running (a failed or pending predecessor halts the set). Parallel: all missing.
   */
  step(): StatefulSetStep {
    const out = this.emptyStep();
    for (const ordinal of this.ordinals()) {
      const state = this.pods.get(ordinal);
      if (state === undefined) {
        out.claims.push(...this.newClaims(ordinal));
        out.create.push(this.newPod(ordinal));
        this.pods.set(ordinal, 'pending');
        if (!this.parallel) break;
      } else if (!this.parallel && state !== 'running') {
        break;
      }
    }
    return out;
  }

  /** Reports the scheduling result of one of the set's pods. */
  observe(podName: string, scheduled: boolean): void {
    const ordinal = this.ordinalOf(podName);
    if (ordinal === undefined || !this.pods.has(ordinal)) {
      throw new WorkloadError(
        describe(this.set),
        'pods',
        `pod ${podName} does not belong to this StatefulSet`,
      );
    }
    this.pods.set(ordinal, scheduled ? 'running' : 'failed');
  }

  /** A deleted pod is recreated under the same name by the next step. */
  podDeleted(podName: string): void {
    const ordinal = this.ordinalOf(podName);
    if (ordinal !== undefined) this.pods.delete(ordinal);
  }

  ordinalOf(podName: string): number | undefined {
    const prefix = `${this.name}-`;
    if (!podName.startsWith(prefix)) return undefined;
    const rest = podName.slice(prefix.length);
    return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
  }

  /** True when every wanted ordinal exists and none is waiting to be scheduled. */
  settled(): boolean {
    return (
      this.ordinals().every((o) => this.pods.get(o) === 'running') ||
      [...this.pods.values()].some((s) => s === 'failed' && !this.parallel)
    );
  }

  /** Changes spec.replicas; scaling down removes the highest ordinals first (created by later steps when scaling up). */
  scale(replicas: number): StatefulSetStep {
    const out = this.emptyStep();
    this.replicas = replicasOf(this.set, replicas);
    const wanted = new Set(this.ordinals());
    const condemned = [...this.pods.keys()].filter((o) => !wanted.has(o)).sort((a, b) => b - a);
    for (const ordinal of condemned) {
      this.pods.delete(ordinal);
      out.deletePods.push(this.podName(ordinal));
      if (this.retention('whenScaled') === 'Delete') {
        for (const t of this.set.spec?.volumeClaimTemplates ?? []) {
          const claim = this.claimName(t.metadata?.name ?? '', ordinal);
          this.claimNames.delete(claim);
          out.deleteClaims.push(claim);
        }
      }
    }
    return out;
  }
}
