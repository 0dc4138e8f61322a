import type { NodeAffinity as NodeAffinitySpec } from 'kubernetes-types/core/v1';
import { compileNodeSelector } from '@schedlab/k8s';
import type { ArgsError } from '../../runtime/registry';

export interface NodeAffinityArgs {
  /** Node affinity the scheduler adds to every pod of the profile (required and/or preferred). */
  addedAffinity?: NodeAffinitySpec;
}

export function defaultNodeAffinityArgs(raw: unknown): NodeAffinityArgs {
  const args = (raw ?? {}) as NodeAffinityArgs;
  return args.addedAffinity ? { addedAffinity: args.addedAffinity } : {};
}

const VALID_OPS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']);

/** Mirrors upstream ValidateNodeAffinityArgs: every added term must be a valid node selector term. */
export function validateNodeAffinityArgs(args: NodeAffinityArgs): ArgsError[] {
  const errs: ArgsError[] = [];
  const aff = args.addedAffinity;
  if (!aff) return errs;
  const required = aff.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required?.nodeSelectorTerms ?? [];
  if (required && terms.length === 0) {
    errs.push({
      field: 'addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms',
      message: 'must have at least one node selector term',
    });
  }
  terms.forEach((t, i) => {
    (t.matchExpressions ?? []).forEach((e, j) => {
      if (!VALID_OPS.has(e.operator)) {
        errs.push({
          field: `addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}].matchExpressions[${j}].operator`,
          message: `Unsupported value: "${e.operator}"`,
        });
      }
    });
  });
  (aff.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((p, i) => {
    if (p.weight < 1 || p.weight > 100) {
      errs.push({
        field: `addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}].weight`,
        message: `Invalid value: ${p.weight}: must be in the range 1-100`,
      });
    }
  });
  if (errs.length === 0 && required) compileNodeSelector(required);
  return errs;
}
