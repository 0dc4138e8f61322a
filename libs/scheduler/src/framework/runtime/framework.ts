/**
 * Runs a profile's plugins at each extension point (upstream framework/runtime/framework.go):
 * instantiates each plugin once, stops Filter at the first failing plugin, skips plugins that
 * returned Skip, normalizes and weights scores, and serves as the plugins' Handle.
 */
import { Pod, podPriority } from '@schedlab/k8s';
import type { ClusterObjects } from '../../backend/cache/cluster-objects';
import type { Snapshot } from '../../backend/cache/snapshot';
import type { Nominator } from '../../backend/queue/nominator';
import type { FeatureSet } from '../../features';
import { DEFAULT_START_TIME_BASE } from '../../simulation/clock';
import { CycleState } from '../cycle-state';
import {
  BindPlugin,
  FilterPlugin,
  Handle,
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  NodeInfoLister,
  NodeScore,
  NodeToStatusMap,
  PermitPlugin,
  Plugin,
  PostBindPlugin,
  PostFilterPlugin,
  PostFilterResult,
  PreBindPlugin,
  PreEnqueuePlugin,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  QueueSortPlugin,
  ReservePlugin,
  ScorePlugin,
} from '../interface';
import { Code, MaybeStatus, Status, isRejected, isSkip, isSuccess } from '../status';
import type { NodeInfo, PodInfo } from '../types';
import type { FrameworkProfile } from './profile';
import type { PluginDescriptor } from './registry';

export interface FrameworkDeps {
  snapshot: Snapshot;
  objects: ClusterObjects;
  features: FeatureSet;
  nominator: Nominator;
  /** The simulation's seeded source; plugins draw from it through randomInt. */
  random?: { intn(n: number): number };
  /** The simulation's clock in ms (its start time base). */
  now?: () => number;
}

/** One Score plugin's scores for the nodes of a ScoreResult, index for index with `totals`. */
export interface PluginScoreBreakdown {
  plugin: string;
  weight: number;
  /** Score before NormalizeScore. */
  raw: Float64Array;
  /** Normalized score × weight. */
  weighted: Float64Array;
}

/**
 * A cycle's scores. The totals and the plugins' breakdown arrays are reused by the next
 * runScorePlugins call: read (or copy) them before scoring another pod.
 */
export interface ScoreResult {
  totals: NodeScore[];
  plugins: PluginScoreBreakdown[];
}

export class PluginNotFoundError extends Error {}

export class Framework implements Handle {
  readonly profileName: string;
  readonly percentageOfNodesToScore?: number;
  readonly features: FeatureSet;
  readonly objects: ClusterObjects;
  readonly nominator: Nominator;
  private readonly snap: Snapshot;
  private readonly random?: { intn(n: number): number };
  private readonly clock?: () => number;
  private readonly instances = new Map<string, Plugin>();

  readonly preEnqueuePlugins: PreEnqueuePlugin[];
  readonly queueSortPlugin?: QueueSortPlugin;
  readonly preFilterPlugins: PreFilterPlugin[];
  readonly filterPlugins: FilterPlugin[];
  readonly postFilterPlugins: PostFilterPlugin[];
  readonly preScorePlugins: PreScorePlugin[];
  readonly scorePlugins: { plugin: ScorePlugin; weight: number }[];
  readonly reservePlugins: ReservePlugin[];
  readonly permitPlugins: PermitPlugin[];
  readonly preBindPlugins: PreBindPlugin[];
  readonly bindPlugins: BindPlugin[];
  readonly postBindPlugins: PostBindPlugin[];

  constructor(
    profile: FrameworkProfile,
    registry: ReadonlyMap<string, PluginDescriptor>,
    deps: FrameworkDeps,
  ) {
    this.profileName = profile.schedulerName;
    this.percentageOfNodesToScore = profile.percentageOfNodesToScore;
    this.features = deps.features;
    this.objects = deps.objects;
    this.nominator = deps.nominator;
    this.snap = deps.snapshot;
    this.random = deps.random;
    this.clock = deps.now;

    const get = <T>(name: string): T => {
      let inst = this.instances.get(name);
      if (!inst) {
        const d = registry.get(name);
        if (!d)
          throw new PluginNotFoundError(
            `profile "${profile.schedulerName}": plugin "${name}" is not implemented`,
          );
        const args = profile.pluginArgs.has(name)
          ? profile.pluginArgs.get(name)
          : d.defaultArgs
            ? d.defaultArgs(undefined, deps.features)
            : undefined;
        inst = d.create(args, this);
        this.instances.set(name, inst);
      }
      return inst as T;
    };
    const at = <T>(point: keyof FrameworkProfile['plugins'], method: string): T[] =>
      profile.plugins[point].map((ref) => {
        const p = get<Record<string, unknown>>(ref.name);
        if (typeof p[method] !== 'function') {
          throw new Error(
            `profile "${profile.schedulerName}": plugin "${ref.name}" does not extend ${point}`,
          );
        }
        return p as T;
      });

    this.preEnqueuePlugins = at<PreEnqueuePlugin>('preEnqueue', 'preEnqueue');
    this.queueSortPlugin = at<QueueSortPlugin>('queueSort', 'less')[0];
    this.preFilterPlugins = at<PreFilterPlugin>('preFilter', 'preFilter');
    this.filterPlugins = at<FilterPlugin>('filter', 'filter');
    this.postFilterPlugins = at<PostFilterPlugin>('postFilter', 'postFilter');
    this.preScorePlugins = at<PreScorePlugin>('preScore', 'preScore');
    this.scorePlugins = profile.plugins.score.map((ref) => ({
      plugin: at<ScorePlugin>('score', 'score').find((p) => p.name === ref.name)!,
      weight: ref.weight && ref.weight > 0 ? ref.weight : 1,
    }));
    this.reservePlugins = at<ReservePlugin>('reserve', 'reserve');
    this.permitPlugins = at<PermitPlugin>('permit', 'permit');
    this.preBindPlugins = at<PreBindPlugin>('preBind', 'preBind');
    this.bindPlugins = at<BindPlugin>('bind', 'bind');
    this.postBindPlugins = at<PostBindPlugin>('postBind', 'postBind');
  }

  randomInt(n: number): number {
    return this.random ? this.random.intn(n) : 0;
  }

  now(): number {
    return this.clock ? this.clock() : Date.parse(DEFAULT_START_TIME_BASE);
  }

  snapshot(): NodeInfoLister {
    return this.snap;
  }

  plugin(name: string): Plugin | undefined {
    return this.instances.get(name);
  }

  runPreEnqueuePlugins(pod: Pod): MaybeStatus {
    for (const p of this.preEnqueuePlugins) {
      const s = p.preEnqueue(pod);
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return null;
  }

  /**
   * Runs PreFilter plugins. UnschedulableAndUnresolvable ends the phase at once; Unschedulable
   * did too up to 1.29, while from 1.30 the remaining plugins still run and the last Unschedulable
   * status is reported. Node sets returned by plugins are intersected; an empty intersection
   * rejects the pod everywhere. `narrowedBy` names the plugins that returned node sets.
   */
  runPreFilterPlugins(
    state: CycleState,
    pod: Pod,
  ): { result?: PreFilterResult; status: MaybeStatus; narrowedBy?: string[] } {
    const b = this.features.behaviour;
    let merged: PreFilterResult | undefined;
    const narrowing: string[] = [];
    let unschedulable: MaybeStatus = null;
    state.filterPluginsToRun = undefined;
    for (const p of this.preFilterPlugins) {
      const { result, status } = p.preFilter(state, pod);
      if (isSkip(status)) {
        state.skipFilterPlugins.add(p.name);
        continue;
      }
      if (!isSuccess(status)) {
        status!.withPlugin(p.name);
        if (status!.code === Code.Unschedulable && b.preFilterContinuesAfterUnschedulable) {
          unschedulable = status;
          continue;
        }
        if (isRejected(status)) return { status };
        return {
          status: Status.error(`running PreFilter plugin "${p.name}": ${status!.message()}`).withPlugin(
            p.name,
          ),
        };
      }
      if (result?.nodeNames) {
        narrowing.push(p.name);
        merged = merged?.nodeNames
          ? { nodeNames: new Set([...merged.nodeNames].filter((n) => result.nodeNames!.has(n))) }
          : { nodeNames: new Set(result.nodeNames) };
        if (merged.nodeNames!.size === 0) {
          const names = b.preFilterPluginListSorted ? [...narrowing].sort() : narrowing;
          const msg =
            names.length === 1
              ? `node(s) didn't satisfy plugin ${names[0]}`
              : `node(s) didn't satisfy plugin(s) [${names.join(' ')}] simultaneously`;
          // Unschedulable up to 1.29 (so preemption still tried), unresolvable from 1.30.
          const status = b.preFilterContinuesAfterUnschedulable
            ? Status.unresolvable(msg)
            : Status.unschedulable(msg);
          return { status: status.withPlugin(p.name), narrowedBy: names };
        }
      }
    }
    const narrowedBy = b.preFilterPluginListSorted ? [...narrowing].sort() : narrowing;
    return { result: merged, status: unschedulable, narrowedBy };
  }

  /** Filter plugins in order; the first failure decides and names its plugin. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const plugins =
      (state.filterPluginsToRun as FilterPlugin[] | undefined) ?? this.filterPluginsToRun(state, pod);
    for (let i = 0; i < plugins.length; i++) {
      const p = plugins[i];
      const s = p.filter(state, pod, nodeInfo);
      if (isSuccess(s)) continue;
      s!.withPlugin(p.name);
      if (!isRejected(s)) {
        return Status.error(`running "${p.name}" filter plugin: ${s!.message()}`).withPlugin(p.name);
      }
      return s;
    }
    return null;
  }

  /** Filter plugins in profile order, minus those skipped at PreFilter and those passing every node. */
  private filterPluginsToRun(state: CycleState, pod: Pod): FilterPlugin[] {
    const skip = state.skipFilterPlugins;
    const list = this.filterPlugins.filter(
      (p) => !skip.has(p.name) && !(p.filterPassesAllNodes?.(state, pod) ?? false),
    );
    state.filterPluginsToRun = list;
    return list;
  }

  /**
   * Upstream runs filters twice when equal-or-higher-priority pods are nominated to the node:
   * once as if they were there, once without them, and the node must pass both.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    // Fast path: most nodes have nothing nominated, so skip the key and priority lookups.
    if (this.nominator.size === 0 || this.nominator.nominatedPodsForNode(nodeInfo.name).length === 0) {
      return this.runFilterPlugins(state, pod, nodeInfo);
    }
    const uid = pod.metadata?.uid ?? `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name}`;
    const nominated = this.nominator.relevantFor(nodeInfo.name, uid, podPriority(pod));
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    const stateWith = state.clone();
    const nodeWith = nodeInfo.clone();
    for (const pi of nominated) {
      nodeWith.addPodInfo(pi);
      const s = this.runPreFilterExtensionAddPod(stateWith, pod, pi, nodeWith);
      if (!isSuccess(s)) return s;
    }
    const withNominated = this.runFilterPlugins(stateWith, pod, nodeWith);
    if (!isSuccess(withNominated)) return withNominated;
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    for (const p of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      const s = p.preFilterExtensions?.()?.addPod(state, pod, podInfoToAdd, nodeInfo) ?? null;
      if (!isSuccess(s))
        return Status.error(`running AddPod on PreFilter plugin "${p.name}": ${s!.message()}`);
    }
    return null;
  }

  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    for (const p of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      const s = p.preFilterExtensions?.()?.removePod(state, pod, podInfoToRemove, nodeInfo) ?? null;
      if (!isSuccess(s))
        return Status.error(`running RemovePod on PreFilter plugin "${p.name}": ${s!.message()}`);
    }
    return null;
  }

  /**
   * PostFilter plugins in order until one succeeds, fails hard (Error) or answers
   * UnschedulableAndUnresolvable; otherwise the Unschedulable answers are merged: their reasons in
   * plugin order (e.g. DynamicResources' then preemption's) and the last result that nominates.
   */
  runPostFilterPlugins(
    state: CycleState,
    pod: Pod,
    statuses: NodeToStatusMap,
  ): { result?: PostFilterResult; status: MaybeStatus } {
    let result: PostFilterResult | undefined;
    const reasons: string[] = [];
    let rejector = '';
    for (const p of this.postFilterPlugins) {
      const out = p.postFilter(state, pod, statuses);
      if (isSuccess(out.status)) return out;
      out.status!.withPlugin(p.name);
      if (out.status!.code !== Code.Unschedulable) return out;
      if (out.result) result = out.result;
      reasons.push(...out.status!.reasons);
      rejector ||= p.name;
    }
    return { result, status: new Status(Code.Unschedulable, reasons).withPlugin(rejector) };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: NodeInfo[]): MaybeStatus {
    for (const p of this.preScorePlugins) {
      const s = p.preScore(state, pod, nodes);
      if (isSkip(s)) {
        state.skipScorePlugins.add(p.name);
        continue;
      }
      if (!isSuccess(s))
        return Status.error(`running PreScore plugin "${p.name}": ${s!.message()}`).withPlugin(p.name);
    }
    return null;
  }

  /** Score lists and breakdown buffers, reused from one scheduling cycle to the next. */
  private readonly scoreBuffers: Float64Array[] = [];
  private readonly totalsList = new ScoreList();
  private readonly pluginScoreList = new ScoreList();

  private sums = new Float64Array(64);

  /** `length` zeros, reusing one buffer from cycle to cycle. */
  private sumBuffer(length: number): Float64Array {
    if (this.sums.length < length) this.sums = new Float64Array(Math.max(length, 2 * this.sums.length));
    const sums = this.sums.subarray(0, length);
    sums.fill(0);
    return sums;
  }

  private scoreBuffer(index: number, length: number): Float64Array {
    let buffer = this.scoreBuffers[index];
    if (buffer === undefined || buffer.length < length) {
      buffer = new Float64Array(Math.max(length, 64));
      this.scoreBuffers[index] = buffer;
    }
    return buffer.subarray(0, length);
  }

  /**
   * Score, NormalizeScore and weights; plugins that skipped in PreScore contribute nothing.
   * Without `breakdown` only the totals are kept (no per-plugin maps: the cost of explanations).
   */
  runScorePlugins(
    state: CycleState,
    pod: Pod,
    nodes: NodeInfo[],
    breakdown = true,
  ): { result?: ScoreResult; status: MaybeStatus } {
    const totals = this.totalsList.fill(nodes);
    // Summed here, in plugin order as before, and written to the totals' entries once at the end.
    const sums = this.sumBuffer(nodes.length);
    // Read once: the compiled module reads an imported binding through a getter.
    const maxScore = MAX_NODE_SCORE;
    const minScore = MIN_NODE_SCORE;
    const plugins: PluginScoreBreakdown[] = [];
    let scratch = 0;
    // One score list reused by every plugin: each plugin overwrites all entries before use.
    const scores = this.pluginScoreList.fill(nodes);
    for (const { plugin, weight } of this.scorePlugins) {
      if (state.skipScorePlugins.has(plugin.name)) continue;
      const raw = breakdown ? this.scoreBuffer(scratch++, nodes.length) : undefined;
      const uniform = plugin.uniformScore?.(state, pod);
      if (uniform !== undefined) {
        // The same score everywhere: no per-node calls, no normalization, and the same checks and
        // sums as the per-node passes below would make.
        const sc = uniform.score;
        if (nodes.length > 0 && (sc > maxScore || sc < minScore)) {
          return {
            status: Status.error(
              `plugin "${plugin.name}" returns an invalid score ${sc}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
            ),
          };
        }
        const w = sc * weight;
        for (let i = 0; i < nodes.length; i++) sums[i] += w;
        if (raw) {
          raw.fill(uniform.raw);
          const weighted = this.scoreBuffer(scratch++, nodes.length);
          weighted.fill(w);
          plugins.push({ plugin: plugin.name, weight, raw, weighted });
        }
        continue;
      }
      if (plugin.scoreNodes) {
        const s = plugin.scoreNodes(state, pod, nodes, scores);
        if (!isSuccess(s)) {
          return {
            status: Status.error(`running Score plugin "${plugin.name}": ${s!.message()}`).withPlugin(
              plugin.name,
            ),
          };
        }
        if (raw) for (let i = 0; i < nodes.length; i++) raw[i] = scores[i].score;
      } else {
        for (let i = 0; i < nodes.length; i++) {
          const [score, s] = plugin.score(state, pod, nodes[i]);
          if (!isSuccess(s)) {
            return {
              status: Status.error(`running Score plugin "${plugin.name}": ${s!.message()}`).withPlugin(
                plugin.name,
              ),
            };
          }
          scores[i].score = score;
          if (raw) raw[i] = score;
        }
      }
      const ext = plugin.scoreExtensions?.();
      if (ext) {
        const s = ext.normalizeScore(state, pod, scores);
        if (!isSuccess(s)) {
          return {
            status: Status.error(`running Normalize on Score plugin "${plugin.name}": ${s!.message()}`),
          };
        }
      }
      const weighted = breakdown ? this.scoreBuffer(scratch++, nodes.length) : undefined;
      for (let i = 0; i < scores.length; i++) {
        const sc = scores[i].score;
        if (sc > maxScore || sc < minScore) {
          return {
            status: Status.error(
              `plugin "${plugin.name}" returns an invalid score ${sc}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
            ),
          };
        }
        const w = sc * weight;
        if (weighted) weighted[i] = w;
        sums[i] += w;
      }
      if (raw && weighted) plugins.push({ plugin: plugin.name, weight, raw, weighted });
    }
    for (let i = 0; i < totals.length; i++) totals[i].score = sums[i];
    return { result: { totals, plugins }, status: null };
  }

  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const p of this.reservePlugins) {
      const s = p.reserve(state, pod, nodeName);
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return null;
  }

  /** Unreserve runs in reverse order, as upstream does, so later reservations unwind first. */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reservePlugins.length - 1; i >= 0; i--)
      this.reservePlugins[i].unreserve(state, pod, nodeName);
  }

  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const p of this.permitPlugins) {
      const { status } = p.permit(state, pod, nodeName);
      // A simulation has nobody to approve a waiting pod; Wait is reported like a rejection.
      if (!isSuccess(status)) return status!.withPlugin(p.name);
    }
    return null;
  }

  runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const p of this.preBindPlugins) {
      const s = p.preBind(state, pod, nodeName);
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return null;
  }

  /** The first bind plugin that does not Skip binds the pod. */
  runBindPlugins(state: CycleState, pod: Pod, nodeName: string): MaybeStatus {
    for (const p of this.bindPlugins) {
      const s = p.bind(state, pod, nodeName);
      if (isSkip(s)) continue;
      return isSuccess(s) ? null : s!.withPlugin(p.name);
    }
    return Status.error('no bind plugin bound the pod');
  }

  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (const p of this.postBindPlugins) p.postBind(state, pod, nodeName);
  }
}

/**
 * A score list reused from one cycle to the next: one entry per node, score 0. The entries live
 * apart from the list, which never drops them: cutting a list's length to a pod with fewer
 * feasible nodes (a node selector) makes V8 trim its storage, and the entries past the cut were
 * then made again for the next pod with more, a thousand objects at a time.
 */
class ScoreList {
  private readonly list: NodeScore[] = [];
  private readonly entries: NodeScore[] = [];

  fill(nodes: readonly NodeInfo[]): NodeScore[] {
    const { list, entries } = this;
    while (entries.length < nodes.length) entries.push({ name: '', score: 0 });
    list.length = nodes.length;
    for (let i = 0; i < nodes.length; i++) {
      const entry = entries[i];
      entry.name = nodes[i].name;
      entry.score = 0;
      list[i] = entry;
    }
    return list;
  }
}
