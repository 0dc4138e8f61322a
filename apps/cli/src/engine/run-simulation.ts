import { setupEngine, simulate, type SimulationResult, type TieBreak } from '@schedlab/scheduler';
import { loadClusterDump, type ClusterDump } from '../input/cluster-dump';
import { attributeTo } from '../input/errors';
import { readInputFile } from '../input/read-input-file';

/** The scheduling options both `simulate` and `explain` accept. */
export interface SimulationFlags {
  cluster: string;
  profile?: string;
  seed: number;
  compatibilityVersion: string;
  tieBreak: TieBreak;
}

export interface SimulationRun {
  dump: ClusterDump;
  result: SimulationResult;
  setup: ReturnType<typeof setupEngine>;
}

/**
 * Loads the dump and profile, then schedules every pending pod. Input problems are attributed to
 * the file they come from: the profile for configuration errors, the dump for everything else.
 */
export function runSimulation(flags: SimulationFlags, onProgress?: (done: number, total: number) => void): SimulationRun {
  const dump = loadClusterDump(flags.cluster);
  const schedulerConfiguration = flags.profile === undefined ? undefined : readInputFile(flags.profile);
  const engineOptions = { schedulerConfiguration, compatibilityVersion: flags.compatibilityVersion };
  // The version and feature gates are command-line input; the configuration is the profile's.
  const setup = attributeTo(flags.profile ?? '--compatibility-version', () => setupEngine(engineOptions));
  const result = attributeTo(flags.cluster, () =>
    simulate(dump.state, { ...engineOptions, seed: flags.seed, tieBreak: flags.tieBreak, onProgress }),
  );
  return { dump, result, setup };
}
