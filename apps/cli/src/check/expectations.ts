/**
 * The expectations file of `schedlab check`: policy assertions a CI pipeline gates on.
 *
 *   checks:
 *     - name: all pods of team-a schedulable
 *       schedulable: {selector: {namespace: team-a}}
 *     - capacity: {podTemplate: web-pod.yaml, atLeast: 40}
 *
 * Each check is a one-key object (plus an optional `name`), like a scenario step. The zod schema
 * is the single source of truth; docs/expectations.schema.json is generated from it.
 */
import path from 'node:path';
import type * as Yaml from 'yaml';
import { z } from 'zod';
import { SelectorTextError, formatFieldPath, parseSelectorText } from '@schedlab/k8s';
import { InputFileError } from '../input/errors';
import { readInputFile } from '../input/read-input-file';

const nonEmpty = z.string().min(1);

export const podSelectorSchema = z
  .strictObject({
    namespace: nonEmpty.optional().describe('only pods of this namespace'),
    labels: nonEmpty
      .optional()
      .describe('label selector in kubectl syntax: k=v, k!=v, k, !k, k in (a,b), k notin (a,b)'),
    pods: z.array(nonEmpty).min(1).optional().describe('only these pods, as namespace/name'),
  })
  .describe(
    'Which pods: those matching every given field, among the pods already running and those the run schedules (an empty selector matches them all)',
  )
  .meta({ id: 'PodSelector' }); // one definition in the JSON Schema, referenced where used

const schedulableSchema = z
  .strictObject({ selector: podSelectorSchema.optional() })
  .describe('Every selected pod has a node: it was running already or the run scheduled it');

const unschedulableSchema = z
  .strictObject({
    selector: podSelectorSchema.optional(),
    reason: nonEmpty
      .optional()
      .describe('text the FitError of each pod must contain, e.g. "Insufficient nvidia.com/gpu"'),
  })
  .describe('An expected failure: no selected pod gets a node (and each fails for `reason`)');

export const placementSchema = z
  .strictObject({
    pod: nonEmpty.optional().describe('the pod, as namespace/name'),
    selector: podSelectorSchema.optional(),
    node: nonEmpty.optional().describe('the node the pods must be on'),
    nodeSelector: z
      .record(z.string(), z.string())
      .optional()
      .describe('labels the node of each pod must have, e.g. {topology.kubernetes.io/zone: eu-west-1a}'),
  })
  .superRefine((entry, ctx) => {
    if ((entry.pod === undefined) === (entry.selector === undefined))
      ctx.addIssue({ code: 'custom', message: 'give exactly one of pod and selector' });
    if (entry.node === undefined && entry.nodeSelector === undefined)
      ctx.addIssue({ code: 'custom', message: 'give node, nodeSelector or both' });
  });

const placementsSchema = z
  .union([placementSchema, z.array(placementSchema).min(1)])
  .describe('Where pods end up: one placement or a list');

const maxMovedSchema = z
  .strictObject({
    baseline: nonEmpty.describe(
      'a `schedlab simulate -o json` document, or a cluster dump simulated with the same flags (relative to this file)',
    ),
    config: nonEmpty
      .optional()
      .describe(
        'for a baseline dump: the KubeSchedulerConfiguration to simulate it with (default: --config)',
      ),
    max: z.number().int().nonnegative().describe('how many pods may move'),
  })
  .describe('At most `max` pods the baseline placed are on another node now, or pending');

const capacitySchema = z
  .strictObject({
    podTemplate: nonEmpty.describe(
      'one Pod, YAML or JSON (relative to this file), as capacity --pod-template',
    ),
    atLeast: z.number().int().positive().describe('how many copies must fit'),
  })
  .describe('At least `atLeast` more copies of the pod fit, as `schedlab capacity` counts them');

export const CHECK_SCHEMAS = {
  schedulable: schedulableSchema,
  unschedulable: unschedulableSchema,
  placements: placementsSchema,
  maxMovedVsBaseline: maxMovedSchema,
  capacity: capacitySchema,
} as const;

export type CheckKind = keyof typeof CHECK_SCHEMAS;
export const CHECK_KINDS = Object.keys(CHECK_SCHEMAS) as CheckKind[];

export type PodSelector = z.infer<typeof podSelectorSchema>;
export type PlacementExpectation = z.infer<typeof placementSchema>;
export type CheckSpec = {
  [K in CheckKind]: { kind: K; args: z.infer<(typeof CHECK_SCHEMAS)[K]> };
}[CheckKind];

/** One check of the file: its name (given, or made from what it asserts) and what it asserts. */
export type Check = CheckSpec & { name: string };

const checkSchema = z.union(
  CHECK_KINDS.map((kind) =>
    z.strictObject({ name: nonEmpty.optional(), [kind]: CHECK_SCHEMAS[kind] } as Record<string, z.ZodType>),
  ) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]],
);

export const expectationsSchema = z
  .strictObject({
    description: z.string().optional(),
    checks: z.array(checkSchema).min(1).describe('each a one-key object (plus an optional name)'),
  })
  .describe('schedlab check --expect: assertions about a cluster dump under a scheduler configuration');

export function expectationsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(expectationsSchema, { unrepresentable: 'any' }) as Record<string, unknown>;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function selectorName(selector: PodSelector | undefined): string {
  if (!selector) return 'every pod';
  const parts = [
    selector.namespace && `namespace ${selector.namespace}`,
    selector.labels && `labels ${selector.labels}`,
    selector.pods && selector.pods.join(', '),
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'every pod';
}

/** A name that says what an unnamed check asserts, for the report. */
function defaultName(spec: CheckSpec): string {
  switch (spec.kind) {
    case 'schedulable':
      return `${selectorName(spec.args.selector)} schedulable`;
    case 'unschedulable':
      return `${selectorName(spec.args.selector)} unschedulable`;
    case 'placements':
      return 'placements';
    case 'maxMovedVsBaseline':
      return `at most ${spec.args.max} pods move vs ${spec.args.baseline}`;
    case 'capacity':
      return `capacity of ${spec.args.podTemplate} at least ${spec.args.atLeast}`;
  }
}

/** Selector texts are checked while reading, so a typo is bad input (exit 2), not a failed check. */
function checkSelectors(value: unknown, where: readonly PropertyKey[], file: string): void {
  if (Array.isArray(value)) value.forEach((v, i) => checkSelectors(v, [...where, i], file));
  if (!isRecord(value)) return;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'labels' && typeof v === 'string') {
      try {
        parseSelectorText(v);
      } catch (error) {
        if (!(error instanceof SelectorTextError)) throw error;
        throw new InputFileError(file, `${formatFieldPath([...where, key])}: ${error.detail}`);
      }
    } else checkSelectors(v, [...where, key], file);
  }
}

/**
 * Reads the expectations (YAML or JSON text); file paths inside (baselines, pod templates) are
 * made relative to the file's folder. Throws an InputFileError naming the first bad field.
 */
export function parseExpectations(text: string, file: string): Check[] {
  let raw: unknown;
  try {
    raw = (require('yaml') as typeof Yaml).parse(text);
  } catch (error) {
    throw new InputFileError(file, `invalid YAML/JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const fail = (where: readonly PropertyKey[], detail: string): never => {
    throw new InputFileError(file, where.length ? `${formatFieldPath(where)}: ${detail}` : detail);
  };
  if (!isRecord(raw)) fail([], 'expected an object with a "checks" list');
  const document = raw as Record<string, unknown>;
  for (const key of Object.keys(document))
    if (key !== 'checks' && key !== 'description') fail([key], 'unknown field');
  if (!Array.isArray(document.checks) || document.checks.length === 0)
    fail(['checks'], 'Required value: a list of at least one check');
  const folder = path.dirname(file);
  const relative = (p: string) => path.resolve(folder, p);
  return (document.checks as unknown[]).map((entry, i): Check => {
    if (!isRecord(entry)) return fail(['checks', i], 'a check is an object with one kind key');
    const kinds = Object.keys(entry).filter((k) => k !== 'name');
    if (kinds.length !== 1 || !CHECK_KINDS.includes(kinds[0] as CheckKind))
      fail(
        ['checks', i],
        `a check has exactly one of ${CHECK_KINDS.join(', ')} (and an optional name), got ${kinds.map((k) => `"${k}"`).join(', ') || 'none'}`,
      );
    const kind = kinds[0] as CheckKind;
    if (entry.name !== undefined && (typeof entry.name !== 'string' || entry.name === ''))
      fail(['checks', i, 'name'], 'must be a non-empty string');
    const parsed = CHECK_SCHEMAS[kind].safeParse(entry[kind]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      fail(['checks', i, kind, ...issue.path], issue.message);
    }
    checkSelectors(entry[kind], ['checks', i, kind], file);
    const spec = { kind, args: parsed.data } as CheckSpec;
    if (spec.kind === 'maxMovedVsBaseline') {
      spec.args = {
        ...spec.args,
        baseline: relative(spec.args.baseline),
        ...(spec.args.config ? { config: relative(spec.args.config) } : {}),
      };
    }
    if (spec.kind === 'capacity') spec.args = { ...spec.args, podTemplate: relative(spec.args.podTemplate) };
    return {
      ...spec,
      name: (entry.name as string | undefined) ?? defaultName({ kind, args: parsed.data } as CheckSpec),
    };
  });
}

export function loadExpectations(file: string): Check[] {
  return parseExpectations(readInputFile(file), file);
}
