/**
 * The v1 default plugin set and which extension points each in-tree plugin implements,
 * per compatibility version. Upstream discovers the latter by Go interface checks at runtime;
 * here it is a static table, checked against the plugin sources of each release.
 */
import { compareVersions, type FeatureSet } from '../../features';
import { PluginNames as N } from '../../framework/plugins/names';
import type { ExtensionPoint, PluginRef } from './types';

type Since = { point: ExtensionPoint; since?: string };

/** Extension points per in-tree plugin; `since` marks points a plugin gained after 1.26. */
const IN_TREE_EXTENSION_POINTS: Record<string, Since[]> = {
  [N.PrioritySort]: [{ point: 'queueSort' }],
  [N.SchedulingGates]: [{ point: 'preEnqueue' }],
  // From 1.37 these three have a PreFilter (for pods that already carry spec.nodeName or a
  // deferred resize); it does nothing for a pending pod but shows in the plugin lists.
  [N.NodeUnschedulable]: [{ point: 'preFilter', since: '1.37' }, { point: 'filter' }],
  [N.NodeName]: [{ point: 'preFilter', since: '1.37' }, { point: 'filter' }],
  [N.TaintToleration]: [
    { point: 'preFilter', since: '1.37' },
    { point: 'filter' },
    { point: 'preScore' },
    { point: 'score' },
  ],
  [N.NodeAffinity]: [{ point: 'preFilter' }, { point: 'filter' }, { point: 'preScore' }, { point: 'score' }],
  [N.NodePorts]: [{ point: 'preFilter' }, { point: 'filter' }],
  [N.NodeResourcesFit]: [
    { point: 'preFilter' },
    { point: 'filter' },
    { point: 'preScore', since: '1.27' },
    { point: 'score' },
    { point: 'placementScore', since: '1.36' },
  ],
  [N.NodeResourcesBalancedAllocation]: [{ point: 'preScore', since: '1.27' }, { point: 'score' }],
  [N.ImageLocality]: [{ point: 'score' }],
  [N.PodTopologySpread]: [
    { point: 'preFilter' },
    { point: 'filter' },
    { point: 'preScore' },
    { point: 'score' },
  ],
  [N.InterPodAffinity]: [
    { point: 'preFilter' },
    { point: 'filter' },
    { point: 'preScore' },
    { point: 'score' },
  ],
  [N.VolumeRestrictions]: [{ point: 'preFilter' }, { point: 'filter' }],
  [N.EBSLimits]: [{ point: 'preFilter', since: '1.28' }, { point: 'filter' }],
  [N.GCEPDLimits]: [{ point: 'preFilter', since: '1.28' }, { point: 'filter' }],
  [N.AzureDiskLimits]: [{ point: 'preFilter', since: '1.28' }, { point: 'filter' }],
  [N.NodeVolumeLimits]: [{ point: 'preFilter', since: '1.28' }, { point: 'filter' }],
  [N.VolumeBinding]: [
    { point: 'preFilter' },
    { point: 'filter' },
    { point: 'preScore', since: '1.30' },
    { point: 'reserve' },
    { point: 'preBind' },
    // Always a Score plugin (inert unless VolumeCapacityPriority), so it takes weight 1 by default.
    { point: 'score' },
  ],
  [N.VolumeZone]: [{ point: 'preFilter', since: '1.27' }, { point: 'filter' }],
  // PreEnqueue (async preemption) was added in 1.33.
  [N.DefaultPreemption]: [
    { point: 'preEnqueue', since: '1.33' },
    { point: 'postFilter' },
    { point: 'podGroupPostFilter', since: '1.37' },
  ],
  [N.DefaultBinder]: [{ point: 'bind' }],
  [N.DynamicResources]: [
    { point: 'preEnqueue' },
    { point: 'preFilter' },
    { point: 'filter' },
    { point: 'postFilter' },
    { point: 'podGroupPostFilter', since: '1.37' },
    { point: 'reserve' },
    { point: 'preBind', since: '1.30' },
    { point: 'score', since: '1.35' },
  ],
  [N.NodeDeclaredFeatures]: [{ point: 'preFilter' }, { point: 'filter' }],
};

/** Names upstream registers in-tree: accepted in a config even before a descriptor exists here. */
export const KNOWN_IN_TREE_PLUGINS: readonly string[] = Object.keys(IN_TREE_EXTENSION_POINTS);

/** In-tree plugins whose args have a registered v1 kind `<Name>Args`. */
export const IN_TREE_ARGS_PLUGINS: ReadonlySet<string> = new Set([
  N.DefaultPreemption,
  N.InterPodAffinity,
  N.NodeAffinity,
  N.NodeResourcesBalancedAllocation,
  N.NodeResourcesFit,
  N.PodTopologySpread,
  N.VolumeBinding,
]);

/** Extension points `name` implements at `version`, or undefined when the plugin is not in the table. */
export function extensionPointsOf(name: string, version: string): ReadonlySet<ExtensionPoint> | undefined {
  const entries = IN_TREE_EXTENSION_POINTS[name];
  if (!entries) return undefined;
  return new Set(
    entries.filter((e) => !e.since || compareVersions(version, e.since) >= 0).map((e) => e.point),
  );
}

/**
 * v1 getDefaultPlugins: one multiPoint list with score weights. SchedulingGates is appended
 * when PodSchedulingReadiness is on (1.26–1.29); once the gate went GA (1.30) it heads the list.
 */
export function defaultMultiPointPlugins(features: FeatureSet): PluginRef[] {
  const b = features.behaviour;
  const list: PluginRef[] = [
    { name: N.PrioritySort },
    ...(b.nodeNameBeforeNodeUnschedulable
      ? [{ name: N.NodeName }, { name: N.NodeUnschedulable }]
      : [{ name: N.NodeUnschedulable }, { name: N.NodeName }]),
    { name: N.TaintToleration, weight: 3 },
    { name: N.NodeAffinity, weight: 2 },
    { name: N.NodePorts },
    { name: N.NodeResourcesFit, weight: 1 },
    { name: N.VolumeRestrictions },
    ...(b.inTreeVolumeLimitsRemovedFromDefaults
      ? [{ name: N.NodeVolumeLimits }]
      : [
          { name: N.EBSLimits },
          { name: N.GCEPDLimits },
          { name: N.NodeVolumeLimits },
          { name: N.AzureDiskLimits },
        ]),
    { name: N.VolumeBinding },
    { name: N.VolumeZone },
    { name: N.PodTopologySpread, weight: 2 },
    { name: N.InterPodAffinity, weight: 2 },
    { name: N.DefaultPreemption },
    { name: N.NodeResourcesBalancedAllocation, weight: 1 },
    { name: N.ImageLocality, weight: 1 },
    { name: N.DefaultBinder },
  ];
  if (compareVersions(features.version, '1.30') >= 0) {
    list.unshift({ name: N.SchedulingGates });
  } else if (features.enabled('PodSchedulingReadiness')) {
    list.push({ name: N.SchedulingGates });
  }
  // applyFeatureGates, in upstream's order: NodeDeclaredFeatures is appended, DynamicResources
  // goes just before DefaultPreemption.
  if (features.enabled('NodeDeclaredFeatures')) list.push({ name: N.NodeDeclaredFeatures });
  if (features.enabled('DynamicResourceAllocation')) {
    list.splice(
      list.findIndex((p) => p.name === N.DefaultPreemption),
      0,
      // From 1.35 it scores (prioritized device lists) with weight 2.
      compareVersions(features.version, '1.35') >= 0
        ? { name: N.DynamicResources, weight: 2 }
        : { name: N.DynamicResources },
    );
  }
  return list;
}

/** Plugins that v1 rejects by name in `plugins.*.enabled` and `pluginConfig` (removed ones). */
export function removedPlugins(version: string): readonly string[] {
  // SelectorSpread was listed as invalid for v1 until the v1beta2/v1beta3 APIs were dropped.
  return compareVersions(version, '1.28') <= 0 ? ['SelectorSpread'] : [];
}
