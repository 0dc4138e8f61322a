import { ScenarioError, parseScenario, type Scenario } from '@schedlab/scenarios';
import { InputFileError } from '../input/errors';
import { readInputFile } from '../input/read-input-file';

/** Reads and validates a scenario file; a bad step is reported with its index and field. */
export function loadScenarioFile(file: string): Scenario {
  const text = readInputFile(file);
  return attributeScenarioErrors(file, () => parseScenario(text));
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
