/**
 * Memoised term matching for one scheduling attempt. InterPodAffinity asks the same questions
 * for every existing pod: "does this existing pod's term select the incoming pod?" and "which of
 * the incoming pod's terms select this existing pod?". Terms are interned (pods that spell the
 * same term share one object) and a term looks only at a pod's namespace and labels (its
 * `labelSignature`), so each distinct question is answered once — the answers are identical.
 */
import type { Labels, Pod } from '@schedlab/k8s';
import { type AffinityTerm, type PodInfo, affinityTermMatches } from '../../types';

/** Existing pods' terms against the fixed incoming pod (with its namespace's labels). */
export class TermsSelectingPod {
  private readonly memo = new Map<AffinityTerm, boolean>();

  constructor(
    private readonly pod: Pod,
    private readonly nsLabels: Labels | undefined,
  ) {}

  matches(term: AffinityTerm): boolean {
    let r = this.memo.get(term);
    if (r === undefined) {
      r = affinityTermMatches(term, this.pod, this.nsLabels);
      this.memo.set(term, r);
    }
    return r;
  }
}

/**
 * The incoming pod's terms (namespaceSelector already merged, so no namespace labels) against
 * existing pods: per pod, which terms select it, as a flag per term index.
 */
export class PodsSelectedByTerms {
  private readonly memo = new Map<string, boolean[]>();

  constructor(private readonly terms: readonly AffinityTerm[]) {}

  matched(pi: PodInfo): boolean[] {
    const sig = pi.labelSignature;
    let r = this.memo.get(sig);
    if (r === undefined) {
      r = this.terms.map((t) => affinityTermMatches(t, pi.pod, undefined));
      this.memo.set(sig, r);
    }
    return r;
  }

  /** True iff there is at least one term and the pod matches them all (upstream podMatchesAllAffinityTerms). */
  matchesAll(pi: PodInfo): boolean {
    if (this.terms.length === 0) return false;
    for (const m of this.matched(pi)) if (!m) return false;
    return true;
  }
}
