/**
 * What the framework builds from a defaulted profile (upstream NewFramework): the plugin list
 * of each extension point, with multiPoint plugins expanded into the points they implement,
 * and the effective score weights. Errors carry upstream's messages.
 */
import { compareVersions } from '../../features';
import { ConfigValidationError } from './errors';
import { extensionPointsOf } from './default-plugins';
import type { MergedPluginSet } from './merge';
import type { ExtensionPoint, PluginSetField, ResolvedPlugin } from './types';

/** Upstream's iteration order over extension points (it decides which error is reported). */
const FRAMEWORK_POINT_ORDER: readonly ExtensionPoint[] = [
  'preFilter',
  'filter',
  'postFilter',
  'reserve',
  'preScore',
  'score',
  'preBind',
  'bind',
  'postBind',
  'permit',
  'preEnqueue',
  'queueSort',
  'placementGenerate',
  'placementScore',
  'podGroupPostFilter',
];

/** Go interface names used in upstream's messages. */
const INTERFACE_NAME: Record<ExtensionPoint, string> = {
  preEnqueue: 'PreEnqueuePlugin',
  queueSort: 'QueueSortPlugin',
  preFilter: 'PreFilterPlugin',
  filter: 'FilterPlugin',
  postFilter: 'PostFilterPlugin',
  preScore: 'PreScorePlugin',
  score: 'ScorePlugin',
  reserve: 'ReservePlugin',
  permit: 'PermitPlugin',
  preBind: 'PreBindPlugin',
  bind: 'BindPlugin',
  postBind: 'PostBindPlugin',
  placementGenerate: 'PlacementGeneratePlugin',
  placementScore: 'PlacementScorePlugin',
  podGroupPostFilter: 'PodGroupPostFilterPlugin',
};

export interface ResolveContext {
  profilePath: string;
  schedulerName: string;
  version: string;
  /** Is a plugin of this name available (registry or known in-tree name)? */
  isKnown(name: string): boolean;
}

function fail(field: string, message: string): never {
  throw new ConfigValidationError([{ field, message }]);
}

/**
 * Upstream's orderedSet: deletions shift the backing array in place, and `list` is iterated by a
 * range that captured the original length. Before 1.28 the reorder loop iterated the live list, so
 * three or more overrides skip one entry and visit another twice; this reproduces that exactly.
 */
class GoOrderedSet {
  private readonly index = new Map<string, number>();
  /** Backing array; only the first `length` entries are the list. */
  readonly backing: string[] = [];
  length = 0;
  private deletions = 0;

  insert(s: string): void {
    if (this.index.has(s)) return;
    this.index.set(s, this.length);
    this.backing[this.length++] = s;
  }

  has(s: string): boolean {
    return this.index.has(s);
  }

  delete(s: string): void {
    const i = this.index.get(s);
    if (i === undefined) return;
    this.index.delete(s);
    const at = i - this.deletions;
    this.backing.copyWithin(at, at + 1, this.length);
    this.length--;
    this.deletions++;
  }

  list(): string[] {
    return this.backing.slice(0, this.length);
  }
}

function implementsPoint(name: string, point: ExtensionPoint, version: string): boolean | undefined {
  return extensionPointsOf(name, version)?.has(point);
}

function enabledPath(ctx: ResolveContext, field: PluginSetField, sourceIndex: number | undefined): string {
  const base = `${ctx.profilePath}.plugins.${field}`;
  return sourceIndex === undefined ? base : `${base}.enabled[${sourceIndex}]`;
}

export function resolveFrameworkPlugins(
  ctx: ResolveContext,
  plugins: Record<PluginSetField, MergedPluginSet>,
): Record<ExtensionPoint, ResolvedPlugin[]> {
  const lists = {} as Record<ExtensionPoint, string[]>;

  // Plugins enabled at a specific point (updatePluginList).
  for (const point of FRAMEWORK_POINT_ORDER) {
    const seen = new Set<string>();
    lists[point] = [];
    for (const p of plugins[point].enabled) {
      const path = enabledPath(ctx, point, p.sourceIndex);
      if (!ctx.isKnown(p.name)) fail(path, `${INTERFACE_NAME[point]} "${p.name}" does not exist`);
      if (implementsPoint(p.name, point, ctx.version) === false) {
        fail(path, `plugin "${p.name}" does not extend ${INTERFACE_NAME[point]} plugin`);
      }
      if (seen.has(p.name)) fail(path, `plugin "${p.name}" already registered as "${INTERFACE_NAME[point]}"`);
      seen.add(p.name);
      lists[point].push(p.name);
    }
  }

  const multiPoint = plugins.multiPoint.enabled;
  if (multiPoint.length > 0) {
    const iterateLiveList = compareVersions(ctx.version, '1.28') < 0;
    for (const point of FRAMEWORK_POINT_ORDER) {
      const set = plugins[point];
      const enabledSet = new GoOrderedSet();
      for (const p of set.enabled) enabledSet.insert(p.name);
      const disabled = new Set(set.disabled);
      if (disabled.has('*')) continue;

      const multiPointEnabled = new GoOrderedSet();
      const overrides = new Set<string>();
      for (const p of multiPoint) {
        const path = enabledPath(ctx, 'multiPoint', p.sourceIndex);
        if (!ctx.isKnown(p.name)) fail(path, `${INTERFACE_NAME[point]} "${p.name}" does not exist`);
        const impl = implementsPoint(p.name, point, ctx.version);
        if (impl === undefined) {
          fail(
            path,
            `plugin "${p.name}": its extension points are unknown, so it cannot be enabled through multiPoint`,
          );
        }
        if (!impl || disabled.has(p.name)) continue;
        if (enabledSet.has(p.name)) {
          overrides.add(p.name);
          continue;
        }
        if (multiPointEnabled.has(p.name))
          fail(path, `plugin "${p.name}" already registered as "${INTERFACE_NAME[point]}"`);
        multiPointEnabled.insert(p.name);
      }

      // Explicit overrides first (in their own order), then multiPoint plugins, then the rest.
      const reordered: string[] = [];
      const n = enabledSet.length;
      const snapshot = iterateLiveList ? enabledSet.backing : enabledSet.list();
      for (let i = 0; i < n; i++) {
        const name = snapshot[i];
        if (overrides.has(name)) {
          reordered.push(name);
          enabledSet.delete(name);
        }
      }
      reordered.push(...multiPointEnabled.list(), ...enabledSet.list());
      lists[point] = reordered;
    }
  }

  if (lists.queueSort.length !== 1) {
    fail(
      `${ctx.profilePath}.plugins.queueSort`,
      `only one queue sort plugin required for profile with scheduler name "${ctx.schedulerName}", but got ${lists.queueSort.length}`,
    );
  }
  if (lists.bind.length === 0) {
    fail(
      `${ctx.profilePath}.plugins.bind`,
      `at least one bind plugin is needed for profile with scheduler name "${ctx.schedulerName}"`,
    );
  }

  // Weights: a score-point entry wins over the multiPoint entry; unset or 0 means 1.
  const weights = new Map<string, number>();
  for (const p of [...plugins.score.enabled, ...multiPoint]) {
    if (weights.has(p.name) || implementsPoint(p.name, 'score', ctx.version) === false) continue;
    weights.set(p.name, p.weight ? p.weight : 1);
  }

  const out = {} as Record<ExtensionPoint, ResolvedPlugin[]>;
  for (const point of FRAMEWORK_POINT_ORDER) {
    out[point] = lists[point].map((name) =>
      point === 'score' ? { name, weight: weights.get(name) ?? 1 } : { name },
    );
  }
  return out;
}
