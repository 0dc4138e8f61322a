/** Reads a scenario (YAML/JSON text or an object) and reports the first problem with its path. */
import type * as Yaml from 'yaml';
import type { z } from 'zod';
import { checkDeschedulePolicy } from './deschedule-step';
import { StepError } from './nodes';
import { STEP_KINDS, STEP_SCHEMAS, Scenario, StepArgs, StepKind, nodeTemplateSchema } from './schema';

export class ScenarioError extends Error {
  constructor(
    /** e.g. "steps[3].drain.nodes" */
    readonly field: string,
    readonly detail: string,
    /** The failing step's index, when the problem is in a step. */
    readonly stepIndex?: number,
  ) {
    super(field ? `${field}: ${detail}` : detail);
    this.name = 'ScenarioError';
  }
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : `${out ? '.' : ''}${String(seg)}`;
  return out;
}

function check<T>(schema: z.ZodType<T>, value: unknown, prefix: string, stepIndex?: number): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new ScenarioError(formatPath(prefix, issue.path), issue.message, stepIndex);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseScenario(input: string | unknown): Scenario {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = (require('yaml') as typeof Yaml).parse(input); // loaded only when a scenario is read
    } catch (e) {
      throw new ScenarioError('', `invalid YAML/JSON: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  if (!isRecord(raw)) throw new ScenarioError('', 'a scenario must be an object with a "steps" list');
  for (const key of Object.keys(raw)) {
    if (!['name', 'description', 'nodeTemplates', 'steps'].includes(key))
      throw new ScenarioError(key, 'unknown field');
  }
  if (raw.name !== undefined && typeof raw.name !== 'string')
    throw new ScenarioError('name', 'must be a string');
  if (raw.description !== undefined && typeof raw.description !== 'string')
    throw new ScenarioError('description', 'must be a string');
  const scenario: Scenario = { steps: [] };
  if (raw.name !== undefined) scenario.name = raw.name as string;
  if (raw.description !== undefined) scenario.description = raw.description as string;
  if (raw.nodeTemplates !== undefined) {
    if (!Array.isArray(raw.nodeTemplates)) throw new ScenarioError('nodeTemplates', 'must be a list');
    scenario.nodeTemplates = raw.nodeTemplates.map((t, i) =>
      check(nodeTemplateSchema, t, `nodeTemplates[${i}]`),
    );
    const seen = new Set<string>();
    scenario.nodeTemplates.forEach((t, i) => {
      if (seen.has(t.name))
        throw new ScenarioError(`nodeTemplates[${i}].name`, `duplicate template "${t.name}"`);
      seen.add(t.name);
    });
  }
  if (!Array.isArray(raw.steps)) throw new ScenarioError('steps', 'Required: a list of steps');
  raw.steps.forEach((step, i) => {
    const where = `steps[${i}]`;
    if (!isRecord(step)) throw new ScenarioError(where, 'a step must be an object with one operation key', i);
    const keys = Object.keys(step);
    if (keys.length !== 1) {
      throw new ScenarioError(
        where,
        `a step has exactly one operation key, got ${keys.length ? keys.map((k) => `"${k}"`).join(', ') : 'none'}`,
        i,
      );
    }
    const kind = keys[0];
    if (!(STEP_KINDS as string[]).includes(kind)) {
      throw new ScenarioError(`${where}.${kind}`, `unknown operation; known: ${STEP_KINDS.join(', ')}`, i);
    }
    const args = check(STEP_SCHEMAS[kind as StepKind] as z.ZodType, step[kind] ?? {}, `${where}.${kind}`, i);
    if (kind === 'deschedule') {
      try {
        checkDeschedulePolicy(args as StepArgs['deschedule']);
      } catch (e) {
        if (e instanceof StepError) throw new ScenarioError(`${where}.${kind}.${e.field}`, e.detail, i);
        throw e;
      }
    }
    scenario.steps.push({ [kind]: args } as Scenario['steps'][number]);
  });
  return scenario;
}
