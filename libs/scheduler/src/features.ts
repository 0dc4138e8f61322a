/**
 * Behaviour that changed between kube-scheduler releases, as named switches.
 * A compatibility version picks the feature-gate defaults and behaviour switches of that
 * release; explicit feature gates override the gate defaults. Plugins read switches by
 * name instead of comparing versions, so each difference lives in exactly one table here.
 */

export const SUPPORTED_VERSIONS = ['1.26', '1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'] as const;
export type CompatibilityVersion = (typeof SUPPORTED_VERSIONS)[number];
export const NEWEST_VERSION: CompatibilityVersion = '1.34';

/** Feature gates that change scheduling results, and the release whose default turned each on. */
const GATE_DEFAULT_ON_SINCE: Record<string, CompatibilityVersion> = {
  NodeInclusionPolicyInPodTopologySpread: '1.26',
  MinDomainsInPodTopologySpread: '1.27',
  MatchLabelKeysInPodTopologySpread: '1.27',
  PodSchedulingReadiness: '1.27',
  ReadWriteOncePod: '1.27',
  SidecarContainers: '1.29',
  MatchLabelKeysInPodAffinity: '1.31',
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
}

const SWITCHES_SINCE: Record<keyof BehaviourSwitches, CompatibilityVersion> = {
  interPodAffinityPreScoreSkips: '1.28',
  nodeAffinityPreScoreSkips: '1.30',
  preFilterRejectionMarksAllNodesUnresolvable: '1.27',
  schedulingGatesInDefaultProfile: '1.27',
  resourceScoringOverheadInMilliCpu: '1.27',
  fitChecksOnlyRequestedResources: '1.28',
  imageLocalityCountsInitContainers: '1.30',
  interPodAffinityPreFilterSkips: '1.27',
  spreadSkipsWithoutConstraints: '1.28',
  spreadEmptySelectorCountsNothing: '1.27',
  preemptionVictimsSortedByImportance: '1.32',
  spreadMatchLabelKeysKeepNilSelector: '1.27',
  imageStatesCountAllNodes: '1.28',
};

export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}

export class FeatureSet {
  readonly gates: Readonly<Record<string, boolean>>;
  readonly behaviour: Readonly<BehaviourSwitches>;

  constructor(
    readonly version: CompatibilityVersion = NEWEST_VERSION,
    overrides: Record<string, boolean> = {},
  ) {
    for (const g of Object.keys(overrides)) {
      if (!(g in GATE_DEFAULT_ON_SINCE)) {
        throw new Error(`featureGates.${g}: unknown feature gate (known: ${KNOWN_FEATURE_GATES.join(', ')})`);
      }
    }
    const gates: Record<string, boolean> = {};
    for (const [g, since] of Object.entries(GATE_DEFAULT_ON_SINCE)) gates[g] = compareVersions(version, since) >= 0;
    this.gates = { ...gates, ...overrides };
    const behaviour = {} as BehaviourSwitches;
    for (const [k, since] of Object.entries(SWITCHES_SINCE)) {
      behaviour[k as keyof BehaviourSwitches] = compareVersions(version, since) >= 0;
    }
    this.behaviour = behaviour;
  }

  enabled(gate: string): boolean {
    return this.gates[gate] === true;
  }

  static parseVersion(v: string | undefined): CompatibilityVersion {
    if (v === undefined || v === 'latest') return NEWEST_VERSION;
    const short = v.replace(/^v/, '').split('.').slice(0, 2).join('.');
    if (!(SUPPORTED_VERSIONS as readonly string[]).includes(short)) {
      throw new Error(`compatibilityVersion: unsupported version "${v}" (supported: ${SUPPORTED_VERSIONS.join(', ')})`);
    }
    return short as CompatibilityVersion;
  }
}
