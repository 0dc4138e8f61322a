/**
 * kubescheduler.config.k8s.io/v1 KubeSchedulerConfiguration as users write it, and the
 * resolved form the scheduler runs with (one plugin list per extension point).
 */

export const CONFIG_API_VERSION = 'kubescheduler.config.k8s.io/v1';
export const CONFIG_GROUP = 'kubescheduler.config.k8s.io';
export const CONFIG_KIND = 'KubeSchedulerConfiguration';
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/** Extension points a profile can configure individually (v1 `Plugins` fields besides multiPoint). */
export { EXTENSION_POINTS, type ExtensionPoint } from '../../framework/runtime/profile';
import type { ExtensionPoint } from '../../framework/runtime/profile';
export type PluginSetField = ExtensionPoint | 'multiPoint';

export type { PluginRef } from '../../framework/runtime/profile';
import type { PluginRef } from '../../framework/runtime/profile';

export interface PluginSetConfig {
  enabled?: PluginRef[];
  disabled?: { name: string }[];
}

export type PluginsConfig = Partial<Record<PluginSetField, PluginSetConfig>>;

export interface PluginConfigEntry {
  name: string;
  args?: Record<string, unknown>;
}

export interface KubeSchedulerProfileConfig {
  schedulerName?: string;
  percentageOfNodesToScore?: number;
  plugins?: PluginsConfig;
  pluginConfig?: PluginConfigEntry[];
}

export interface KubeSchedulerConfigurationInput {
  apiVersion: string;
  kind: string;
  parallelism?: number;
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  profiles?: KubeSchedulerProfileConfig[];
  /** Accepted for compatibility with real files; they do not change scheduling decisions. */
  leaderElection?: Record<string, unknown>;
  clientConnection?: Record<string, unknown>;
  enableProfiling?: boolean;
  enableContentionProfiling?: boolean;
  extenders?: unknown[];
}

export interface ResolvedPlugin {
  name: string;
  /** Only on score plugins: the effective weight (0 or unset in the config becomes 1). */
  weight?: number;
}

export interface ResolvedProfile {
  schedulerName: string;
  percentageOfNodesToScore?: number;
  plugins: Record<ExtensionPoint, ResolvedPlugin[]>;
  /** Args after v1 defaulting for every enabled plugin that has args (kind/apiVersion stripped). */
  pluginArgs: Map<string, unknown>;
}

export interface ResolvedConfiguration {
  parallelism: number;
  /** 0 means adaptive (upstream's default). */
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  profiles: ResolvedProfile[];
}
