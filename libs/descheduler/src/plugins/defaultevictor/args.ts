/** DefaultEvictorArgs as descheduler v0.36 has them, with their defaults (all off). */
import { z } from 'zod';
import { parseSelectorText, SelectorTextError } from '@schedlab/k8s';
import { parseGoDuration } from '../../api/duration';
import { int32Schema, labelSelectorSchema, uintSchema } from '../../api/schema';
import { SYSTEM_CRITICAL_PRIORITY } from '../../framework/pods';

export const DEFAULT_EVICTOR = 'DefaultEvictor';

/** Protections on unless disabled. */
export const DEFAULT_POD_PROTECTIONS = [
  'PodsWithLocalStorage',
  'SystemCriticalPods',
  'FailedBarePods',
  'DaemonSetPods',
] as const;
/** Protections off unless enabled. */
export const EXTRA_POD_PROTECTIONS = ['PodsWithPVC', 'PodsWithoutPDB', 'PodsWithResourceClaims'] as const;
export type PodProtection = (typeof DEFAULT_POD_PROTECTIONS)[number] | (typeof EXTRA_POD_PROTECTIONS)[number];

/** A kubectl-style selector string (`a=b,c!=d`), as labels.Parse reads it. */
export const selectorTextSchema = z.string().superRefine((text, ctx) => {
  try {
    parseSelectorText(text);
  } catch (e) {
    if (!(e instanceof SelectorTextError)) throw e;
    ctx.addIssue({ code: 'custom', message: e.message });
  }
});

const hasDuplicates = (list: readonly string[]) => new Set(list).size !== list.length;

export const defaultEvictorArgsSchema = z
  .strictObject({
    nodeSelector: selectorTextSchema.optional(),
    labelSelector: labelSelectorSchema.optional(),
    namespaceLabelSelector: labelSelectorSchema.optional(),
    priorityThreshold: z
      .strictObject({
        value: int32Schema.optional(),
        name: z.string().optional(),
      })
      .optional(),
    nodeFit: z.boolean().default(false),
    minReplicas: uintSchema.default(0),
    minPodAge: z
      .string()
      .refine((d) => parseGoDuration(d) !== undefined, {
        error: 'must be a duration such as "5m" or "1h30m"',
      })
      .optional(),
    noEvictionPolicy: z
      .enum(['', 'Preferred', 'Mandatory'], {
        error: 'noEvictionPolicy accepts only ["Preferred" "Mandatory"] values',
      })
      .default(''),
    podProtections: z
      .strictObject({
        extraEnabled: z.array(z.string()).default([]),
        defaultDisabled: z.array(z.string()).default([]),
        config: z
          .strictObject({
            PodsWithPVC: z
              .strictObject({
                protectedStorageClasses: z.array(z.strictObject({ name: z.string() })).default([]),
              })
              .optional(),
          })
          .optional(),
      })
      .default({ extraEnabled: [], defaultDisabled: [] }),
    evictLocalStoragePods: z.boolean().default(false),
    evictDaemonSetPods: z.boolean().default(false),
    evictSystemCriticalPods: z.boolean().default(false),
    ignorePvcPods: z.boolean().default(false),
    ignorePodsWithoutPDB: z.boolean().default(false),
    evictFailedBarePods: z.boolean().default(false),
  })
  .superRefine((args, ctx) => {
    const t = args.priorityThreshold;
    if (t?.value !== undefined && t.name)
      ctx.addIssue({
        code: 'custom',
        path: ['priorityThreshold'],
        message: 'priority threshold misconfigured, only one of priorityThreshold fields can be set',
      });
    if (t?.value !== undefined && t.value > SYSTEM_CRITICAL_PRIORITY)
      ctx.addIssue({
        code: 'custom',
        path: ['priorityThreshold', 'value'],
        message: `priority threshold can't be greater than ${SYSTEM_CRITICAL_PRIORITY}`,
      });
    const { extraEnabled, defaultDisabled } = args.podProtections;
    const deprecated =
      args.evictLocalStoragePods ||
      args.evictDaemonSetPods ||
      args.evictSystemCriticalPods ||
      args.ignorePvcPods ||
      args.evictFailedBarePods ||
      args.ignorePodsWithoutPDB;
    if (deprecated && (extraEnabled.length > 0 || defaultDisabled.length > 0))
      ctx.addIssue({
        code: 'custom',
        path: ['podProtections'],
        message:
          'cannot use Deprecated fields alongside PodProtections.ExtraEnabled or PodProtections.DefaultDisabled',
      });
    extraEnabled.forEach((p, i) => {
      if (!(EXTRA_POD_PROTECTIONS as readonly string[]).includes(p))
        ctx.addIssue({
          code: 'custom',
          path: ['podProtections', 'extraEnabled', i],
          message: `invalid pod protection policy in ExtraEnabled: "${p}". Valid options are: [${EXTRA_POD_PROTECTIONS.join(' ')}]`,
        });
    });
    defaultDisabled.forEach((p, i) => {
      if (!(DEFAULT_POD_PROTECTIONS as readonly string[]).includes(p))
        ctx.addIssue({
          code: 'custom',
          path: ['podProtections', 'defaultDisabled', i],
          message: `invalid pod protection policy in DefaultDisabled: "${p}". Valid options are: [${DEFAULT_POD_PROTECTIONS.join(' ')}]`,
        });
    });
    if (hasDuplicates(defaultDisabled))
      ctx.addIssue({
        code: 'custom',
        path: ['podProtections', 'defaultDisabled'],
        message: 'PodProtections.DefaultDisabled contains duplicate entries',
      });
    if (hasDuplicates(extraEnabled))
      ctx.addIssue({
        code: 'custom',
        path: ['podProtections', 'extraEnabled'],
        message: 'PodProtections.ExtraEnabled contains duplicate entries',
      });
    if (extraEnabled.includes('PodsWithPVC'))
      args.podProtections.config?.PodsWithPVC?.protectedStorageClasses.forEach((sc, i) => {
        if (sc.name === '')
          ctx.addIssue({
            code: 'custom',
            path: ['podProtections', 'config', 'PodsWithPVC', 'protectedStorageClasses', i, 'name'],
            message: `PodProtections.Config.PodsWithPVC.ProtectedStorageClasses[${i}] name cannot be empty`,
          });
      });
  });

export type DefaultEvictorArgs = z.output<typeof defaultEvictorArgsSchema>;

/**
 * The protections in force: the podProtections lists when either is set, else the deprecated
 * booleans (upstream's getEffectivePodProtections).
 */
export function effectivePodProtections(args: DefaultEvictorArgs): Set<PodProtection> {
  const { extraEnabled, defaultDisabled } = args.podProtections;
  if (extraEnabled.length > 0 || defaultDisabled.length > 0) {
    const on = new Set<PodProtection>(DEFAULT_POD_PROTECTIONS.filter((p) => !defaultDisabled.includes(p)));
    for (const p of extraEnabled) on.add(p as PodProtection);
    return on;
  }
  const on = new Set<PodProtection>();
  if (!args.evictLocalStoragePods) on.add('PodsWithLocalStorage');
  if (!args.evictDaemonSetPods) on.add('DaemonSetPods');
  if (!args.evictSystemCriticalPods) on.add('SystemCriticalPods');
  if (!args.evictFailedBarePods) on.add('FailedBarePods');
  if (args.ignorePvcPods) on.add('PodsWithPVC');
  if (args.ignorePodsWithoutPDB) on.add('PodsWithoutPDB');
  return on;
}
