/**
 * The options a stored run carries, declared once: the API validates a submitted run's options
 * with these schemas (and documents them from it), the worker's engine task reads the same names
 * back. A new run type adds its options here next to its registry entry.
 */
import { nodeTemplateSchema } from '@schedlab/scenarios';
import type { z } from 'zod';
import { zodLibrary } from './zod-library';
import { RUN_TYPES, type RunType } from './registry';

/** The engine options any run type takes (the keys of schedulingOptionsSchema()). */
export const SCHEDULING_OPTION_NAMES = [
  'compatibilityVersion',
  'featureGates',
  'tieBreak',
  'preemption',
  'percentageOfNodesToScore',
  'explain',
  'pvController',
] as const;

export type SchedulingOptionName = (typeof SCHEDULING_OPTION_NAMES)[number];

function buildSchedulingOptionsSchema() {
  const z = zodLibrary();
  const shape = {
    compatibilityVersion: z
      .string()
      .regex(/^v?1\.\d+(\.\d+)?$/, 'must look like "1.33" or, pinning a patch, "1.34.0"')
      .optional(),
    featureGates: z.record(z.string(), z.boolean()).optional(),
    tieBreak: z.enum(['random', 'lowest-node-name']).optional(),
    preemption: z.boolean().optional(),
    percentageOfNodesToScore: z.number().int().min(0).max(100).optional(),
    /**
     * What each pod's stored explanation holds: `compact` (default: filter failures grouped with
     * counts, the 10 best-scored nodes with their plugin breakdown) or `summary` (outcome only).
     * `full` is accepted and stored as `compact`: every pod's full record (every node's verdict,
     * every plugin's score) is recomputed on demand, `GET …/explanation?detail=full`.
     */
    explain: z
      .enum(['compact', 'summary', 'full'])
      .transform((level) => (level === 'full' ? 'compact' : level))
      .optional(),
    /** false: skip the PV controller's binding of Immediate claims and show the scheduler alone. */
    pvController: z.boolean().optional(),
  } satisfies Record<SchedulingOptionName, z.ZodType>;
  return z.object(shape).strict();
}

let schedulingOptions: ReturnType<typeof buildSchedulingOptionsSchema> | undefined;

/** Engine options any run type takes; built on first use, as RUN_OPTIONS. */
export const schedulingOptionsSchema = () => (schedulingOptions ??= buildSchedulingOptionsSchema());

/** The options of each run type, built together (see RUN_OPTIONS). */
function runOptionSchemas() {
  const z = zodLibrary();
  const scheduling = schedulingOptionsSchema();
  const objectValue = z.record(z.string(), z.unknown());
  return {
    simulate: scheduling,
    capacity: scheduling
      .extend({
        podTemplate: objectValue,
        maxReplicas: z.number().int().min(1).max(100_000).optional(),
      })
      .strict(),
    'nodes-needed': scheduling
      .extend({
        /** The CLI's node template schema (--templates), so a bad template is refused at submit. */
        templates: z.array(nodeTemplateSchema).min(1),
        maxNodes: z.number().int().min(1).max(10_000).optional(),
      })
      .strict(),
    resilience: scheduling.extend({ by: z.enum(['node', 'zone']).optional() }).strict(),
    compare: scheduling
      .extend({
        /** The "after" side's profile ("name@version"); resolved to its configuration at submit. */
        afterProfile: z.string().optional(),
        /** Further engine options for the "after" side. */
        after: scheduling.optional(),
      })
      .strict(),
    deschedule: scheduling
      .extend({
        /** A DeschedulerPolicy (descheduler/v1alpha2) as an object; validated when the run starts. */
        policy: objectValue,
        /** Descheduling rounds at most; they stop early once one evicts nothing. */
        rounds: z.number().int().min(1).max(100).optional(),
        /** The descheduler's clock (PodLifeTime, minPodAge); default the snapshot's newest timestamp. */
        now: z.iso.datetime({ offset: true }).optional(),
        /** Seconds between rounds (the descheduler's interval); default 300. */
        intervalSeconds: z.number().int().min(1).max(86_400).optional(),
      })
      .strict(),
    timeline: scheduling
      .extend({
        /** A timeline document (docs/timeline.md, docs/timeline.schema.json); validated when the run starts. */
        timeline: objectValue,
      })
      .strict(),
  } satisfies Record<RunType, z.ZodType<Record<string, unknown>>>;
}

type RunOptionSchemas = ReturnType<typeof runOptionSchemas>;
let runOptions: RunOptionSchemas | undefined;

/**
 * Options per run type; unknown fields are rejected so typos do not pass silently. Built on first
 * read: every process that loads @schedlab/analysis (the CLI's simulate too) would otherwise pay
 * for these zod schemas and, through nodeTemplateSchema, for loading @schedlab/scenarios.
 */
export const RUN_OPTIONS = Object.defineProperties(
  {} as RunOptionSchemas,
  Object.fromEntries(
    RUN_TYPES.map((type) => [
      type,
      { enumerable: true, get: () => (runOptions ??= runOptionSchemas())[type] },
    ]),
  ),
);
