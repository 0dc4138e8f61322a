/**
 * "What is the cheapest set of nodes to add so every pending pod schedules?" Greedy by price per
 * newly scheduled pod, each candidate verified by real scheduling, then pruned: any added node
 * whose removal still schedules everything is dropped (most expensive first). Pods that no
 * template could host are reported with the FitError against a cluster of only that template.
 */
import { podKeyOf } from '@schedlab/k8s';
import type { KubeObject } from '@schedlab/k8s';
import { buildClusterState, createSimulator, schedulePending } from '@schedlab/scheduler';
import { csiNodeFromTemplate, nodeFromTemplate } from '../scenario/nodes';
import { runScenario } from '../scenario/run';
import type { NodeTemplate } from '../scenario/schema';
import { EngineOptions, World } from '../scenario/world';

export interface NodesNeededResult {
  /** template name → nodes to add (templates not needed are absent). */
  add: Record<string, number>;
  hourlyCost: number;
  /** Pending pods that schedule once the nodes are added. */
  scheduled: string[];
  /** Pods no template can host: pod → template → FitError on a one-node cluster of that template. */
  unhostable: Record<string, Record<string, string>>;
  /** True when maxNodes stopped the search before every hostable pod scheduled. */
  limited: boolean;
}

type Counts = Record<string, number>;

/** Nodes of a template in `counts`: own keys only (a template named "constructor" is not Object's). */
const countOf = (counts: Counts, template: string): number =>
  Object.hasOwn(counts, template) ? counts[template] : 0;

function pendingAfter(
  items: readonly KubeObject[],
  templates: readonly NodeTemplate[],
  counts: Counts,
  engine: EngineOptions,
): Set<string> {
  const steps = templates
    .filter((t) => countOf(counts, t.name) > 0)
    .map((t) => ({
      addNodes: { template: t.name, count: countOf(counts, t.name), namePrefix: `new-${t.name}` },
    }));
  const world = runScenario(items, { nodeTemplates: [...templates], steps }, engine).world;
  return new Set(world.pendingPods().map(podKeyOf));
}

/** FitError of each pod on a cluster made of one node of the template and nothing else running. */
function fitOnTemplateAlone(
  world: World,
  podKeys: readonly string[],
  template: NodeTemplate,
): Map<string, string | undefined> {
  const others = world.items.filter((i) => i.kind !== 'Node' && i.kind !== 'Pod');
  const out = new Map<string, string | undefined>();
  for (const key of podKeys) {
    const pod = world.pod(key)!;
    const name = `${template.name}-0`;
    const cluster = buildClusterState([
      ...others.filter((o) => !(o.kind === 'CSINode' && o.metadata?.name === name)),
      nodeFromTemplate(name, template) as unknown as KubeObject,
      ...(template.csiDrivers?.length ? [csiNodeFromTemplate(name, template.csiDrivers)] : []),
      pod as unknown as KubeObject,
    ]);
    const [r] = schedulePending(
      createSimulator(cluster, world.engineSetup(), { ...world.engine, preemption: false }),
      cluster.pendingPods,
    );
    out.set(key, r.node ? undefined : (r.message ?? r.error ?? r.outcome));
  }
  return out;
}

const cost = (templates: readonly NodeTemplate[], counts: Counts) =>
  templates.reduce((s, t) => s + countOf(counts, t.name) * (t.hourlyPrice ?? 0), 0);

export function nodesNeeded(
  items: readonly KubeObject[],
  templates: readonly NodeTemplate[],
  engine: EngineOptions = {},
  opts: { maxNodes?: number } = {},
): NodesNeededResult {
  if (templates.length === 0) throw new Error('templates: give at least one node template');
  const maxNodes = opts.maxNodes ?? 100;
  const settled = runScenario(items, { steps: [] }, engine).world;
  const pending = settled.pendingPods().map(podKeyOf);
  const unhostable: NodesNeededResult['unhostable'] = {};
  const fits = templates.map((t) => fitOnTemplateAlone(settled, pending, t));
  for (const key of pending) {
    if (fits.every((f) => f.get(key) !== undefined))
      unhostable[key] = Object.fromEntries(templates.map((t, i) => [t.name, fits[i].get(key)!]));
  }
  const goal = new Set(pending.filter((k) => !unhostable[k]));
  const base = settled.items;
  const remainingOf = (counts: Counts) =>
    [...pendingAfter(base, templates, counts, engine)].filter((k) => goal.has(k));

  let counts: Counts = {};
  let remaining = [...goal];
  let total = 0;
  while (remaining.length > 0 && total < maxNodes) {
    let best: { template: NodeTemplate; remaining: string[]; score: number } | undefined;
    for (const t of templates) {
      const trial = { ...counts, [t.name]: countOf(counts, t.name) + 1 };
      const left = remainingOf(trial);
      const gained = remaining.length - left.length;
      if (gained <= 0) continue;
      const score = (t.hourlyPrice ?? 0) / gained;
      if (
        !best ||
        score < best.score ||
        (score === best.score && gained > remaining.length - best.remaining.length)
      )
        best = { template: t, remaining: left, score };
    }
    // No single node helps (e.g. pods needing two new nodes at once): add the cheapest template that hosts the most.
    const pick = best ?? {
      template: [...templates].sort((a, b) => (a.hourlyPrice ?? 0) - (b.hourlyPrice ?? 0))[0],
      remaining,
      score: Infinity,
    };
    counts = { ...counts, [pick.template.name]: countOf(counts, pick.template.name) + 1 };
    remaining = best ? pick.remaining : remainingOf(counts);
    total++;
  }
  const limited = remaining.length > 0;
  if (!limited) {
    // Prune: drop nodes (most expensive templates first) while everything still schedules.
    for (const t of [...templates].sort((a, b) => (b.hourlyPrice ?? 0) - (a.hourlyPrice ?? 0))) {
      while (countOf(counts, t.name) > 0) {
        const trial = { ...counts, [t.name]: countOf(counts, t.name) - 1 };
        if (remainingOf(trial).length > 0) break;
        counts = trial;
      }
    }
  }
  const add = Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
  const stillPending = new Set(remainingOf(counts));
  return {
    add,
    hourlyCost: cost(templates, add),
    scheduled: [...goal].filter((k) => !stillPending.has(k)).sort(),
    unhostable,
    limited,
  };
}
