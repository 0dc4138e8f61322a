/**
 * The claims workloads create: a StatefulSet's volumeClaimTemplates (`<template>-<set>-<ordinal>`,
 * labelled with the set's selector) with the pods that use them, and a pod's generic ephemeral
 * volumes (`<pod>-<volume>`, owned by the pod).
 */
import { namespaceOf } from '@schedlab/k8s';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '@schedlab/k8s';
import type { ClusterObjects } from '@schedlab/scheduler';
import { volumeBinding } from '@schedlab/scheduler';
import type { StorageObjectError } from './pv-controller';

const h = volumeBinding.pvHelpers;

export interface RetentionPolicy {
  whenDeleted: 'Retain' | 'Delete';
  whenScaled: 'Retain' | 'Delete';
}

/** persistentVolumeClaimRetentionPolicy with its defaults (Retain, Retain). */
export function retentionPolicy(sts: StatefulSet): RetentionPolicy {
  const p = sts.spec?.persistentVolumeClaimRetentionPolicy;
  return {
    whenDeleted: p?.whenDeleted === 'Delete' ? 'Delete' : 'Retain',
    whenScaled: p?.whenScaled === 'Delete' ? 'Delete' : 'Retain',
  };
}

export function statefulSetClaimName(template: string, sts: StatefulSet, ordinal: number): string {
  return `${template}-${sts.metadata?.name ?? ''}-${ordinal}`;
}

/** The claims of one replica, from the set's volumeClaimTemplates. */
export function statefulSetClaims(sts: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  const ns = namespaceOf(sts);
  const selectorLabels = sts.spec?.selector?.matchLabels ?? {};
  return (sts.spec?.volumeClaimTemplates ?? []).map((t) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      ...(t.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
      name: statefulSetClaimName(t.metadata?.name ?? '', sts, ordinal),
      namespace: ns,
      labels: { ...t.metadata?.labels, ...selectorLabels },
    },
    spec: JSON.parse(JSON.stringify(t.spec ?? {})),
  }));
}

/** Pods `<set>-0` … `<set>-<replicas-1>` from the template, each using its own claims. */
export function podsOfStatefulSet(sts: StatefulSet, replicas: number): Pod[] {
  const name = sts.metadata?.name ?? '';
  const ns = namespaceOf(sts);
  const pods: Pod[] = [];
  for (let i = 0; i < replicas; i++) {
    const template = JSON.parse(JSON.stringify(sts.spec?.template ?? {}));
    const claimVolumes = (sts.spec?.volumeClaimTemplates ?? []).map((t) => ({
      name: t.metadata?.name ?? '',
      persistentVolumeClaim: { claimName: statefulSetClaimName(t.metadata?.name ?? '', sts, i) },
    }));
    const others = (template.spec?.volumes ?? []).filter(
      (v: { name: string }) => !claimVolumes.some((c) => c.name === v.name),
    );
    pods.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...template.metadata,
        name: `${name}-${i}`,
        namespace: ns,
        uid: `uid-pod-${ns}-${name}-${i}`,
        labels: { ...template.metadata?.labels, 'statefulset.kubernetes.io/pod-name': `${name}-${i}` },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'StatefulSet',
            name,
            uid: sts.metadata?.uid ?? `uid-sts-${ns}-${name}`,
            controller: true,
          },
        ],
      },
      spec: {
        ...template.spec,
        hostname: `${name}-${i}`,
        ...(sts.spec?.serviceName ? { subdomain: sts.spec.serviceName } : {}),
        volumes: [...others, ...claimVolumes],
      },
    });
  }
  return pods;
}

/**
 * The claims of a pod's generic ephemeral volumes, owned by the pod. An existing claim of that
 * name not owned by the pod is an error (the pod cannot use it).
 */
export function ephemeralClaimsOf(
  pod: Pod,
  objects: ClusterObjects,
): { claims: PersistentVolumeClaim[]; errors: StorageObjectError[] } {
  const ns = namespaceOf(pod);
  const claims: PersistentVolumeClaim[] = [];
  const errors: StorageObjectError[] = [];
  for (const vol of pod.spec?.volumes ?? []) {
    const template = vol.ephemeral?.volumeClaimTemplate;
    if (!template) continue;
    const name = `${pod.metadata?.name ?? ''}-${vol.name}`;
    const existing = objects.persistentVolumeClaims.get(ns, name);
    if (existing) {
      const err = h.ephemeralClaimOwnershipError(pod, existing);
      if (err)
        errors.push({
          kind: 'Pod',
          namespace: ns,
          name: pod.metadata?.name ?? '',
          field: `spec.volumes[${vol.name}].ephemeral`,
          message: err,
        });
      continue;
    }
    claims.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
        ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
        name,
        namespace: ns,
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'Pod',
            name: pod.metadata?.name ?? '',
            uid: pod.metadata?.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: JSON.parse(JSON.stringify(template.spec)),
    });
  }
  return { claims, errors };
}
