// Public API of @schedlab/descheduler: DeschedulerPolicy what-ifs over a snapshot.
export type * from './framework/types';
export { deschedule, TOO_FEW_NODES_MESSAGE } from './descheduler';
export type { DeschedulingOptions, DeschedulingResult, ProfileSummary, LimitsReport } from './descheduler';
export { parsePolicy, POLICY_API_VERSION, EXTENSION_POINTS } from './api/policy';
export type { DeschedulerPolicy, DeschedulerProfile, PluginConfig, PluginSet } from './api/policy';
export { PolicyError } from './api/schema';
export type { Eviction, RefusedEviction, EvictionLimits, ExtensionPoint } from './framework/pod-evictor';
export { PLUGIN_REGISTRY } from './plugins/registry';
export type { RegisteredPlugin, PluginKind } from './plugins/registry';
