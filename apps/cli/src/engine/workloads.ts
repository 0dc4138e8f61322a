/**
 * Workloads in a dump (Deployments, StatefulSets, DaemonSets, Jobs… without their pods) are
 * what a user is about to apply: the analysis pipeline (@schedlab/analysis) creates and admits
 * their pods, then the engine schedules them. Here only: naming the dump when they are invalid.
 */
import { InvalidWorkloadsError } from '@schedlab/analysis';
import { InputFileError, attributeTo } from '../input/errors';

export { rejectedKey } from '@schedlab/workloads';

/** Runs `body`, reporting invalid workloads (strict expansion) as an error in `file`. */
export function attributeWorkloadErrors<T>(file: string, body: () => T): T {
  try {
    return attributeTo(file, body);
  } catch (error) {
    if (error instanceof InvalidWorkloadsError) throw new InputFileError(file, error.message);
    throw error;
  }
}
