/** ImageLocality formulas (facts of upstream image_locality_test.go) and the version switch. */
import { CycleState } from '../../../cycle-state';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { ImageLocality, calculatePriority, normalizedImageName } from '..';

const MB = 1024 * 1024;

describe('normalizedImageName', () => {
  it.each([
    ['gcr.io/40', 'gcr.io/40:latest'],
    ['gcr.io/300:v1', 'gcr.io/300:v1'],
    ['localhost:5000/app', 'localhost:5000/app:latest'],
    ['nginx@sha256:abc', 'nginx@sha256:abc'],
  ])('%s → %s', (name, want) => expect(normalizedImageName(name)).toBe(want));
});

describe('calculatePriority', () => {
  it('clamps to [23 MiB, 1000 MiB × containers] and truncates', () => {
    expect(calculatePriority(10 * MB, 1)).toBe(0);
    expect(calculatePriority(2000 * MB, 1)).toBe(100);
    // upstream "two images spread on two nodes": 250 MiB image on 1 of 2 nodes … e.g. 40 MiB + 250 MiB → 29
    expect(calculatePriority(40 * MB + 250 * MB, 2)).toBe(Math.trunc((100 * (290 - 23)) / (2000 - 23)));
  });
});

describe('ImageLocality score', () => {
  const nodes = [
    makeNode({
      name: 'node1',
      images: [
        { names: ['gcr.io/40:latest'], sizeBytes: 40 * MB },
        { names: ['gcr.io/300:v1'], sizeBytes: 300 * MB },
      ],
    }),
    makeNode({ name: 'node2', images: [{ names: ['gcr.io/250:latest'], sizeBytes: 250 * MB }] }),
  ];
  const pod = makePod({
    name: 'p',
    spec: {
      containers: [
        { name: 'a', image: 'gcr.io/40' },
        { name: 'b', image: 'gcr.io/250' },
      ],
      initContainers: [{ name: 'i', image: 'gcr.io/300:v1' }],
    },
  });
  function score(version: '1.26' | '1.30'): number[] {
    const handle = new FakeHandle({ nodes, features: new FeatureSet(version) });
    const pl = new ImageLocality(handle);
    return handle.snap.list().map((ni) => pl.score(new CycleState(), pod, ni)[0]);
  }
  it('v1.26: app containers only, sizes scaled by the share of nodes holding the image', () => {
    // node1: 40 MiB × 1/2 = 20 MiB < 23 MiB → 0; node2: 250 MiB × 1/2 = 125 MiB → 100 × 102 MiB / 1977 MiB = 5.
    expect(score('1.26')).toEqual([0, 5]);
  });
  it('1.30+: init container images count too, with a threshold for three containers', () => {
    // node1: (20 + 150) MiB → 100 × 147 / 2977 = 4; node2: 125 MiB → 100 × 102 / 2977 = 3.
    expect(score('1.30')).toEqual([4, 3]);
  });
});
