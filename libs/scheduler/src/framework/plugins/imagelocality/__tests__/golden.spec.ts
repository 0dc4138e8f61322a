/**
 * ImageLocality against upstream v1.26.7 golden cases, plugin in isolation. Node image summaries
 * are rebuilt as the v1.26 cache builds them (see image-states.ts); with all-node counts, as
 * Snapshot.computeImageStates does today, hundreds of these scores differ.
 */
import { CycleState } from '../../../cycle-state';
import { PluginNames } from '../../names';
import { loadCases, replay, scoreWeight } from '../../noderesources/__tests__/golden-replay';
import { ImageLocality, assignImageStatesInAddOrder } from '..';

const cases = ['cases', 'profiles', 'storage'].flatMap(loadCases);
const describeIfData = cases.length > 0 ? describe : describe.skip;

describeIfData('ImageLocality golden cases (v1.26.7)', () => {
  it('matches every recorded ImageLocality score', () => {
    const mismatches: string[] = [];
    let checks = 0;
    let nonZero = 0;
    for (const c of cases) {
      const weight = scoreWeight(c, PluginNames.ImageLocality);
      if (!weight) continue;
      const nodeOrder = c.input.items
        .filter((i) => i.kind === 'Node')
        .map((i) => (i as unknown as { metadata: { name: string } }).metadata.name);
      replay(c, (handle, pod, result, phase) => {
        const want = result.pluginScores?.[PluginNames.ImageLocality];
        if (phase !== 'decided' || !want) return;
        assignImageStatesInAddOrder(nodeOrder.map((n) => handle.snap.get(n)!));
        const pl = new ImageLocality(handle);
        for (const [node, weighted] of Object.entries(want)) {
          checks++;
          if (weighted !== 0) nonZero++;
          const [score] = pl.score(new CycleState(), pod, handle.snap.get(node)!);
          if (score * weight !== weighted)
            mismatches.push(`${c.file} ${result.pod} ${node}: got ${score}×${weight} want ${weighted}`);
        }
      });
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The data must exercise non-zero scores, or the comparison proves little.
    expect(checks).toBeGreaterThan(10000);
    expect(nonZero).toBeGreaterThan(1000);
  });
});
