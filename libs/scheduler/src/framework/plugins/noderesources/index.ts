import type { FeatureSet } from '../../../features';
import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';
import {
  defaultBalancedAllocationArgs,
  defaultFitArgs,
  validateBalancedAllocationArgs,
  validateFitArgs,
  type NodeResourcesBalancedAllocationArgs,
  type NodeResourcesFitArgs,
} from './args';
import { BalancedAllocation } from './balanced-allocation';
import { Fit } from './fit';

export * from './args';
export * from './fit';
export { BalancedAllocation } from './balanced-allocation';
export { ResourceAllocationScorer, podRequestsFor, type ResourceSpec } from './resource-allocation';
export * from './strategies';

export const fitDescriptor: PluginDescriptor<NodeResourcesFitArgs> = {
  name: PluginNames.NodeResourcesFit,
  argsKind: 'NodeResourcesFitArgs',
  defaultArgs: (raw: unknown, _features: FeatureSet) => defaultFitArgs(raw),
  validateArgs: (args) => validateFitArgs(args),
  create: (args, handle) => new Fit(args, handle),
};

export const balancedAllocationDescriptor: PluginDescriptor<NodeResourcesBalancedAllocationArgs> = {
  name: PluginNames.NodeResourcesBalancedAllocation,
  argsKind: 'NodeResourcesBalancedAllocationArgs',
  defaultArgs: (raw: unknown, _features: FeatureSet) => defaultBalancedAllocationArgs(raw),
  validateArgs: (args) => validateBalancedAllocationArgs(args),
  create: (args, handle) => new BalancedAllocation(args, handle),
};

/** This folder holds two plugins; `descriptor` is NodeResourcesFit, `descriptors` lists both. */
export const descriptor = fitDescriptor;
export const descriptors = [fitDescriptor, balancedAllocationDescriptor] as const;
