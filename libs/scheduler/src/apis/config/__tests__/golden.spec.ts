import * as fs from 'fs';
import * as path from 'path';
import { FeatureSet } from '../../../features';
import { defaultConfiguration, loadSchedulerConfiguration } from '../load';
import { EXTENSION_POINTS, type ResolvedProfile } from '../types';
import { descriptorsWrittenSoFar } from './registry-for-tests';

const CONFORMANCE = '/work/shared/conformance';
const registry = descriptorsWrittenSoFar();

type GoldenPlugins = Record<string, (string | { name: string; weight: number })[]>;

/** The golden `config.plugins` shape: names, and {name, weight} for score. */
function asGolden(profile: ResolvedProfile): GoldenPlugins {
  const out: GoldenPlugins = {};
  for (const point of EXTENSION_POINTS) {
    const list = profile.plugins[point];
    if (list.length === 0) continue;
    out[point] = list.map((p) => (point === 'score' ? { name: p.name, weight: p.weight as number } : p.name));
  }
  return out;
}

/**
 * v1 JSON as upstream prints it: omitempty drops empty lists and unset fields. `false` is dropped
 * too, because fields added after 1.26 (InterPodAffinityArgs.ignorePreferredTermsOfExistingPods)
 * print as false in newer releases and are absent from the 1.26 golden output.
 */
function omitEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(omitEmpty);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined || x === null || x === false || (Array.isArray(x) && x.length === 0)) continue;
      out[k] = omitEmpty(x);
    }
    return out;
  }
  return v;
}

function stripTypeMeta(args: Record<string, unknown>): Record<string, unknown> {
  const { kind: _k, apiVersion: _a, ...rest } = args;
  return rest;
}

const profileCases = fs.existsSync(path.join(CONFORMANCE, 'profiles'))
  ? fs
      .readdirSync(path.join(CONFORMANCE, 'profiles'))
      .filter((f) => f.endsWith('.json'))
      .sort()
  : [];

describe('golden profiles (v1.26.7)', () => {
  it('has the 40 cases', () => {
    expect(profileCases).toHaveLength(40);
  });

  it.each(profileCases)('%s: plugins and args match the framework', (file) => {
    const golden = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'profiles', file), 'utf8'));
    const features = new FeatureSet('1.26', golden.config.featureGates ?? {});
    const resolved = loadSchedulerConfiguration(golden.config.schedulerConfiguration, { registry, features });
    expect(resolved.profiles).toHaveLength(1);
    expect(resolved.percentageOfNodesToScore).toBe(golden.config.percentageOfNodesToScore);
    const profile = resolved.profiles[0];
    expect(asGolden(profile)).toEqual(golden.config.plugins);

    for (const pc of golden.config.pluginConfig as { name: string; args: Record<string, unknown> }[]) {
      if (!registry.get(pc.name)?.defaultArgs) continue;
      expect({ plugin: pc.name, args: omitEmpty(profile.pluginArgs.get(pc.name)) }).toEqual({
        plugin: pc.name,
        args: omitEmpty(stripTypeMeta(pc.args)),
      });
    }
    // Args exist exactly for the plugins the golden lists, among those whose descriptor defaults args.
    const withDefaults = [...profile.pluginArgs.keys()].filter((n) => registry.get(n)?.defaultArgs).sort();
    const goldenWithDefaults = (golden.config.pluginConfig as { name: string }[])
      .map((pc) => pc.name)
      .filter((n) => registry.get(n)?.defaultArgs)
      .sort();
    expect(withDefaults).toEqual(goldenWithDefaults);
  });

  it('the default profile equals the default family (case-1)', () => {
    const golden = JSON.parse(fs.readFileSync(path.join(CONFORMANCE, 'cases', 'case-1.json'), 'utf8'));
    const resolved = defaultConfiguration({
      registry,
      features: new FeatureSet('1.26', golden.config.featureGates ?? {}),
    });
    expect(resolved.profiles.map((p) => p.schedulerName)).toEqual(['default-scheduler']);
    expect(asGolden(resolved.profiles[0])).toEqual(golden.config.plugins);
  });
});
