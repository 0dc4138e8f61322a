/**
 * A claim resize request as the API server admits it: validation of the claim update
 * (only bound claims may change their request, never below the previous value), then the
 * PersistentVolumeClaimResize admission plugin (the class must allow volume expansion), in the
 * wording of releases where VolumeAttributesClass is on by default (1.34+).
 * Accepted requests complete at once (the external resizer's work), growing claim and volume.
 */
import { tryParseQuantity, type PersistentVolume, type PersistentVolumeClaim } from '@schedlab/k8s';
import type { ClusterObjects } from '@schedlab/scheduler';
import { volumeBinding } from '@schedlab/scheduler';

const h = volumeBinding.pvHelpers;

export type ResizeOutcome = { claim: PersistentVolumeClaim; volume?: PersistentVolume } | { error: string };

export function resizeClaim(
  objects: ClusterObjects,
  namespace: string,
  name: string,
  storage: string,
): ResizeOutcome {
  const pvc = objects.persistentVolumeClaims.get(namespace, name);
  if (!pvc) return { error: `persistentvolumeclaims "${name}" not found` };
  const wanted = tryParseQuantity(storage);
  if (!wanted)
    return {
      error: `PersistentVolumeClaim "${name}" is invalid: spec.resources.requests.storage: quantity "${storage}" does not parse`,
    };
  const previous = tryParseQuantity((pvc.spec?.resources?.requests?.storage ?? '0') as string);
  if (previous && previous.value() === wanted.value()) return { claim: pvc };
  if (pvc.status?.phase !== 'Bound') {
    return {
      error: `PersistentVolumeClaim "${name}" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims`,
    };
  }
  if (previous && wanted.value() < previous.value()) {
    return {
      error: `PersistentVolumeClaim "${name}" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value`,
    };
  }
  const sc = objects.storageClasses.get(h.claimClass(pvc));
  if (!sc || sc.allowVolumeExpansion !== true) {
    return {
      error: `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
    };
  }
  const claim: PersistentVolumeClaim = JSON.parse(JSON.stringify(pvc));
  claim.spec = {
    ...claim.spec,
    resources: { ...claim.spec?.resources, requests: { ...claim.spec?.resources?.requests, storage } },
  };
  (claim as { status?: PersistentVolumeClaim['status'] }).status = {
    ...claim.status,
    capacity: { ...claim.status?.capacity, storage },
  };
  const pv = objects.persistentVolumes.get(pvc.spec?.volumeName ?? '');
  const volume = pv
    ? { ...pv, spec: { ...pv.spec, capacity: { ...pv.spec?.capacity, storage } } }
    : undefined;
  return { claim, volume };
}
