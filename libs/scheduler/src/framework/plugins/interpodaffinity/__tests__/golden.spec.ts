/**
 * Replays the recorded upstream v1.26.7 cases through InterPodAffinity alone: for every pending
 * pod (with the pods before it bound at their recorded nodes and preemption victims evicted),
 * our Filter must pass every feasible node, reproduce the exact reason on every node upstream
 * rejected in InterPodAffinity, and our normalized scores × weight must equal
 * pluginScores.InterPodAffinity.
 */
import * as fs from 'fs';
import * as path from 'path';
import { type Node, type Pod, defaultObject } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { Snapshot } from '../../../../backend/cache/snapshot';
import { FeatureSet } from '../../../../features';
import { CycleState } from '../../../cycle-state';
import type { Handle, NodeScore } from '../../../interface';
import { Code, type MaybeStatus, isSkip } from '../../../status';
import { PodInfo } from '../../../types';
import { defaultArgs } from '../args';
import { ERR_REASON_AFFINITY_RULES_NOT_MATCH } from '../filtering';
import { InterPodAffinity } from '../plugin';

const ROOT = '/work/shared/conformance';
const FAMILIES = ['cases', 'profiles', 'storage', 'node-loss'];
const PLUGIN = 'InterPodAffinity';

interface Attempt {
  feasible?: string[];
  filterReasons?: Record<string, string[]>;
  filterPlugin?: Record<string, string>;
}
interface Result extends Attempt {
  pod: string;
  node: string | null;
  pluginScores?: Record<string, Record<string, number>>;
  nominatedNode?: string;
  victims?: string[];
  firstAttempt?: Attempt;
}
interface GoldenCase {
  config: {
    plugins?: { score?: { name: string; weight: number }[] };
    pluginConfig?: { name: string; args: unknown }[];
  };
  input: { items: { kind: string }[] };
  analysis?: { type: string; nodes?: string[] };
  expected: Result[] | unknown;
}

const key = (p: Pod) => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`;

function caseFiles(): string[] {
  if (!fs.existsSync(ROOT)) return [];
  const out: string[] = [];
  for (const fam of FAMILIES) {
    const dir = path.join(ROOT, fam);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.json')) out.push(path.join(dir, f));
  }
  return out;
}

interface Tally {
  filterChecks: number;
  scoreChecks: number;
}

function replay(file: string, tally: Tally): string[] {
  const c = JSON.parse(fs.readFileSync(file, 'utf8')) as GoldenCase;
  if (!Array.isArray(c.expected)) return [];
  const results = c.expected as Result[];
  const lost = new Set(c.analysis?.type === 'node-loss' ? (c.analysis.nodes ?? []) : []);
  const items = c.input.items as unknown as (Pod | Node)[];
  const nodes = items
    .filter((i) => i.kind === 'Node' && !lost.has(i.metadata!.name!))
    .map((n) => defaultObject(n as Node));
  const running: Pod[] = [];
  const pending = new Map<string, Pod>();
  for (const i of items) {
    if (i.kind !== 'Pod') continue;
    const p = defaultObject(i as Pod);
    if (p.spec?.nodeName && !lost.has(p.spec.nodeName)) running.push(p);
    else {
      const copy: Pod = { ...p, spec: { ...p.spec!, nodeName: undefined } };
      pending.set(key(copy), copy);
    }
  }
  const where = new Map<string, { uid: string; node: string }>();
  for (const p of running) where.set(key(p), { uid: new PodInfo(p).uid, node: p.spec!.nodeName! });

  const snap = new Snapshot(nodes, running);
  const features = new FeatureSet('1.26');
  const handle: Handle = {
    snapshot: () => snap,
    objects: new ClusterObjects(),
    features,
    runFilterPlugins: () => null,
    runPreFilterExtensionAddPod: () => null,
    runPreFilterExtensionRemovePod: () => null,
  };
  const rawArgs = c.config.pluginConfig?.find((pc) => pc.name === PLUGIN)?.args;
  const weight = c.config.plugins?.score?.find((s) => s.name === PLUGIN)?.weight ?? 2;
  const plugin = new InterPodAffinity(defaultArgs(rawArgs), handle);
  const errors: string[] = [];
  const name = path.basename(path.dirname(file)) + '/' + path.basename(file);

  const checkAttempt = (pod: Pod, att: Attempt, only?: string) => {
    const state = new CycleState();
    const pre = plugin.preFilter(state, pod);
    if (pre.status) {
      errors.push(`${name} ${key(pod)}: PreFilter status ${pre.status.message()}`);
      return undefined;
    }
    const feasible = new Set(att.feasible ?? []);
    for (const ni of snap.list()) {
      if (only && ni.name !== only) continue;
      const st: MaybeStatus = plugin.filter(state, pod, ni);
      const got = st ? st.reasons.join('|') : 'OK';
      if (feasible.has(ni.name)) {
        tally.filterChecks++;
        if (st) errors.push(`${name} ${key(pod)} ${ni.name}: expected pass, got ${got}`);
      } else if (att.filterPlugin?.[ni.name] === PLUGIN) {
        tally.filterChecks++;
        const want = (att.filterReasons?.[ni.name] ?? []).join('|');
        const wantCode =
          want === ERR_REASON_AFFINITY_RULES_NOT_MATCH
            ? Code.UnschedulableAndUnresolvable
            : Code.Unschedulable;
        if (got !== want || st?.code !== wantCode) {
          errors.push(`${name} ${key(pod)} ${ni.name}: want ${want}, got ${got} (code ${st?.code})`);
        }
      }
    }
    return state;
  };

  for (const r of results) {
    const pod = pending.get(r.pod);
    if (!pod) {
      errors.push(`${name}: pending pod ${r.pod} not found`);
      continue;
    }
    if (r.nominatedNode && r.firstAttempt) {
      checkAttempt(pod, r.firstAttempt);
      for (const v of r.victims ?? []) {
        const w = where.get(v);
        if (!w || !snap.removePod(w.uid, w.node)) errors.push(`${name}: victim ${v} not found`);
        where.delete(v);
      }
    }
    const state = checkAttempt(pod, r, r.nominatedNode);
    const want = r.pluginScores?.[PLUGIN];
    if (state && want && (r.feasible?.length ?? 0) > 0) {
      const feasibleInfos = r.feasible!.map((n) => snap.get(n)!);
      const ps = plugin.preScore(state, pod, feasibleInfos);
      const scores: NodeScore[] = feasibleInfos.map((ni) => ({
        name: ni.name,
        score: isSkip(ps) ? 0 : plugin.score(state, pod, ni)[0],
      }));
      if (!isSkip(ps)) plugin.normalizeScore(state, pod, scores);
      for (const s of scores) {
        tally.scoreChecks++;
        if (s.score * weight !== want[s.name]) {
          errors.push(`${name} ${r.pod} ${s.name}: score ${s.score}×${weight}, want ${want[s.name]}`);
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
  return errors;
}

const files = caseFiles();
const describeIfData = files.length > 0 ? describe : describe.skip;

describeIfData('InterPodAffinity against upstream v1.26.7 golden cases', () => {
  it('reproduces every InterPodAffinity filter verdict and score', () => {
    const tally: Tally = { filterChecks: 0, scoreChecks: 0 };
    const errors: string[] = [];
    for (const f of files) errors.push(...replay(f, tally));
    // Printed so a run shows how much was compared.
    console.log(
      `golden: ${files.length} files, ${tally.filterChecks} filter checks, ${tally.scoreChecks} score checks`,
    );
    expect(errors.slice(0, 30)).toEqual([]);
    expect(tally.filterChecks).toBeGreaterThan(1000);
    expect(tally.scoreChecks).toBeGreaterThan(1000);
  });
});
