/**
 * One descheduling cycle over a snapshot (upstream's descheduler.runProfiles): the ready nodes the
 * policy's nodeSelector picks, every profile's deschedule plugins in order, then every profile's
 * balance plugins, all sharing one evictor's limits.
 */
import { type KubeObject, type Node, type Pod, parseSelectorText } from '@schedlab/k8s';
import { type DeschedulerPolicy, parsePolicy } from './api/policy';
import { ClusterView } from './framework/cluster-view';
import { createEvictor, createHandle } from './framework/handle';
import {
  type Eviction,
  type ExtensionPoint,
  PodEvictor,
  type RefusedEviction,
} from './framework/pod-evictor';
import { isNodeReady } from './framework/pods';
import type { BalancePlugin, DeschedulePlugin, EvictionRefusal } from './framework/types';
import type { EvictorContext, EvictorPlugin } from './plugins/defaultevictor';
import { PLUGIN_REGISTRY, type RegisteredPlugin } from './plugins/registry';

export interface DeschedulingOptions {
  /** The snapshot's clock (ms since the epoch), for pod ages. */
  now: number;
  /** The scheduler's answer to "would this pod fit on that node" (the descheduler's NodeFit). */
  podFitsNode(pod: Pod, node: Node): boolean;
  /** Plugins to look names up in; the full registry by default. */
  registry?: Readonly<Record<string, RegisteredPlugin>>;
}

export interface ProfileSummary {
  name: string;
  evicted: number;
  /** Evictions per extension point. */
  deschedule: number;
  balance: number;
  /** Evictions per strategy (plugin name). */
  byStrategy: Record<string, number>;
  /** Refused evictions per cause. */
  refused: Partial<Record<EvictionRefusal, number>>;
}

export interface LimitsReport {
  maxNoOfPodsToEvictPerNode?: number;
  maxNoOfPodsToEvictPerNamespace?: number;
  maxNoOfPodsToEvictTotal?: number;
  /** Which limits were reached, and so stopped the evictions counted in `refused`. */
  reached: { total: boolean; nodes: string[]; namespaces: string[] };
}

/** Plain data, JSON-serialisable. */
export interface DeschedulingResult {
  /** In the order they happened. */
  evictions: Eviction[];
  refused: RefusedEviction[];
  profiles: ProfileSummary[];
  limits: LimitsReport;
  /** The nodes the plugins processed: ready, and matching the policy's nodeSelector. */
  nodes: string[];
  /** Set when the cycle did not run, in the descheduler's words. */
  skipped?: string;
}

export const TOO_FEW_NODES_MESSAGE =
  'The cluster size is 0 or 1 meaning eviction causes service disruption or degradation. So aborting.';

interface BuiltProfile {
  name: string;
  deschedule: DeschedulePlugin[];
  balance: BalancePlugin[];
}

const nameOf = (o: { metadata?: { name?: string } }) => o.metadata?.name ?? '';

/** Runs one cycle of the policy (an object as users write it, or an already parsed one). */
export function deschedule(
  objects: readonly KubeObject[],
  policyInput: unknown,
  options: DeschedulingOptions,
): DeschedulingResult {
  const registry = options.registry ?? PLUGIN_REGISTRY;
  const policy: DeschedulerPolicy = parsePolicy(policyInput, registry);
  const view = new ClusterView(objects);
  const nodeSelector = policy.nodeSelector ? parseSelectorText(policy.nodeSelector) : undefined;
  const nodes = view.nodes.filter(
    (n) => isNodeReady(n) && (!nodeSelector || nodeSelector.matches(n.metadata?.labels)),
  );
  const limits = {
    maxNoOfPodsToEvictPerNode: policy.maxNoOfPodsToEvictPerNode,
    maxNoOfPodsToEvictPerNamespace: policy.maxNoOfPodsToEvictPerNamespace,
    maxNoOfPodsToEvictTotal: policy.maxNoOfPodsToEvictTotal,
  };
  const podEvictor = new PodEvictor(view, objects, limits);
  const now = () => options.now;
  let point: ExtensionPoint = 'deschedule';

  const evictorContext: EvictorContext = {
    objects,
    nodes: view.nodes,
    pods: () => view.pods(),
    now,
    podFitsNode: options.podFitsNode,
  };

  const built: BuiltProfile[] = policy.profiles.map((profile) => {
    const argsOf = (plugin: string) => profile.pluginConfig.find((c) => c.name === plugin)?.args ?? {};
    // Each evictor plugin is built once, however many points name it.
    const evictorPlugins = new Map<string, EvictorPlugin>();
    const evictorPlugin = (name: string): EvictorPlugin => {
      let plugin = evictorPlugins.get(name);
      if (!plugin) {
        const entry = registry[name];
        if (entry?.kind !== 'evictor') throw new Error(`${name} is not an evictor plugin`);
        plugin = entry.factory(argsOf(name), evictorContext);
        evictorPlugins.set(name, plugin);
      }
      return plugin;
    };
    const evictor = createEvictor({
      profile: profile.name,
      podEvictor,
      filters: profile.plugins.filter.enabled.map((n) => evictorPlugin(n).filter),
      preEvictionFilters: profile.plugins.preEvictionFilter.enabled.map(
        (n) => evictorPlugin(n).preEvictionFilter,
      ),
      extensionPoint: () => point,
    });
    const handle = createHandle(view, evictor, now, options.podFitsNode);
    // A plugin named at both points is built once, as upstream does.
    const instances = new Map<string, DeschedulePlugin | BalancePlugin>();
    const instance = (name: string) => {
      let plugin = instances.get(name);
      if (!plugin) {
        const entry = registry[name];
        if (entry.kind === 'evictor') throw new Error(`${name} is an evictor plugin`);
        plugin = entry.factory(argsOf(name), handle);
        instances.set(name, plugin);
      }
      return plugin;
    };
    return {
      name: profile.name,
      deschedule: profile.plugins.deschedule.enabled.map((n) => instance(n) as DeschedulePlugin),
      balance: profile.plugins.balance.enabled.map((n) => instance(n) as BalancePlugin),
    };
  });

  const result: DeschedulingResult = {
    evictions: podEvictor.evictions,
    refused: podEvictor.refused,
    profiles: [],
    limits: { ...stripUndefined(limits), reached: { total: false, nodes: [], namespaces: [] } },
    nodes: nodes.map(nameOf),
  };
  if (nodes.length <= 1) result.skipped = TOO_FEW_NODES_MESSAGE;
  else {
    point = 'deschedule';
    for (const profile of built) for (const plugin of profile.deschedule) plugin.deschedule(nodes);
    point = 'balance';
    for (const profile of built) for (const plugin of profile.balance) plugin.balance(nodes);
  }

  result.profiles = built.map((p) => summarize(p.name, podEvictor));
  result.limits.reached = limitsReached(podEvictor, limits);
  return result;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function summarize(name: string, podEvictor: PodEvictor): ProfileSummary {
  const mine = podEvictor.evictions.filter((e) => e.profile === name);
  const byStrategy: Record<string, number> = {};
  for (const e of mine) byStrategy[e.strategy] = (byStrategy[e.strategy] ?? 0) + 1;
  const refused: Partial<Record<EvictionRefusal, number>> = {};
  for (const r of podEvictor.refused.filter((x) => x.profile === name))
    refused[r.refusal] = (refused[r.refusal] ?? 0) + 1;
  return {
    name,
    evicted: mine.length,
    deschedule: mine.filter((e) => e.extensionPoint === 'deschedule').length,
    balance: mine.filter((e) => e.extensionPoint === 'balance').length,
    byStrategy,
    refused,
  };
}

function limitsReached(
  podEvictor: PodEvictor,
  limits: LimitsReport | Omit<LimitsReport, 'reached'>,
): LimitsReport['reached'] {
  const count = (key: (e: Eviction) => string) => {
    const m = new Map<string, number>();
    for (const e of podEvictor.evictions) m.set(key(e), (m.get(key(e)) ?? 0) + 1);
    return m;
  };
  const atMax = (m: Map<string, number>, max: number | undefined) =>
    max === undefined
      ? []
      : [...m]
          .filter(([, n]) => n >= max)
          .map(([k]) => k)
          .sort();
  return {
    total: limits.maxNoOfPodsToEvictTotal !== undefined && podEvictor.total >= limits.maxNoOfPodsToEvictTotal,
    nodes: atMax(
      count((e) => e.node),
      limits.maxNoOfPodsToEvictPerNode,
    ),
    namespaces: atMax(
      count((e) => e.namespace),
      limits.maxNoOfPodsToEvictPerNamespace,
    ),
  };
}
