import { RUN_OPTIONS, RUN_TYPES, SCHEDULING_OPTION_NAMES, type RunType } from '@schedlab/analysis';
import { parsePolicy, PolicyError } from '@schedlab/descheduler';
import { ObjectValidationError, validateObject } from '@schedlab/k8s';
import { z } from 'zod';

/** The options each run type takes, named from their schemas, for the API docs. */
function runOptionsDescription(): string {
  const extras = RUN_TYPES.map((type) => {
    const own = Object.keys(RUN_OPTIONS[type].shape).filter(
      (name) => !(SCHEDULING_OPTION_NAMES as readonly string[]).includes(name),
    );
    return own.length > 0 ? `; ${type} also ${own.join(', ')}` : '';
  });
  return `Every run type takes ${SCHEDULING_OPTION_NAMES.join(', ')}${extras.join('')}. Unknown fields are rejected; see docs/api.md`;
}

export const submitRunSchema = z
  .object({
    type: z.enum(RUN_TYPES),
    snapshotId: z.string().uuid(),
    scenarioId: z.string().uuid().optional(),
    profile: z.string().min(1).max(100).optional().meta({
      description: '"name", "name@latest" or "name@N"; default "default"',
      example: 'bin-packing@1',
    }),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .optional()
      .meta({ description: 'Random seed for tie-breaking; default 0' }),
    options: z.record(z.string(), z.unknown()).optional().meta({
      description: runOptionsDescription(),
    }),
  })
  .strict()
  .transform((input, ctx) => {
    const parsed = RUN_OPTIONS[input.type].safeParse(input.options ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ ...issue, path: ['options', ...issue.path] } as never);
      return z.NEVER;
    }
    for (const problem of objectProblems(input.type, parsed.data)) ctx.addIssue(problem as never);
    return { ...input, options: parsed.data };
  });

function recordOr(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function validationIssue(
  error: unknown,
  base: (string | number)[],
  rename: (field: string) => string = (f) => f,
) {
  if (!(error instanceof ObjectValidationError)) throw error;
  return {
    code: 'custom',
    path: [...base, rename(error.field)].filter((p) => p !== ''),
    message: error.detail,
  };
}

/**
 * Objects inside run options checked as the apiserver would, at submit (not when a worker runs
 * them): a capacity run's podTemplate as a Pod, nodes-needed templates' allocatable, labels and
 * taints as a Node's, so e.g. a template cpu of 1e309 is a 400 naming the field; a deschedule
 * run's policy as the descheduler reads it (the message names profile, plugin and field).
 */
function objectProblems(type: RunType, options: Record<string, unknown>) {
  const issues: ReturnType<typeof validationIssue>[] = [];
  if (type === 'capacity') {
    const template = recordOr(options.podTemplate);
    try {
      validateObject({
        apiVersion: 'v1',
        ...template,
        kind: 'Pod',
        metadata: { name: 'template', namespace: 'default', ...recordOr(template.metadata) },
      } as never);
    } catch (error) {
      issues.push(validationIssue(error, ['options', 'podTemplate']));
    }
  }
  if (type === 'nodes-needed' && Array.isArray(options.templates)) {
    options.templates.forEach((raw, i) => {
      const t = recordOr(raw);
      try {
        validateObject({
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: typeof t.name === 'string' && t.name ? t.name : 'template', labels: t.labels },
          spec: { taints: t.taints },
          status: { allocatable: t.allocatable },
        } as never);
      } catch (error) {
        issues.push(
          validationIssue(error, ['options', 'templates', i], (f) =>
            f
              .replace(/^status\.allocatable/, 'allocatable')
              .replace(/^spec\.taints/, 'taints')
              .replace(/^metadata\./, ''),
          ),
        );
      }
    });
  }
  if (type === 'deschedule') {
    try {
      parsePolicy(options.policy);
    } catch (error) {
      if (!(error instanceof PolicyError)) throw error;
      issues.push({
        code: 'custom',
        path: ['options', 'policy', ...pathSegments(error.path)],
        message: error.message,
      });
    }
  }
  return issues;
}

/** `profiles[0].pluginConfig[1].args.x` as path segments. */
function pathSegments(path: string): (string | number)[] {
  return path
    .split(/\.|\[(\d+)\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
export type SubmitRunInput = z.output<typeof submitRunSchema>;

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const placementQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().optional(),
    status: z.enum(['scheduled', 'unschedulable', 'gated', 'error']).optional(),
    node: z
      .string()
      .max(253)
      .regex(DNS_SUBDOMAIN, 'must be a node name (a lowercase RFC 1123 subdomain)')
      .optional(),
    namespace: z
      .string()
      .max(63)
      .regex(DNS_LABEL, 'must be a namespace name (a lowercase RFC 1123 label)')
      .optional(),
    ownerKind: z.string().max(100).optional(),
    ownerName: z.string().max(253).optional(),
  })
  .strict();
export type PlacementQuery = z.infer<typeof placementQuerySchema>;

/** `GET …/pods/{namespace}/{name}/explanation` (and GraphQL `explanation`) options. */
export const explanationQuerySchema = z
  .object({
    /** `compact` (stored) or `full` (recomputed by replaying the run up to the pod). */
    detail: z.enum(['compact', 'full']).default('compact'),
    /** One node's filter verdict and plugin scores (implies a replay). */
    node: z
      .string()
      .max(253)
      .regex(DNS_SUBDOMAIN, 'must be a node name (a lowercase RFC 1123 subdomain)')
      .optional(),
  })
  .strict();
export type ExplanationQuery = z.infer<typeof explanationQuerySchema>;
