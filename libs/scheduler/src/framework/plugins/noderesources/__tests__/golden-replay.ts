/**
 * Replays golden cases (/work/shared/conformance) just far enough to check one plugin in
 * isolation: pods are bound at their expected nodes and victims evicted, in expected order,
 * and a callback sees the cluster state each recorded result was computed on.
 */
import * as fs from 'fs';
import * as path from 'path';
import { defaultNode, defaultPod, type Node, type Pod } from '@schedlab/k8s';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { PodInfo } from '../../../types';

export const CONFORMANCE_DIR = '/work/shared/conformance';

export interface GoldenResult {
  pod: string;
  node: string | null;
  feasible?: string[];
  pluginScores?: Record<string, Record<string, number>>;
  filterReasons?: Record<string, string[]>;
  filterPlugin?: Record<string, string>;
  victims?: string[];
  firstAttempt?: { filterReasons?: Record<string, string[]>; filterPlugin?: Record<string, string> };
}

export interface GoldenCase {
  file: string;
  name: string;
  config: {
    plugins: { score: { name: string; weight: number }[] };
    schedulerConfiguration?: { profiles: { pluginConfig?: { name: string; args: unknown }[] }[] };
  };
  input: { items: { kind: string; [k: string]: unknown }[] };
  expected: GoldenResult[];
}

export function loadCases(family: string): GoldenCase[] {
  const dir = path.join(CONFORMANCE_DIR, family);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: `${family}/${f}`, ...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
}

export function pluginArgs(c: GoldenCase, plugin: string): unknown {
  return c.config.schedulerConfiguration?.profiles[0]?.pluginConfig?.find((p) => p.name === plugin)?.args;
}

export function scoreWeight(c: GoldenCase, plugin: string): number | undefined {
  return c.config.plugins.score.find((p) => p.name === plugin)?.weight;
}

const key = (p: Pod) => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`;

/** Calls `visit` for each result with the handle in the state that result was decided on. */
export function replay(
  c: GoldenCase,
  visit: (handle: FakeHandle, pod: Pod, result: GoldenResult, phase: 'firstAttempt' | 'decided') => void,
): void {
  const nodes = c.input.items.filter((i) => i.kind === 'Node').map((n) => defaultNode(n as unknown as Node));
  const pods = c.input.items.filter((i) => i.kind === 'Pod').map((p) => defaultPod(p as unknown as Pod));
  const handle = new FakeHandle({
    nodes,
    pods: pods.filter((p) => p.spec?.nodeName),
    features: new FeatureSet('1.26'),
  });
  const pending = new Map(pods.filter((p) => !p.spec?.nodeName).map((p) => [key(p), p]));
  const running = new Map(pods.filter((p) => p.spec?.nodeName).map((p) => [key(p), p]));
  for (const result of c.expected) {
    const pod = pending.get(result.pod);
    if (!pod) throw new Error(`${c.file}: pending pod ${result.pod} not in input`);
    if (result.firstAttempt)
      visit(handle, pod, { ...result, ...result.firstAttempt, feasible: [] }, 'firstAttempt');
    for (const v of result.victims ?? []) {
      const victim = running.get(v);
      if (!victim) throw new Error(`${c.file}: victim ${v} is not running`);
      handle.snap.removePod(victim.metadata?.uid ?? v, victim.spec!.nodeName!);
      running.delete(v);
    }
    visit(handle, pod, result, 'decided');
    if (result.node) {
      const bound: Pod = { ...pod, spec: { ...pod.spec!, nodeName: result.node } };
      handle.snap.addPod(new PodInfo(bound), result.node);
      running.set(result.pod, bound);
    }
  }
}
