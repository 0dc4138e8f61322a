// Public API of @schedlab/storage: the PV controller, storage lifecycle and storage summaries around the scheduler.
export * from './events';
export * from './topology';
export * from './capacity';
export {
  findBestMatchForClaim,
  bindClaimToVolume,
  provisionedVolume,
  syncClaim,
  syncVolume,
  reclaimVolume,
  isDynamicallyProvisioned,
  seededIndex,
  ANN_PROVISIONED_BY,
  ANN_STORAGE_PROVISIONER,
  ANN_BETA_STORAGE_PROVISIONER,
  type ControllerOptions,
  type ControllerContext,
  type StorageObjectError,
  type VolumeFate,
} from './pv-controller';
export { resizeClaim, type ResizeOutcome } from './resize';
export * from './workload-claims';
export {
  StorageState,
  type DataLossReport,
  type PhaseSnapshot,
  type TimelineStep,
  type StorageStateOptions,
} from './storage-state';
export * from './summary';
export { settleImmediateClaims, type SettledClaims } from './settle';
export * from './lifecycle';
