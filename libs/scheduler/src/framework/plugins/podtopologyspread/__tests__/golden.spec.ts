/**
 * Checks the plugin in isolation against the v1.26.7 golden cases: for each pending pod (with
 * earlier pods bound where they went and preemption victims evicted), the PodTopologySpread
 * Filter verdict per node and its weighted normalized scores over the feasible nodes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { defaultObject, defaultPod } from '@schedlab/k8s';
import type { Pod } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import type { NodeScore } from '../../../interface';
import { PodInfo } from '../../../types';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { defaultArgs, validateArgs } from '../args';
import { PRE_SCORE_STATE_KEY, PodTopologySpread } from '../plugin';
import type { PreScoreState } from '../scoring';

const ROOT = '/work/shared/conformance';

interface Result {
  pod: string;
  node: string | null;
  feasible?: string[];
  pluginScores?: Record<string, Record<string, number>>;
  filterPlugin?: Record<string, string>;
  filterReasons?: Record<string, string[]>;
  victims?: string[];
  nominatedNode?: string;
  firstAttempt?: { filterPlugin?: Record<string, string>; filterReasons?: Record<string, string[]> };
  /** scale family: "<plugin>: <reasons>" → nodes; feasible nodes are the keys of `scores`. */
  failedNodes?: Record<string, string[]>;
  scores?: Record<string, number>;
}

/** The scale family reports failures grouped by "<plugin>: <reasons>"; turn them into per-node maps. */
function fromFailedNodes(r: Result): void {
  if (!r.failedNodes) return;
  r.feasible = Object.keys(r.scores ?? {});
  r.filterPlugin = {};
  r.filterReasons = {};
  for (const [k, nodes] of Object.entries(r.failedNodes)) {
    const i = k.indexOf(': ');
    for (const n of nodes) {
      r.filterPlugin[n] = k.slice(0, i);
      r.filterReasons[n] = [k.slice(i + 2)];
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

function keyOf(o: Obj): string {
  return `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name}`;
}

function caseFiles(family: string): string[] {
  const dir = path.join(ROOT, family);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(dir, f));
}

interface Tally {
  /** Pods scored under system-default constraints deduced from their Service/controller. */
  defaultedPods: number;
  filterChecks: number;
  scoreChecks: number;
  mismatches: string[];
}

function runCase(file: string, tally: Tally): void {
  const gc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const cfg = gc.config;
  const features = new FeatureSet('1.26', cfg.featureGates ?? {});
  const weight = (cfg.plugins?.score ?? []).find((p: Obj) => p.name === 'PodTopologySpread')?.weight ?? 0;
  const rawArgs = (cfg.pluginConfig ?? []).find((p: Obj) => p.name === 'PodTopologySpread')?.args;
  const args = defaultArgs(
    rawArgs ? { ...rawArgs, apiVersion: undefined, kind: undefined } : undefined,
    features,
  );
  expect(validateArgs(args, features)).toEqual([]);

  const items: Obj[] = gc.input.items.map((o: Obj) => defaultObject(o));
  const objects = new ClusterObjects();
  const nodes = [];
  const running: Pod[] = [];
  const pending = new Map<string, Pod>();
  for (const o of items) {
    switch (o.kind) {
      case 'Node':
        nodes.push(o);
        break;
      case 'Pod': {
        const p = defaultPod(o);
        if (p.spec?.nodeName) running.push(p);
        else pending.set(keyOf(p), p);
        break;
      }
      case 'Service':
        objects.services.set(o);
        break;
      case 'ReplicaSet':
        objects.replicaSets.set(o);
        break;
      case 'StatefulSet':
        objects.statefulSets.set(o);
        break;
    }
  }
  const handle = new FakeHandle({ nodes, pods: running, objects, features });
  const snap = handle.snapshot();
  const where = new Map<string, { uid: string; node: string }>();
  for (const p of running) where.set(keyOf(p), { uid: new PodInfo(p).uid, node: p.spec!.nodeName! });
  const plugin = new PodTopologySpread(args, handle);
  const label = path.basename(file);

  const checkFilter = (
    pod: Pod,
    expected: { filterPlugin?: Record<string, string>; filterReasons?: Record<string, string[]> },
    feasible: string[],
  ) => {
    const state = new CycleState();
    const pre = plugin.preFilter(state, pod);
    expect(pre.status).toBeNull();
    for (const ni of snap.list()) {
      const failedBy = expected.filterPlugin?.[ni.name];
      // Scale searches only part of the cluster: nodes it did not examine say nothing.
      const mustPass = feasible.includes(ni.name) || failedBy === 'InterPodAffinity';
      if (failedBy !== 'PodTopologySpread' && !mustPass) continue;
      const st = plugin.filter(state, pod, ni);
      tally.filterChecks++;
      const got = st === null ? 'pass' : st.reasons.join(', ');
      const want = mustPass ? 'pass' : expected.filterReasons![ni.name].join(', ');
      if (got !== want)
        tally.mismatches.push(`${label} ${keyOf(pod)} filter ${ni.name}: got ${got}, want ${want}`);
    }
    return state;
  };

  for (const r of gc.expected as Result[]) {
    fromFailedNodes(r);
    const pod = pending.get(r.pod)!;
    if (r.firstAttempt) checkFilter(pod, r.firstAttempt, []);
    for (const v of r.victims ?? []) {
      const w = where.get(v)!;
      snap.removePod(w.uid, w.node);
      where.delete(v);
    }
    const feasible = r.feasible ?? [];
    if (!r.firstAttempt || r.filterPlugin) {
      const state = checkFilter(pod, r, feasible);
      if (
        feasible.length > 0 &&
        r.failedNodes !== undefined &&
        !pod.spec?.topologySpreadConstraints?.length
      ) {
        // Scale reports no per-plugin scores; at least check defaults are deduced and score runs.
        expect(
          plugin.preScore(
            state,
            pod,
            feasible.map((n) => snap.get(n)!),
          ),
        ).toBeNull();
        const ps = state.read<PreScoreState>(PRE_SCORE_STATE_KEY)!;
        if (ps.constraints.length === 2) tally.defaultedPods++;
        for (const n of feasible) expect(plugin.score(state, pod, snap.get(n)!)[1]).toBeNull();
      }
      if (feasible.length > 0 && r.pluginScores?.PodTopologySpread) {
        const nodeInfos = feasible.map((n) => snap.get(n)!);
        expect(plugin.preScore(state, pod, nodeInfos)).toBeNull();
        const scores: NodeScore[] = nodeInfos.map((ni) => ({
          name: ni.name,
          score: plugin.score(state, pod, ni)[0],
        }));
        plugin.normalizeScore(state, pod, scores);
        for (const s of scores) {
          tally.scoreChecks++;
          const want = r.pluginScores.PodTopologySpread[s.name];
          if (s.score * weight !== want) {
            tally.mismatches.push(`${label} ${r.pod} score ${s.name}: got ${s.score * weight}, want ${want}`);
          }
        }
      }
    }
    if (r.node) {
      const bound: Pod = { ...pod, spec: { ...pod.spec!, nodeName: r.node } };
      const pi = new PodInfo(bound);
      snap.addPod(pi, r.node);
      where.set(r.pod, { uid: pi.uid, node: r.node });
    }
  }
}

describe('PodTopologySpread against the v1.26.7 golden cases', () => {
  for (const family of ['cases', 'profiles', 'storage', 'scale']) {
    const files = caseFiles(family);
    (files.length ? it : it.skip)(`${family}: filter verdicts and weighted scores match`, () => {
      const tally: Tally = { defaultedPods: 0, filterChecks: 0, scoreChecks: 0, mismatches: [] };
      for (const f of files) runCase(f, tally);
      // eslint-disable-next-line no-console
      console.log(
        `${family}: ${files.length} cases, ${tally.filterChecks} filter checks, ${tally.scoreChecks} score checks, ${tally.defaultedPods} pods with default constraints`,
      );
      if (family === 'scale') expect(tally.defaultedPods).toBeGreaterThan(0);
      expect(tally.mismatches.slice(0, 20)).toEqual([]);
      expect(tally.filterChecks).toBeGreaterThan(0);
    });
  }
});
