import path from 'node:path';
import { ScenarioError, parseScenario, type Scenario } from '@schedlab/scenarios';
import { InputFileError } from '../input/errors';
import { readInputFile } from '../input/read-input-file';

/**
 * Reads and validates a scenario file; a bad step is reported with its index and field. A
 * deschedule step's `policyFile` (relative to the scenario file) is read here and inlined as its
 * `policy`, since the scenario library reads no files.
 */
export function loadScenarioFile(file: string): Scenario {
  const text = readInputFile(file);
  const scenario = attributeScenarioErrors(file, () => parseScenario(text));
  for (const step of scenario.steps) {
    if (!('deschedule' in step)) continue;
    const args = step.deschedule;
    if (args.policyFile === undefined || args.policy !== undefined) continue;
    const policyFile = path.resolve(path.dirname(file), args.policyFile);
    args.policy = readInputFile(policyFile);
    // Read now, so a bad policy is named in its own file before the scenario runs.
    try {
      parseScenario({ steps: [{ deschedule: args }] });
    } catch (error) {
      if (error instanceof ScenarioError) throw new InputFileError(args.policyFile, error.detail);
      throw error;
    }
  }
  return scenario;
}

/** Runs `body`, turning ScenarioErrors (e.g. `steps[3].drain.nodes: …`) into errors in `file`. */
export function attributeScenarioErrors<T>(file: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    if (error instanceof ScenarioError) throw new InputFileError(file, error.message);
    throw error;
  }
}
