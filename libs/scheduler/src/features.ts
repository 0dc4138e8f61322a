/**
 * Behaviour that changed between kube-scheduler releases, as named switches.
 * A compatibility version picks the feature-gate defaults and behaviour switches of that
 * release; explicit feature gates override the gate defaults. Plugins read switches by
 * name instead of comparing versions, so each difference lives in exactly one table here.
 */

export const SUPPORTED_VERSIONS = [
  '1.26',
  '1.27',
  '1.28',
  '1.29',
  '1.30',
  '1.31',
  '1.32',
  '1.33',
  '1.34',
  '1.35',
  '1.36',
  '1.37',
] as const;
export type CompatibilityVersion = (typeof SUPPORTED_VERSIONS)[number];
export const NEWEST_VERSION: CompatibilityVersion = '1.37';

/** Feature gates that change scheduling results, and the release whose default turned each on. */
const GATE_DEFAULT_ON_SINCE: Record<string, CompatibilityVersion> = {
  NodeInclusionPolicyInPodTopologySpread: '1.26',
  MinDomainsInPodTopologySpread: '1.27',
  MatchLabelKeysInPodTopologySpread: '1.27',
  PodSchedulingReadiness: '1.27',
  ReadWriteOncePod: '1.27',
  SidecarContainers: '1.29',
  MatchLabelKeysInPodAffinity: '1.31',
  InPlacePodVerticalScaling: '1.33',
  SchedulerAsyncPreemption: '1.33',
  // The scheduling queue's (backend/queue): QueueingHints and the in-flight event record (beta on
  // by default from 1.32), and popping from backoffQ when activeQ is empty (1.33).
  SchedulerQueueingHints: '1.32',
  SchedulerPopFromBackoffQ: '1.33',
  DynamicResourceAllocation: '1.34',
  // Only DynamicResourcesArgs.filterTimeout's defaulting and validation (beta, on from 1.34).
  DRASchedulerFilterTimeout: '1.34',
  PodLevelResources: '1.34',
  InPlacePodLevelResourcesVerticalScaling: '1.36',
  NodeDeclaredFeatures: '1.36',
  DRADeviceTaints: '1.36',
  DRAPartitionableDevices: '1.36',
  DRAConsumableCapacity: '1.36',
  // Extended-resource requests served by DeviceClasses (beta on in 1.36, GA in 1.37).
  DRAExtendedResource: '1.36',
  // With DRAResourceClaimDeviceStatus (on from 1.33, GA 1.37), which Schedlab takes as on.
  DRADeviceBindingConditions: '1.36',
  StorageCapacityScoring: '1.37',
  VolumeLimitScaling: '1.37',
  DRAFractionalCapacityRange: '1.37',
  DRADeviceTaintRules: '1.37',
};

export const KNOWN_FEATURE_GATES = Object.keys(GATE_DEFAULT_ON_SINCE);

/** Behaviour switches: each one a documented difference between releases (docs/compatibility.md). */
export interface BehaviourSwitches {
  /**
   * From 1.28, InterPodAffinity returns Skip from PreScore when no node has anything to score
   * (and with ignorePreferredTermsOfExistingPods and no preferred terms); 1.26/1.27 scored every
   * node 0. TaintToleration never skips (its reversed normalization gives every node 100).
   */
  interPodAffinityPreScoreSkips: boolean;
  /**
   * From 1.30, NodeAffinity returns Skip from PreScore when neither the pod nor the profile's
   * addedAffinity has preferred terms; earlier releases scored every node 0.
   */
  nodeAffinityPreScoreSkips: boolean;
  /**
   * From 1.27, a pod rejected by PreFilter with UnschedulableAndUnresolvable marks every node
   * unresolvable, so preemption reports "Preemption is not helpful"; 1.26 still tried every node.
   */
  preFilterRejectionMarksAllNodesUnresolvable: boolean;
  /** From 1.27, the default profile contains SchedulingGates (PreEnqueue). */
  schedulingGatesInDefaultProfile: boolean;
  /**
   * From 1.27, resource scoring (NodeResourcesFit, BalancedAllocation) adds a pod's cpu overhead in
   * millicores; 1.26 added it as whole cores rounded up (overhead "250m" counted 1 millicore).
   */
  resourceScoringOverheadInMilliCpu: boolean;
  /**
   * From 1.28, NodeResourcesFit checks cpu/memory/ephemeral-storage only when the pod requests them;
   * 1.26 also rejected an over-committed node for a resource the pod requests 0 of.
   */
  fitChecksOnlyRequestedResources: boolean;
  /**
   * From 1.28, NodeResourcesFit's PreFilter refuses a pod with a restartable init container when
   * the SidecarContainers gate is off (default on from 1.29).
   */
  fitRejectsSidecarsWithoutGate: boolean;
  /** From 1.30, ImageLocality counts init containers' images (and their number in the max threshold). */
  imageLocalityCountsInitContainers: boolean;
  /**
   * From 1.27, InterPodAffinity returns Skip from PreFilter when neither the pod nor any existing
   * pod's required anti-affinity concerns it, so its Filter and PreFilter extensions are not run
   * (e.g. for nominated pods added in preemption); 1.26 always ran them.
   */
  interPodAffinityPreFilterSkips: boolean;
  /**
   * From 1.28 (not 1.27), PodTopologySpread returns Skip from PreScore when the pod has no
   * ScheduleAnyway constraints (and from PreFilter without DoNotSchedule ones); 1.26 and 1.27
   * scored every node 0 raw, normalized to 100.
   */
  spreadSkipsWithoutConstraints: boolean;
  /**
   * From 1.27, PodTopologySpread counts no existing pods for a constraint whose selector is empty
   * (`labelSelector: {}`); 1.26 counted every pod of the namespace.
   */
  spreadEmptySelectorCountsNothing: boolean;
  /**
   * From 1.27, matchLabelKeys on a constraint without labelSelector leave it selecting nothing;
   * 1.26 selected by the matchLabelKeys values alone.
   */
  spreadMatchLabelKeysKeepNilSelector: boolean;
  /**
   * From 1.32 (kubernetes#128307), DefaultPreemption sorts a node's victims by importance after
   * reprieving; before, PDB-violating victims came first, and node selection's "highest victim
   * priority" criterion read the first victim, which could be a low-priority one.
   */
  preemptionVictimsSortedByImportance: boolean;
  /**
   * From 1.28 (kubernetes#116938) every node's image summary counts all nodes that have the image;
   * 1.26/1.27 froze the count when the node was added to the cache (nodes added so far).
   */
  imageStatesCountAllNodes: boolean;
  /**
   * From 1.34.2, TaintToleration's Filter says `node(s) had untolerated taint(s)`; up to 1.34.1
   * it named the first untolerated taint, `node(s) had untolerated taint {key: value}`.
   */
  untoleratedTaintWithoutKeyValue: boolean;
  /**
   * From 1.30, VolumeBinding has a PreScore that returns Skip unless it has a scorer
   * (VolumeCapacityPriority / StorageCapacityScoring) and something to score, so it is left out
   * of the scores; 1.26–1.29 scored every node 0 with weight 1.
   */
  volumeBindingPreScoreSkips: boolean;
  /**
   * From 1.31, the default profile has no EBSLimits, GCEPDLimits or AzureDiskLimits (in-tree
   * volume plugins migrated to CSI); NodeVolumeLimits alone counts volumes.
   */
  inTreeVolumeLimitsRemovedFromDefaults: boolean;
  /**
   * From 1.30 (kubernetes#119770), a PreFilter that answers Unschedulable no longer stops the
   * PreFilter phase: later plugins run and the last Unschedulable status is reported, while
   * UnschedulableAndUnresolvable still stops at once. From 1.30 too, a PreFilterResult
   * intersection that leaves no node is UnschedulableAndUnresolvable (before: Unschedulable).
   */
  preFilterContinuesAfterUnschedulable: boolean;
  /** From 1.31, PreFilter messages list the plugins that narrowed the nodes sorted by name (a set). */
  preFilterPluginListSorted: boolean;
  /**
   * From 1.32, nodes left out by a PreFilterResult carry `node(s) didn't satisfy plugin(s) [..]`
   * (UnschedulableAndUnresolvable) and count in the FitError histogram, and a PreFilterResult that
   * leaves no node is UnschedulableAndUnresolvable; preemption's "not helpful" message counts every
   * node (NodeToStatus with an absent-node status).
   */
  nodeToStatusCountsAbsentNodes: boolean;
  /**
   * From 1.27, a ReadWriteOncePod claim in use by another pod fails VolumeRestrictions' Filter on
   * every node with a preemptible Unschedulable status; 1.26 rejected the pod in PreFilter.
   */
  readWriteOncePodConflictInFilter: boolean;
  /**
   * From 1.34 that Filter says `node(s) unavailable due to PersistentVolumeClaim with
   * ReadWriteOncePod access mode already in-use by another pod`; 1.27–1.33 kept `node has pod using
   * PersistentVolumeClaim with the same name and ReadWriteOncePod access mode`.
   */
  readWriteOncePodReasonSaysInUse: boolean;
  /**
   * From 1.33, NodeResourcesBalancedAllocation skips a pod that requests none of its resources
   * (kubernetes#129138), so it contributes nothing to the scores.
   */
  balancedAllocationSkipsBestEffortPods: boolean;
  /** From 1.33.6 and 1.34.0, host ports of restartable init containers (sidecars) count in NodePorts. */
  nodePortsCountSidecarPorts: boolean;
  /** From 1.37, NodeName runs before NodeUnschedulable in the default profile (filter order). */
  nodeNameBeforeNodeUnschedulable: boolean;
  /**
   * From 1.37, a resized pod's requests are the largest of its spec, actuated and allocated
   * totals over all containers; 1.33–1.36 took that maximum per container, for app containers and
   * sidecars whose status reports resources (with InPlacePodVerticalScaling on).
   */
  resizeRequestsAggregatedPerPod: boolean;
  /**
   * From 1.34, NodeResourcesFit's failure is UnschedulableAndUnresolvable when the pod asks for
   * more of a resource than the node's whole allocatable, so preemption skips that node.
   */
  fitUnresolvableBeyondAllocatable: boolean;
  /**
   * From 1.29 the FitError appends PostFilter's message as is (" <msg>"); up to 1.28 it added a
   * period (" <msg>."), which gave preemption messages their double period.
   */
  postFilterMessageWithoutPeriod: boolean;
  /**
   * Up to 1.36, DynamicResources' PostFilter answers "no new claims to deallocate" for a pod
   * without claims, which leads the PostFilter message; from 1.37 it gives no reason.
   */
  draPostFilterWithoutReason: boolean;
  /**
   * From 1.36 (resourceclaim.IsForPod with pod-group owners), a generated claim the pod does not
   * own reads `ResourceClaim ns/c was not created for Pod ns/p (Pod is not owner)`; before,
   * `... for pod ns/p (pod is not owner)`.
   */
  draClaimOwnerMessageCapitalized: boolean;
  /**
   * From 1.36 the resourceclaim controller's podNeedsWork looks past a pod's entries it cannot
   * act on (a claim recorded as not needed, a missing claim the user must create, a generated
   * claim the pod does not own) for a template entry still to generate; before, the first such
   * entry left the whole pod alone.
   */
  draClaimControllerChecksEveryEntry: boolean;
  /**
   * From 1.33, VolumeBinding words a bound volume's node-affinity conflict as `node(s) didn't
   * match PersistentVolume's node affinity` (before: `node(s) had volume node affinity conflict`).
   */
  volumeNodeAffinityReasonNamesPersistentVolume: boolean;
  /**
   * From 1.29 (kubernetes#118923), VolumeZone reads a PV's beta zone or region label against the
   * node's GA label when the node lacks the beta one; 1.26–1.28 required the same key on the node.
   */
  volumeZoneMatchesBetaLabelOnGaNode: boolean;
  /** From 1.36, ImageLocality counts image volumes (`volumes[].image.reference`) like containers. */
  imageLocalityCountsImageVolumes: boolean;
  /**
   * From 1.36, NodeResourcesBalancedAllocation scores how much the pod improves the node's balance
   * (50 + (50 + with − without) / 2) instead of the balance with the pod alone.
   */
  balancedAllocationScoresImprovement: boolean;
  /**
   * From 1.37, a successful preemption answers `preemption: found a potential placement for pod on
   * node N, preempting K victims`, which the failed attempt's FitError then carries.
   */
  preemptionReportsPlacement: boolean;
  /**
   * From 1.33 (kubernetes#128748), the scheduling queue's backoff grows with the attempts plugins
   * rejected, or with the errors in a row after an error; before, with every attempt.
   */
  backoffCountsRejectionsAndErrorsApart: boolean;
}

/** The release each switch started in; a patch ("1.34.2") when upstream changed within a minor. */
const SWITCHES_SINCE: Record<keyof BehaviourSwitches, string> = {
  interPodAffinityPreScoreSkips: '1.28',
  nodeAffinityPreScoreSkips: '1.30',
  preFilterRejectionMarksAllNodesUnresolvable: '1.27',
  schedulingGatesInDefaultProfile: '1.27',
  resourceScoringOverheadInMilliCpu: '1.27',
  fitChecksOnlyRequestedResources: '1.28',
  fitRejectsSidecarsWithoutGate: '1.28',
  imageLocalityCountsInitContainers: '1.30',
  interPodAffinityPreFilterSkips: '1.27',
  spreadSkipsWithoutConstraints: '1.28',
  spreadEmptySelectorCountsNothing: '1.27',
  preemptionVictimsSortedByImportance: '1.32',
  spreadMatchLabelKeysKeepNilSelector: '1.27',
  imageStatesCountAllNodes: '1.28',
  untoleratedTaintWithoutKeyValue: '1.34.2',
  volumeBindingPreScoreSkips: '1.30',
  inTreeVolumeLimitsRemovedFromDefaults: '1.31',
  preFilterContinuesAfterUnschedulable: '1.30',
  preFilterPluginListSorted: '1.31',
  nodeToStatusCountsAbsentNodes: '1.32',
  readWriteOncePodConflictInFilter: '1.27',
  readWriteOncePodReasonSaysInUse: '1.34',
  balancedAllocationSkipsBestEffortPods: '1.33',
  nodePortsCountSidecarPorts: '1.33.6',
  nodeNameBeforeNodeUnschedulable: '1.37',
  resizeRequestsAggregatedPerPod: '1.37',
  fitUnresolvableBeyondAllocatable: '1.34',
  postFilterMessageWithoutPeriod: '1.29',
  draPostFilterWithoutReason: '1.37',
  draClaimOwnerMessageCapitalized: '1.36',
  draClaimControllerChecksEveryEntry: '1.36',
  volumeNodeAffinityReasonNamesPersistentVolume: '1.33',
  volumeZoneMatchesBetaLabelOnGaNode: '1.29',
  imageLocalityCountsImageVolumes: '1.36',
  balancedAllocationScoresImprovement: '1.36',
  preemptionReportsPlacement: '1.37',
  backoffCountsRejectionsAndErrorsApart: '1.33',
};

export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}

/**
 * Whether `release` ("1.34", "1.34.0") is at or after `since` ("1.30", "1.34.2"). A release
 * without a patch stands for the newest patch of its minor; a `since` without one for its first.
 */
export function releaseAtLeast(release: string, since: string): boolean {
  const byMinor = compareVersions(release, since);
  if (byMinor !== 0) return byMinor > 0;
  const patchOf = (v: string, missing: number) => {
    const p = v.split('.')[2];
    return p === undefined ? missing : Number(p);
  };
  return patchOf(release, Infinity) >= patchOf(since, 0);
}

export class FeatureSet {
  readonly gates: Readonly<Record<string, boolean>>;
  readonly behaviour: Readonly<BehaviourSwitches>;

  /** The minor release ("1.34"), for plugin tables keyed by minor. */
  readonly version: CompatibilityVersion;
  /** What was asked for: a minor ("1.34", its newest patch) or a pinned patch ("1.34.0"). */
  readonly release: string;

  constructor(release: string = NEWEST_VERSION, overrides: Record<string, boolean> = {}) {
    this.release = FeatureSet.parseVersion(release);
    this.version = this.release.split('.').slice(0, 2).join('.') as CompatibilityVersion;
    const version = this.version;
    for (const g of Object.keys(overrides)) {
      if (!(g in GATE_DEFAULT_ON_SINCE)) {
        throw new Error(`featureGates.${g}: unknown feature gate (known: ${KNOWN_FEATURE_GATES.join(', ')})`);
      }
    }
    const gates: Record<string, boolean> = {};
    for (const [g, since] of Object.entries(GATE_DEFAULT_ON_SINCE))
      gates[g] = compareVersions(version, since) >= 0;
    this.gates = { ...gates, ...overrides };
    const behaviour = {} as BehaviourSwitches;
    for (const [k, since] of Object.entries(SWITCHES_SINCE)) {
      behaviour[k as keyof BehaviourSwitches] = releaseAtLeast(this.release, since);
    }
    this.behaviour = behaviour;
  }

  enabled(gate: string): boolean {
    return this.gates[gate] === true;
  }

  /** "v1.34.4" → "1.34.4", "1.34" → "1.34"; throws for releases outside SUPPORTED_VERSIONS. */
  static parseVersion(v: string | undefined): string {
    if (v === undefined || v === 'latest') return NEWEST_VERSION;
    const parts = v.replace(/^v/, '').split('.');
    const short = parts.slice(0, 2).join('.');
    const patchOk = parts.length === 2 || (parts.length === 3 && /^\d+$/.test(parts[2]));
    if (!patchOk || !(SUPPORTED_VERSIONS as readonly string[]).includes(short)) {
      throw new Error(
        `compatibilityVersion: unsupported version "${v}" (supported: ${SUPPORTED_VERSIONS.join(', ')}, or one of their patches such as 1.34.0)`,
      );
    }
    return parts.length === 3 ? `${short}.${Number(parts[2])}` : short;
  }
}
