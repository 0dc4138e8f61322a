/**
 * Upstream's args validation tables (descheduler v0.36.0, validation_test.go of
 * removepodsviolatingnodeaffinity, removepodsviolatingnodetaints,
 * removepodsviolatinginterpodantiaffinity, removepodshavingtoomanyrestarts, podlifetime and
 * defaultevictor). `errors` is upstream's aggregate, in its order; empty means valid.
 */
const BAD_SELECTOR = { matchExpressions: [{ key: '', operator: 'In' }] };
const LIFETIME_STATES =
  'states must be one of [Completed ContainerCannotRun ContainerCreating CrashLoopBackOff CreateContainerConfigError CreateContainerError DeadlineExceeded ErrImagePull Error Evicted Failed ImagePullBackOff InvalidImageName NodeAffinity NodeLost OOMKilled Pending PodInitializing Running Shutdown StartError Succeeded UnexpectedAdmissionError Unknown]';
const NS_BOTH = 'only one of Include/Exclude namespaces can be set';
const EXTRA_OPTIONS = 'Valid options are: [PodsWithPVC PodsWithoutPDB PodsWithResourceClaims]';
const DEFAULT_OPTIONS =
  'Valid options are: [PodsWithLocalStorage SystemCriticalPods FailedBarePods DaemonSetPods]';

export interface ValidationRow {
  plugin: string;
  description: string;
  args: Record<string, unknown>;
  errors: string[];
  /** Upstream's message for an invalid label selector is apimachinery's; ours names the field instead. */
  selectorError?: boolean;
}

export const validationRows: ValidationRow[] = [
  // removepodsviolatingnodeaffinity
  {
    plugin: 'RemovePodsViolatingNodeAffinity',
    description: 'nil NodeAffinityType args, expects errors',
    args: {},
    errors: ['nodeAffinityType needs to be set'],
  },
  {
    plugin: 'RemovePodsViolatingNodeAffinity',
    description: 'empty NodeAffinityType args, expects errors',
    args: { nodeAffinityType: [] },
    errors: ['nodeAffinityType needs to be set'],
  },
  {
    plugin: 'RemovePodsViolatingNodeAffinity',
    description: 'valid NodeAffinityType args, no errors',
    args: { nodeAffinityType: ['requiredDuringSchedulingIgnoredDuringExecution'] },
    errors: [],
  },
  {
    plugin: 'RemovePodsViolatingNodeAffinity',
    description: 'invalid namespaces args, expects error',
    args: {
      nodeAffinityType: ['requiredDuringSchedulingIgnoredDuringExecution'],
      namespaces: { include: ['default'], exclude: ['kube-system'] },
    },
    errors: [NS_BOTH],
  },
  {
    plugin: 'RemovePodsViolatingNodeAffinity',
    description: 'nil NodeAffinityType args and invalid namespaces args, expects error',
    args: { nodeAffinityType: [], namespaces: { include: ['default'], exclude: ['kube-system'] } },
    errors: ['nodeAffinityType needs to be set', NS_BOTH],
  },
  // removepodsviolatingnodetaints
  {
    plugin: 'RemovePodsViolatingNodeTaints',
    description: 'valid namespace args, no errors',
    args: { namespaces: { include: ['default'] } },
    errors: [],
  },
  {
    plugin: 'RemovePodsViolatingNodeTaints',
    description: 'invalid namespaces args, expects error',
    args: { namespaces: { include: ['default'], exclude: ['kube-system'] } },
    errors: [NS_BOTH],
  },
  {
    plugin: 'RemovePodsViolatingNodeTaints',
    description: 'valid label selector args, no errors',
    args: { labelSelector: { matchLabels: { 'role.kubernetes.io/node': 'ingress' } } },
    errors: [],
  },
  {
    plugin: 'RemovePodsViolatingNodeTaints',
    description: 'invalid label selector args, expects errors',
    args: { labelSelector: BAD_SELECTOR },
    errors: ["failed to get label selectors from strategy's params"],
    selectorError: true,
  },
  {
    plugin: 'RemovePodsViolatingNodeTaints',
    description: 'valid taint filters, no errors',
    args: { excludedTaints: ['testTaint1=test1'] },
    errors: [],
  },
  {
    plugin: 'RemovePodsViolatingNodeTaints',
    description: 'invalid taint filters args, expects errors',
    args: { excludedTaints: ['do-not-evict'], includedTaints: ['testTaint1=test1'] },
    errors: ['either includedTaints or excludedTaints can be set, but not both'],
  },
  // removepodsviolatinginterpodantiaffinity
  {
    plugin: 'RemovePodsViolatingInterPodAntiAffinity',
    description: 'valid namespace args, no errors',
    args: { namespaces: { include: ['default'] } },
    errors: [],
  },
  {
    plugin: 'RemovePodsViolatingInterPodAntiAffinity',
    description: 'invalid namespaces args, expects error',
    args: { namespaces: { include: ['default'], exclude: ['kube-system'] } },
    errors: [NS_BOTH],
  },
  {
    plugin: 'RemovePodsViolatingInterPodAntiAffinity',
    description: 'valid label selector args, no errors',
    args: { labelSelector: { matchLabels: { 'role.kubernetes.io/node': 'ingress' } } },
    errors: [],
  },
  {
    plugin: 'RemovePodsViolatingInterPodAntiAffinity',
    description: 'invalid label selector args, expects errors',
    args: { labelSelector: BAD_SELECTOR },
    errors: ["failed to get label selectors from strategy's params"],
    selectorError: true,
  },
  // removepodshavingtoomanyrestarts
  {
    plugin: 'RemovePodsHavingTooManyRestarts',
    description: 'valid arg, no errors',
    args: { podRestartThreshold: 1, states: ['Running'] },
    errors: [],
  },
  {
    plugin: 'RemovePodsHavingTooManyRestarts',
    description: 'invalid PodRestartThreshold arg, expects errors',
    args: { podRestartThreshold: 0 },
    errors: ['invalid PodsHavingTooManyRestarts threshold'],
  },
  {
    plugin: 'RemovePodsHavingTooManyRestarts',
    description: 'invalid States arg, expects errors',
    args: { podRestartThreshold: 1, states: ['Failed'] },
    errors: ['states must be one of [CrashLoopBackOff Running]'],
  },
  {
    plugin: 'RemovePodsHavingTooManyRestarts',
    description: 'allows CrashLoopBackOff state',
    args: { podRestartThreshold: 1, states: ['CrashLoopBackOff'] },
    errors: [],
  },
  {
    plugin: 'RemovePodsHavingTooManyRestarts',
    description: 'invalid PodRestartThreshold arg and invalid States arg, expects errors',
    args: { podRestartThreshold: 0, states: ['Failed'] },
    errors: [
      'invalid PodsHavingTooManyRestarts threshold',
      'states must be one of [CrashLoopBackOff Running]',
    ],
  },
  // podlifetime
  {
    plugin: 'PodLifeTime',
    description: 'valid arg, no errors',
    args: { maxPodLifeTimeSeconds: 1, states: ['Running'] },
    errors: [],
  },
  {
    plugin: 'PodLifeTime',
    description: 'Pod Status Reasons Succeeded or Failed',
    args: { maxPodLifeTimeSeconds: 1, states: ['Succeeded', 'Failed'] },
    errors: [],
  },
  {
    plugin: 'PodLifeTime',
    description: 'Pod Status Reasons CrashLoopBackOff ',
    args: { maxPodLifeTimeSeconds: 1, states: ['CrashLoopBackOff'] },
    errors: [],
  },
  {
    plugin: 'PodLifeTime',
    description: 'nil MaxPodLifeTimeSeconds arg, expects errors',
    args: {},
    errors: [
      'at least one filtering criterion must be specified (maxPodLifeTimeSeconds, states, conditions, or exitCodes)',
    ],
  },
  {
    plugin: 'PodLifeTime',
    description: 'invalid pod state arg, expects errors',
    args: { maxPodLifeTimeSeconds: 1, states: ['InvalidState'] },
    errors: [LIFETIME_STATES],
  },
  {
    plugin: 'PodLifeTime',
    description: 'nil MaxPodLifeTimeSeconds arg and invalid pod state arg, expects errors',
    args: { states: ['InvalidState'] },
    errors: [LIFETIME_STATES],
  },
  // defaultevictor
  {
    plugin: 'DefaultEvictor',
    description: 'passing invalid priority',
    args: { priorityThreshold: { value: 1, name: 'priority-name' } },
    errors: ['priority threshold misconfigured, only one of priorityThreshold fields can be set'],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'passing invalid no eviction policy',
    args: { noEvictionPolicy: 'invalid-no-eviction-policy' },
    errors: ['noEvictionPolicy accepts only ["Preferred" "Mandatory"] values'],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Valid configuration with no deprecated fields',
    args: { podProtections: { defaultDisabled: [], extraEnabled: [] } },
    errors: [],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Valid configuration: both Disabled and ExtraEnabled',
    args: {
      podProtections: {
        defaultDisabled: ['DaemonSetPods', 'PodsWithLocalStorage'],
        extraEnabled: ['PodsWithPVC'],
      },
    },
    errors: [],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Valid configuration with ExtraEnabled',
    args: { podProtections: { extraEnabled: ['PodsWithPVC'] } },
    errors: [],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid configuration: Deprecated field used with Disabled',
    args: { evictLocalStoragePods: true, podProtections: { defaultDisabled: ['DaemonSetPods'] } },
    errors: [
      'cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled',
    ],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid configuration: Deprecated field used with ExtraPodProtections',
    args: { evictDaemonSetPods: true, podProtections: { extraEnabled: ['PodsWithPVC'] } },
    errors: [
      'cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled',
    ],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'MinReplicas warning logged but no error',
    args: { minReplicas: 1 },
    errors: [],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid ExtraEnabled: Unknown policy',
    args: { podProtections: { extraEnabled: ['InvalidPolicy'] } },
    errors: [`invalid pod protection policy in ExtraEnabled: "InvalidPolicy". ${EXTRA_OPTIONS}`],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid ExtraEnabled: Misspelled policy',
    args: { podProtections: { extraEnabled: ['PodsWithPVCC'] } },
    errors: [`invalid pod protection policy in ExtraEnabled: "PodsWithPVCC". ${EXTRA_OPTIONS}`],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid ExtraEnabled: Policy from DefaultDisabled list',
    args: { podProtections: { extraEnabled: ['DaemonSetPods'] } },
    errors: [`invalid pod protection policy in ExtraEnabled: "DaemonSetPods". ${EXTRA_OPTIONS}`],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid DefaultDisabled: Unknown policy',
    args: { podProtections: { defaultDisabled: ['InvalidPolicy'] } },
    errors: [`invalid pod protection policy in DefaultDisabled: "InvalidPolicy". ${DEFAULT_OPTIONS}`],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid DefaultDisabled: Misspelled policy',
    args: { podProtections: { defaultDisabled: ['PodsWithLocalStorag'] } },
    errors: [`invalid pod protection policy in DefaultDisabled: "PodsWithLocalStorag". ${DEFAULT_OPTIONS}`],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid DefaultDisabled: Policy from ExtraEnabled list',
    args: { podProtections: { defaultDisabled: ['PodsWithPVC'] } },
    errors: [`invalid pod protection policy in DefaultDisabled: "PodsWithPVC". ${DEFAULT_OPTIONS}`],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid ExtraEnabled duplicate',
    args: { podProtections: { extraEnabled: ['PodsWithPVC', 'PodsWithPVC'] } },
    errors: ['PodProtections.ExtraEnabled contains duplicate entries'],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Invalid DefaultDisabled duplicate',
    args: { podProtections: { defaultDisabled: ['PodsWithLocalStorage', 'PodsWithLocalStorage'] } },
    errors: ['PodProtections.DefaultDisabled contains duplicate entries'],
  },
  {
    plugin: 'DefaultEvictor',
    description:
      'Invalid DefaultDisabled duplicate and Invalid ExtraEnabled duplicate and passing invalid no eviction policy',
    args: {
      noEvictionPolicy: 'invalid-no-eviction-policy',
      podProtections: {
        extraEnabled: ['PodsWithPVC', 'PodsWithPVC'],
        defaultDisabled: ['PodsWithLocalStorage', 'PodsWithLocalStorage', 'PodsWithoutPDB'],
      },
    },
    errors: [
      'noEvictionPolicy accepts only ["Preferred" "Mandatory"] values',
      `invalid pod protection policy in DefaultDisabled: "PodsWithoutPDB". ${DEFAULT_OPTIONS}`,
      'PodProtections.DefaultDisabled contains duplicate entries',
      'PodProtections.ExtraEnabled contains duplicate entries',
    ],
  },
  {
    plugin: 'DefaultEvictor',
    description: 'Protected storage classes without storage class name',
    args: {
      podProtections: {
        extraEnabled: ['PodsWithPVC'],
        config: {
          PodsWithPVC: {
            protectedStorageClasses: [
              { name: '' },
              { name: 'protected-storage-class-0' },
              { name: '' },
              { name: 'protected-storage-class-1' },
            ],
          },
        },
      },
    },
    errors: [
      'PodProtections.Config.PodsWithPVC.ProtectedStorageClasses[0] name cannot be empty',
      'PodProtections.Config.PodsWithPVC.ProtectedStorageClasses[2] name cannot be empty',
    ],
  },
];
