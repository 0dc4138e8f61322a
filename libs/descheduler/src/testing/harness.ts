/**
 * Runs one plugin the way upstream's plugin tests do: the given nodes, pods and objects, a real
 * DefaultEvictor and PodEvictor, and upstream's NodeFit as podFitsNode unless a test gives one.
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import { ClusterView } from '../framework/cluster-view';
import { createEvictor, createHandle } from '../framework/handle';
import {
  type Eviction,
  type EvictionLimits,
  PodEvictor,
  type RefusedEviction,
} from '../framework/pod-evictor';
import type { Handle } from '../framework/types';
import { DEFAULT_EVICTOR } from '../plugins/defaultevictor/args';
import { PLUGIN_REGISTRY } from '../plugins/registry';
import { upstreamNodeFit } from './node-fit';

export interface PluginRun {
  /** The plugin's name in the registry. */
  plugin: string;
  /** Its args as a policy would give them (validated and defaulted by its schema). */
  args?: Record<string, unknown>;
  /** The nodes the plugin is handed; they are also in the cluster. */
  nodes: readonly Node[];
  pods: readonly Pod[];
  /** More objects of the cluster (PDBs, PVCs, namespaces, nodes not handed to the plugin…). */
  objects?: readonly KubeObject[];
  /** DefaultEvictor args (validated and defaulted). */
  evictorArgs?: Record<string, unknown>;
  limits?: EvictionLimits;
  /** The snapshot's clock; the machine's by default, as upstream's tests use time.Now(). */
  now?: number;
  podFitsNode?: (pod: Pod, node: Node) => boolean;
}

export interface PluginRunResult {
  /** Names of the evicted pods, in order. */
  evicted: string[];
  evictions: Eviction[];
  refused: RefusedEviction[];
  handle: Handle;
}

export function runPlugin(run: PluginRun): PluginRunResult {
  const objects: KubeObject[] = [
    ...(run.nodes as unknown as KubeObject[]),
    ...(run.pods as unknown as KubeObject[]),
    ...(run.objects ?? []),
  ];
  const view = new ClusterView(objects);
  const podEvictor = new PodEvictor(view, objects, run.limits ?? {});
  const now = run.now ?? Date.now();
  const podFitsNode = run.podFitsNode ?? upstreamNodeFit((name) => view.podsOnNode(name));
  const evictorEntry = PLUGIN_REGISTRY[DEFAULT_EVICTOR];
  if (evictorEntry.kind !== 'evictor') throw new Error('DefaultEvictor is not registered as an evictor');
  const defaultEvictor = evictorEntry.factory(evictorEntry.argsSchema.parse(run.evictorArgs ?? {}), {
    objects,
    nodes: view.nodes,
    pods: () => view.pods(),
    now: () => now,
    podFitsNode,
  });
  const entry = PLUGIN_REGISTRY[run.plugin];
  if (!entry || entry.kind === 'evictor')
    throw new Error(`${run.plugin} is not a deschedule or balance plugin`);
  const evictor = createEvictor({
    profile: 'test',
    podEvictor,
    filters: [defaultEvictor.filter],
    preEvictionFilters: [defaultEvictor.preEvictionFilter],
    extensionPoint: () => (entry.kind === 'balance' ? 'balance' : 'deschedule'),
  });
  const handle = createHandle(view, evictor, () => now, podFitsNode);
  const plugin = entry.factory(entry.argsSchema.parse(run.args ?? {}), handle);
  if ('deschedule' in plugin) plugin.deschedule(run.nodes);
  else plugin.balance(run.nodes);
  return {
    evicted: podEvictor.evictions.map((e) => e.name),
    evictions: podEvictor.evictions,
    refused: podEvictor.refused,
    handle,
  };
}
