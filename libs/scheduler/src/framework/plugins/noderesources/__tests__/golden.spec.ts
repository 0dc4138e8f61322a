/** NodeResourcesFit / BalancedAllocation against upstream v1.26.7 golden cases, plugin in isolation. */
import { CycleState } from '../../../cycle-state';
import { Code } from '../../../status';
import { PluginNames } from '../../names';
import {
  BalancedAllocation,
  Fit,
  defaultBalancedAllocationArgs,
  defaultFitArgs,
  validateBalancedAllocationArgs,
  validateFitArgs,
} from '..';
import { loadCases, pluginArgs, replay, scoreWeight } from './golden-replay';

const families = ['cases', 'profiles', 'storage'];
const cases = families.flatMap(loadCases);

const describeIfData = cases.length > 0 ? describe : describe.skip;

describeIfData('golden cases (v1.26.7)', () => {
  it.each(cases.map((c) => [c.file, c] as const))('%s', (_file, c) => {
    const fitArgs = defaultFitArgs(pluginArgs(c, PluginNames.NodeResourcesFit));
    const baArgs = defaultBalancedAllocationArgs(pluginArgs(c, PluginNames.NodeResourcesBalancedAllocation));
    expect(validateFitArgs(fitArgs)).toEqual([]);
    expect(validateBalancedAllocationArgs(baArgs)).toEqual([]);
    const fitWeight = scoreWeight(c, PluginNames.NodeResourcesFit);
    const baWeight = scoreWeight(c, PluginNames.NodeResourcesBalancedAllocation);
    const mismatches: string[] = [];
    let checks = 0;
    replay(c, (handle, pod, result, phase) => {
      const fit = new Fit(fitArgs, handle);
      const ba = new BalancedAllocation(baArgs, handle);
      const state = new CycleState();
      fit.preFilter(state, pod);
      for (const ni of handle.snap.list()) {
        const st = fit.filter(state, pod, ni);
        const failedHere = result.filterPlugin?.[ni.name] === PluginNames.NodeResourcesFit;
        const passedAll = result.feasible?.includes(ni.name) ?? false;
        if (failedHere) {
          checks++;
          const got = st?.reasons ?? [];
          if (
            st?.code !== Code.Unschedulable ||
            JSON.stringify(got) !== JSON.stringify(result.filterReasons?.[ni.name])
          ) {
            mismatches.push(
              `${phase} ${result.pod} filter ${ni.name}: got ${JSON.stringify(got)} want ${JSON.stringify(result.filterReasons?.[ni.name])}`,
            );
          }
        } else if (passedAll) {
          checks++;
          if (st !== null)
            mismatches.push(
              `${phase} ${result.pod} filter ${ni.name}: rejected ${st.message()} but feasible`,
            );
        }
      }
      if (phase !== 'decided' || !result.pluginScores) return;
      for (const [plugin, weight, impl] of [
        [PluginNames.NodeResourcesFit, fitWeight, fit],
        [PluginNames.NodeResourcesBalancedAllocation, baWeight, ba],
      ] as const) {
        const want = result.pluginScores[plugin];
        if (!want || !weight) continue;
        const entries = Object.entries(want);
        // The batch form (unrolled for cpu and memory) must give the same scores as Score.
        const batch = entries.map(([node]) => ({ name: node, score: -1 }));
        impl.scoreNodes(
          state,
          pod,
          entries.map(([node]) => handle.snap.get(node)!),
          batch,
        );
        entries.forEach(([node, weighted], i) => {
          checks++;
          const [score] = impl.score(state, pod, handle.snap.get(node)!);
          if (score * weight !== weighted)
            mismatches.push(`${result.pod} ${plugin} ${node}: got ${score}×${weight} want ${weighted}`);
          if (batch[i].score !== score)
            mismatches.push(`${result.pod} ${plugin} ${node}: scoreNodes ${batch[i].score}, Score ${score}`);
        });
      }
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(checks).toBeGreaterThan(0);
  });
});
