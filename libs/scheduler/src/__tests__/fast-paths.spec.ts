/**
 * The batch scoring (ScorePlugin.scoreNodes, with its per-node score caches), uniform scores
 * (ScorePlugin.uniformScore) and filter short-cut (filterPassesAllNodes) paths must decide exactly
 * what the plain per-node Score/Filter calls decide. Replays golden inputs
 * both ways and compares every result field.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '@schedlab/k8s';
import type { PluginDescriptor } from '../framework/runtime/registry';
import { buildClusterState } from '../simulation/cluster';
import { createSimulator, schedulePending, setupEngine } from '../simulation/simulate';

const SHARED = path.resolve(__dirname, '../../../../../shared/conformance');

/** The same plugins with their fast paths hidden, so the framework falls back to per-node calls. */
function withoutFastPaths(registry: ReadonlyMap<string, PluginDescriptor>): Map<string, PluginDescriptor> {
  const out = new Map<string, PluginDescriptor>();
  for (const [name, d] of registry) {
    out.set(name, {
      ...d,
      create: (args, handle) => {
        const plugin = d.create(args, handle) as unknown as Record<string, unknown>;
        plugin.scoreNodes = undefined;
        plugin.uniformScore = undefined;
        plugin.filterPassesAllNodes = undefined;
        return plugin as never;
      },
    });
  }
  return out;
}

function replay(file: string, slow: boolean) {
  const golden = JSON.parse(readFileSync(file, 'utf8'));
  const options = {
    compatibilityVersion: '1.26',
    featureGates: golden.config.featureGates,
    tieBreak: 'lowest-node-name' as const,
    percentageOfNodesToScore: golden.config.percentageOfNodesToScore ?? 0,
    schedulerConfiguration: golden.config.schedulerConfiguration,
  };
  const cluster = buildClusterState(golden.input.items as KubeObject[]);
  const setup = setupEngine(options);
  const sim = createSimulator(
    cluster,
    slow ? { ...setup, registry: withoutFastPaths(setup.registry) } : setup,
    options,
  );
  return schedulePending(sim, cluster.pendingPods);
}

const files = ['cases', 'profiles', 'storage'].flatMap((family) =>
  readdirSync(path.join(SHARED, family))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .filter((_f, i) => i % 5 === 0)
    .map((f) => path.join(family, f)),
);

it.each(files)('%s: batch scoring and filter short-cuts decide as per-node calls do', (file) => {
  const fast = replay(path.join(SHARED, file), false);
  const slow = replay(path.join(SHARED, file), true);
  expect(fast.length).toBeGreaterThan(0);
  expect(fast).toEqual(slow);
});
