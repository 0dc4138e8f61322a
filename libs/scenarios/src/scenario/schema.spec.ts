// The published JSON Schema must match the zod schema; regenerate with UPDATE_SCENARIO_SCHEMA=1.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scenarioJsonSchema } from './schema';
import { parseScenario } from './parse';

const SCHEMA_FILE = path.join(__dirname, '../../../../docs/scenario.schema.json');

describe('scenario JSON Schema', () => {
  it('docs/scenario.schema.json is up to date', () => {
    const generated = JSON.stringify(scenarioJsonSchema(), null, 2) + '\n';
    if (process.env.UPDATE_SCENARIO_SCHEMA) writeFileSync(SCHEMA_FILE, generated);
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(generated);
  });

  it('parses YAML scenarios and names the bad field', () => {
    const s = parseScenario('steps:\n  - cordon: {nodes: [a]}\n  - advanceTime: {seconds: 60}\n');
    expect(s.steps).toEqual([{ cordon: { nodes: ['a'] } }, { advanceTime: { seconds: 60 } }]);
    expect(() => parseScenario('steps:\n  - advanceTime: {seconds: -1}\n')).toThrow(
      /^steps\[0\]\.advanceTime\.seconds: /,
    );
    expect(() => parseScenario('steps:\n  - {cordon: {nodes: [a]}, drain: {nodes: [a]}}\n')).toThrow(
      'steps[0]: a step has exactly one operation key, got "cordon", "drain"',
    );
    expect(() =>
      parseScenario({ steps: [{ taint: { nodes: ['a'], taints: [{ key: 'k', effect: 'Never' }] } }] }),
    ).toThrow(/^steps\[0\]\.taint\.taints\[0\]\.effect: /);
  });
});
