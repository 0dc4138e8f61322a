/** DefaultPreemptionArgs: kubescheduler.config.k8s.io/v1 defaults and upstream validation. */
import type { ArgsError } from '../../runtime/registry';

export interface DefaultPreemptionArgs {
  /** Share of the nodes (0–100) to dry-run as candidates, at least minCandidateNodesAbsolute. */
  minCandidateNodesPercentage: number;
  minCandidateNodesAbsolute: number;
}

export const DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE = 10;
export const DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE = 100;

export function defaultArgs(raw: unknown): DefaultPreemptionArgs {
  const r = (raw ?? {}) as Partial<DefaultPreemptionArgs>;
  return {
    minCandidateNodesPercentage: r.minCandidateNodesPercentage ?? DEFAULT_MIN_CANDIDATE_NODES_PERCENTAGE,
    minCandidateNodesAbsolute: r.minCandidateNodesAbsolute ?? DEFAULT_MIN_CANDIDATE_NODES_ABSOLUTE,
  };
}

/** Messages as field.Invalid renders them: `Invalid value: <v>: <detail>`. */
export function validateArgs(args: DefaultPreemptionArgs): ArgsError[] {
  const errs: ArgsError[] = [];
  const pct = args.minCandidateNodesPercentage;
  const abs = args.minCandidateNodesAbsolute;
  if (!Number.isInteger(pct) || pct < 0 || pct > 100) {
    errs.push({
      field: 'minCandidateNodesPercentage',
      message: `Invalid value: ${pct}: not in valid range [0, 100]`,
    });
  }
  if (!Number.isInteger(abs) || abs < 0) {
    errs.push({
      field: 'minCandidateNodesAbsolute',
      message: `Invalid value: ${abs}: not in valid range [0, inf)`,
    });
  }
  if (pct === 0 && abs === 0) {
    errs.push(
      {
        field: 'minCandidateNodesPercentage',
        message: `Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute`,
      },
      {
        field: 'minCandidateNodesAbsolute',
        message: `Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage`,
      },
    );
  }
  return errs;
}
