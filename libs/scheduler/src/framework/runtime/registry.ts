/**
 * How an in-tree plugin describes itself to the configuration loader and the runtime:
 * its args' v1 defaulting and validation, and how to build it.
 */
import type { FeatureSet } from '../../features';
import type { Handle, Plugin } from '../interface';

export interface ArgsError {
  /** Path inside the plugin's args, e.g. `scoringStrategy.resources[0].weight`. */
  field: string;
  message: string;
}

export interface PluginDescriptor<A = unknown> {
  name: string;
  /** The args kind in a KubeSchedulerConfiguration, e.g. `NodeResourcesFitArgs`; absent for plugins without args. */
  argsKind?: string;
  /** The first release whose v1 scheme registers argsKind (earlier ones pass the args through undecoded). */
  argsSince?: string;
  /** kubescheduler.config.k8s.io/v1 defaulting of user-provided args (undefined → all defaults). */
  defaultArgs?(raw: unknown, features: FeatureSet): A;
  /** Upstream validation of defaulted args; an empty list means valid. */
  validateArgs?(args: A, features: FeatureSet): ArgsError[];
  create(args: A, handle: Handle): Plugin;
}
