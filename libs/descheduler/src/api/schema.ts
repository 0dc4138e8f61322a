/**
 * zod pieces the policy and every plugin's args share: namespaces, label selectors, and the
 * typed error that names profile, plugin and field.
 */
import { LabelSelectorError, selectorFromLabelSelector } from '@schedlab/k8s';
import { z } from 'zod';

/** A policy problem; the message names the profile, the plugin and the field, e.g.
 * `profiles[0] "default": pluginConfig "PodLifeTime": args.maxPodLifeTimeSeconds: must be a positive integer`. */
export class PolicyError extends Error {
  constructor(
    /** e.g. `profiles[0].pluginConfig[1].args.maxPodLifeTimeSeconds` */
    readonly path: string,
    readonly detail: string,
    readonly profile?: string,
    readonly plugin?: string,
    /** The field inside the plugin's args or the policy, e.g. `args.maxPodLifeTimeSeconds`. */
    readonly field?: string,
  ) {
    super(policyErrorMessage(path, detail, profile, plugin, field));
    this.name = 'PolicyError';
  }
}

function policyErrorMessage(
  path: string,
  detail: string,
  profile?: string,
  plugin?: string,
  field?: string,
): string {
  if (profile === undefined) return path ? `${path}: ${detail}` : detail;
  const profileIndex = /^profiles\[\d+\]/.exec(path)?.[0] ?? 'profiles';
  const parts = [`${profileIndex} ${JSON.stringify(profile)}`];
  if (plugin !== undefined) parts.push(plugin);
  if (field) parts.push(field);
  return `${parts.join(': ')}: ${detail}`;
}

/** `a.b[0].c` from a zod path. */
export function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : `${out ? '.' : ''}${String(seg)}`;
  return out;
}

/** The first problem zod found, as the field it is about and what is wrong. */
export function firstIssue(error: z.ZodError): { path: readonly PropertyKey[]; message: string } {
  const issue = error.issues[0];
  return { path: issue.path, message: issue.message };
}

export const namespacesSchema = z
  .strictObject({
    include: z.array(z.string()).optional(),
    exclude: z.array(z.string()).optional(),
  })
  .refine((n) => !(n.include?.length && n.exclude?.length), {
    message: 'only one of Include/Exclude namespaces can be set',
  });

const labelSelectorRequirementSchema = z.strictObject({
  key: z.string(),
  operator: z.string(),
  values: z.array(z.string()).optional(),
});

/** metav1.LabelSelector, checked the way LabelSelectorAsSelector would convert it. */
export const labelSelectorSchema = z
  .strictObject({
    matchLabels: z.record(z.string(), z.string()).optional(),
    matchExpressions: z.array(labelSelectorRequirementSchema).optional(),
  })
  .superRefine((sel, ctx) => {
    try {
      selectorFromLabelSelector(sel);
    } catch (e) {
      if (!(e instanceof LabelSelectorError)) throw e;
      ctx.addIssue({ code: 'custom', message: `invalid label selector: ${e.message}` });
    }
  });

/** A count the API types as uint: a non-negative integer. */
export const uintSchema = z
  .number({ error: 'must be a non-negative integer' })
  .int({ error: 'must be a non-negative integer' })
  .nonnegative({ error: 'must be a non-negative integer' });

/** An int32 (e.g. a priority or an exit code). */
export const int32Schema = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer' })
  .min(-2147483648, { error: 'must fit in 32 bits' })
  .max(2147483647, { error: 'must fit in 32 bits' });

/** The namespaces/labelSelector pair most plugins share. */
export const podFilterArgsShape = {
  namespaces: namespacesSchema.optional(),
  labelSelector: labelSelectorSchema.optional(),
};
