/**
 * The plugin lists each profile resolves to, against what the real v1.34.4 and v1.37.2
 * schedulers printed for the recorded cases (conformance/v<release>/, written by tools/oracle):
 * DynamicResources from 1.34, NodeDeclaredFeatures from 1.36, 1.37's order and new points.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FeatureSet } from '../../../features';
import { inTreeRegistry } from '../../../framework/plugins/registry';
import { defaultConfiguration, loadSchedulerConfiguration } from '../load';
import { EXTENSION_POINTS, type ResolvedProfile } from '../types';

const RECORDINGS = path.resolve(__dirname, '../../../../../../conformance');
const registry = inTreeRegistry();

function printed(profile: ResolvedProfile): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const point of EXTENSION_POINTS) {
    const list = profile.plugins[point];
    if (list.length > 0)
      out[point] = list.map((p) => (point === 'score' ? { name: p.name, weight: p.weight } : p.name));
  }
  return out;
}

const releases = fs.existsSync(RECORDINGS)
  ? fs.readdirSync(RECORDINGS).filter((d) => /^v1\.\d+\.\d+$/.test(d))
  : [];
const files = releases.flatMap((release) =>
  ['cases', 'profiles', 'storage']
    .filter((family) => fs.existsSync(path.join(RECORDINGS, release, family)))
    .flatMap((family) =>
      fs
        .readdirSync(path.join(RECORDINGS, release, family))
        .filter((f) => f.endsWith('.json'))
        .map((f) => `${release}/${family}/${f}`),
    ),
);

const describeIfRecorded = files.length > 0 ? describe : describe.skip;

describeIfRecorded('plugin lists of recorded releases', () => {
  it.each(files)('%s', (file) => {
    const recorded = JSON.parse(fs.readFileSync(path.join(RECORDINGS, file), 'utf8'));
    const features = new FeatureSet(recorded.kubeSchedulerVersion, recorded.config.featureGates ?? {});
    const resolved =
      recorded.config.schedulerConfiguration === undefined
        ? defaultConfiguration({ registry, features })
        : loadSchedulerConfiguration(recorded.config.schedulerConfiguration, { registry, features });
    expect(printed(resolved.profiles[0])).toEqual(recorded.config.plugins);
  });
});
