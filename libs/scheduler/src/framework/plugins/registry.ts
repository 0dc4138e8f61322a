/** The in-tree plugin registry: every plugin Schedlab implements, by upstream name. */
import type { PluginDescriptor } from '../runtime/registry';
import { descriptor as defaultBinder } from './defaultbinder';
import { descriptor as defaultPreemption } from './defaultpreemption';
import { descriptor as dynamicResources } from './dynamicresources';
import { descriptor as nodeDeclaredFeatures } from './nodedeclaredfeatures';
import { descriptor as imageLocality } from './imagelocality';
import { descriptor as interPodAffinity } from './interpodaffinity';
import { descriptor as nodeAffinity } from './nodeaffinity';
import { descriptor as nodeName } from './nodename';
import { descriptor as nodePorts } from './nodeports';
import { balancedAllocationDescriptor, fitDescriptor } from './noderesources';
import { descriptor as nodeUnschedulable } from './nodeunschedulable';
import { descriptor as podTopologySpread } from './podtopologyspread';
import { descriptor as prioritySort } from './queuesort';
import { descriptor as schedulingGates } from './schedulinggates';
import { descriptor as taintToleration } from './tainttoleration';
import { descriptor as volumeBinding } from './volumebinding';
import { descriptors as volumeLimits } from './nodevolumelimits';
import { descriptor as volumeRestrictions } from './volumerestrictions';
import { descriptor as volumeZone } from './volumezone';

const ALL: PluginDescriptor<never>[] = [
  prioritySort,
  schedulingGates,
  nodeUnschedulable,
  nodeName,
  taintToleration,
  nodeAffinity,
  nodePorts,
  fitDescriptor,
  balancedAllocationDescriptor,
  imageLocality,
  podTopologySpread,
  interPodAffinity,
  volumeRestrictions,
  ...volumeLimits,
  volumeBinding,
  volumeZone,
  dynamicResources,
  nodeDeclaredFeatures,
  defaultPreemption,
  defaultBinder,
] as PluginDescriptor<never>[];

export function inTreeRegistry(): Map<string, PluginDescriptor> {
  return new Map(ALL.map((d) => [d.name, d as PluginDescriptor]));
}
