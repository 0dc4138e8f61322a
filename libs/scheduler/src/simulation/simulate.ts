/**
 * The engine's public entry point: a cluster dump in, every pending pod scheduled as
 * kube-scheduler would, with an explanation per pod.
 */
import { installRequestPolicy } from '../framework/request-policy';
import { KubeObject, Pod } from '@schedlab/k8s';
import { defaultConfiguration, loadSchedulerConfiguration } from '../apis/config';
import type { ResolvedConfiguration } from '../apis/config';
import { FeatureSet } from '../features';
import { allocatorFeatures } from '../framework/plugins/dynamicresources/dynamic-resources';
import {
  summarizeDevices,
  type DeviceClassSummary,
} from '../framework/plugins/dynamicresources/device-summary';
import { inTreeRegistry } from '../framework/plugins/registry';
import type { PluginDescriptor } from '../framework/runtime/registry';
import { ClusterState, buildClusterState } from './cluster';
import type { PodSchedulingResult } from './results';
import { Simulator, type SimulatorOptions } from './simulator';
import { applyPreBindVolumeWrites } from './volume-results';

/** How a simulation runs: the scheduler's setup plus the Simulator's own knobs. */
export interface SimulateOptions extends Pick<
  SimulatorOptions,
  | 'seed'
  | 'tieBreak'
  | 'preemption'
  | 'percentageOfNodesToScore'
  | 'startTimeBase'
  | 'explain'
  | 'explainPods'
  | 'replayCursors'
> {
  /**
   * Stop once this pod ("ns/name") has been scheduled: a replay that explains one pod needs the
   * pods ahead of it in the queue, not the ones after.
   */
  stopAfterPod?: string;
  /** A KubeSchedulerConfiguration (YAML/JSON text or object); default: the default profile. */
  schedulerConfiguration?: unknown;
  /** kube-scheduler release whose behaviour to reproduce, e.g. "1.26"; default the newest supported. */
  compatibilityVersion?: string;
  featureGates?: Record<string, boolean>;
  /** Called after each pod with the number processed so far. */
  onProgress?: (podsProcessed: number, podsTotal: number) => void;
}

export interface SimulationSummary {
  pods: number;
  scheduled: number;
  unschedulable: number;
  /** Running pods evicted by preemption. */
  preempted: number;
  gated: number;
  errors: number;
}

export interface SimulationResult {
  compatibilityVersion: string;
  summary: SimulationSummary;
  results: PodSchedulingResult[];
  /** Pods that name a node the cluster does not have; they are left alone. */
  orphanPods: string[];
  /** Object kinds in the input that this simulation does not model. */
  unmodelledKinds: Record<string, number>;
  /** DRA devices after scheduling, per DeviceClass and node (only when the input has classes). */
  devices?: DeviceClassSummary[];
}

export interface EngineSetup {
  features: FeatureSet;
  registry: ReadonlyMap<string, PluginDescriptor>;
  configuration: ResolvedConfiguration;
}

/** Resolves version, feature gates, registry and scheduler configuration once. */
export function setupEngine(
  options: Pick<SimulateOptions, 'compatibilityVersion' | 'featureGates' | 'schedulerConfiguration'>,
): EngineSetup {
  const features = new FeatureSet(
    FeatureSet.parseVersion(options.compatibilityVersion),
    options.featureGates ?? {},
  );
  const registry = inTreeRegistry();
  const configuration =
    options.schedulerConfiguration === undefined
      ? defaultConfiguration({ registry, features })
      : loadSchedulerConfiguration(options.schedulerConfiguration, { registry, features });
  return { features, registry, configuration };
}

export function createSimulator(
  cluster: Pick<ClusterState, 'nodes' | 'runningPods' | 'objects'>,
  setup: EngineSetup,
  options: SimulateOptions = {},
): Simulator {
  // Pod requests (PodInfo) follow the release's gates from here on.
  installRequestPolicy(setup.features);
  const sim = new Simulator(cluster, {
    profiles: setup.configuration.profiles,
    registry: setup.registry,
    features: setup.features,
    seed: options.seed,
    tieBreak: options.tieBreak,
    preemption: options.preemption,
    percentageOfNodesToScore:
      options.percentageOfNodesToScore ?? setup.configuration.percentageOfNodesToScore,
    startTimeBase: options.startTimeBase,
    explain: options.explain,
    explainPods: options.explainPods,
    replayCursors: options.replayCursors,
  });
  sim.preBindWrites = applyPreBindVolumeWrites;
  return sim;
}

/**
 * The device summary of a cluster as it stands (claims already allocated count as held), for
 * callers that change the cluster outside one pass, such as a scenario's final world.
 */
export function summarizeClusterDevices(
  items: readonly KubeObject[],
  setup: EngineSetup,
): DeviceClassSummary[] {
  const cluster = buildClusterState(items as KubeObject[], { features: setup.features });
  return summarizeDevices(cluster.objects, cluster.nodes, allocatorFeatures(setup.features));
}

/** Schedules `pending` in queue order, one attempt each (plus the retry after preemption). */
export function schedulePending(
  sim: Simulator,
  pending: readonly Pod[],
  onProgress?: SimulateOptions['onProgress'],
  stopAfterPod?: string,
): PodSchedulingResult[] {
  const ordered = sim.queueOrder(pending);
  const results: PodSchedulingResult[] = [];
  for (let k = 0; k < ordered.length; k++) {
    const r = sim.scheduleOne(ordered[k], k);
    results.push(r);
    onProgress?.(k + 1, ordered.length);
    if (r.pod === stopAfterPod) break;
  }
  return results;
}

export function summarize(results: readonly PodSchedulingResult[]): SimulationSummary {
  const s: SimulationSummary = {
    pods: results.length,
    scheduled: 0,
    unschedulable: 0,
    preempted: 0,
    gated: 0,
    errors: 0,
  };
  for (const r of results) {
    if (r.outcome === 'scheduled') s.scheduled++;
    else if (r.outcome === 'gated') s.gated++;
    else if (r.outcome === 'error') s.errors++;
    else s.unschedulable++;
    s.preempted += r.victims?.length ?? 0;
  }
  return s;
}

export function simulate(
  input: readonly KubeObject[] | ClusterState,
  options: SimulateOptions = {},
): SimulationResult {
  const setup = setupEngine(options);
  const cluster = Array.isArray(input)
    ? buildClusterState(input as KubeObject[], { features: setup.features })
    : (input as ClusterState);
  const sim = createSimulator(cluster, setup, options);
  const results = schedulePending(sim, cluster.pendingPods, options.onProgress, options.stopAfterPod);
  const unmodelledKinds: Record<string, number> = {};
  for (const o of cluster.unmodelled) unmodelledKinds[o.kind] = (unmodelledKinds[o.kind] ?? 0) + 1;
  const devices = summarizeDevices(sim.objects, cluster.nodes, allocatorFeatures(setup.features));
  return {
    compatibilityVersion: setup.features.release,
    summary: summarize(results),
    results,
    orphanPods: cluster.orphanPods.map((p) => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`),
    unmodelledKinds,
    ...(devices.length > 0 ? { devices } : {}),
  };
}
