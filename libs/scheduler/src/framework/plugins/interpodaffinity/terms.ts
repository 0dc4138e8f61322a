/**
 * Affinity terms as InterPodAffinity evaluates them: matchLabelKeys/mismatchLabelKeys folded
 * into the label selector (what kube-apiserver does at pod creation under
 * MatchLabelKeysInPodAffinity), and the incoming pod's namespaceSelector unrolled into its
 * namespace set (upstream mergeAffinityTermNamespacesIfNotEmpty).
 */
import {
  type LabelSelector,
  type LabelSelectorRequirement,
  type Pod,
  type PodAffinityTerm,
  isNothing,
  nothing,
} from '@schedlab/k8s';
import type { ClusterObjects } from '../../../backend/cache/cluster-objects';
import { type AffinityTerm, PodInfo, affinityTermMatches } from '../../types';

export const MATCH_LABEL_KEYS_GATE = 'MatchLabelKeysInPodAffinity';

function termUsesLabelKeys(t: PodAffinityTerm | undefined): boolean {
  return !!t && ((t.matchLabelKeys?.length ?? 0) > 0 || (t.mismatchLabelKeys?.length ?? 0) > 0);
}

/** Does any (anti-)affinity term of the pod carry matchLabelKeys or mismatchLabelKeys? */
export function podUsesLabelKeys(pod: Pod): boolean {
  const a = pod.spec?.affinity;
  if (!a) return false;
  for (const group of [a.podAffinity, a.podAntiAffinity]) {
    if (!group) continue;
    for (const t of group.requiredDuringSchedulingIgnoredDuringExecution ?? [])
      if (termUsesLabelKeys(t)) return true;
    for (const w of group.preferredDuringSchedulingIgnoredDuringExecution ?? []) {
      if (termUsesLabelKeys(w.podAffinityTerm)) return true;
    }
  }
  return false;
}

/**
 * The term with `key In [pod's value]` for each matchLabelKey and `key NotIn [value]` for each
 * mismatchLabelKey the pod has as a label. A nil labelSelector selects nothing and is left alone.
 */
function foldLabelKeys(term: PodAffinityTerm, podLabels: Record<string, string>): PodAffinityTerm {
  if (!termUsesLabelKeys(term) || term.labelSelector == null) return term;
  const extra: LabelSelectorRequirement[] = [];
  for (const key of term.matchLabelKeys ?? []) {
    const v = podLabels[key];
    if (v !== undefined) extra.push({ key, operator: 'In', values: [v] });
  }
  for (const key of term.mismatchLabelKeys ?? []) {
    const v = podLabels[key];
    if (v !== undefined) extra.push({ key, operator: 'NotIn', values: [v] });
  }
  if (extra.length === 0) return term;
  const labelSelector: LabelSelector = {
    ...term.labelSelector,
    matchExpressions: [...(term.labelSelector.matchExpressions ?? []), ...extra],
  };
  return { ...term, labelSelector };
}

/** A copy of the pod whose affinity terms have matchLabelKeys/mismatchLabelKeys folded in. */
export function podWithLabelKeysFolded(pod: Pod): Pod {
  const a = pod.spec?.affinity;
  if (!a) return pod;
  const labels = pod.metadata?.labels ?? {};
  const foldGroup = <G extends NonNullable<typeof a.podAffinity>>(g: G | undefined): G | undefined =>
    g && {
      ...g,
      requiredDuringSchedulingIgnoredDuringExecution: g.requiredDuringSchedulingIgnoredDuringExecution?.map(
        (t) => foldLabelKeys(t, labels),
      ),
      preferredDuringSchedulingIgnoredDuringExecution: g.preferredDuringSchedulingIgnoredDuringExecution?.map(
        (w) => ({
          ...w,
          podAffinityTerm: foldLabelKeys(w.podAffinityTerm, labels),
        }),
      ),
    };
  return {
    ...pod,
    spec: {
      ...pod.spec!,
      affinity: {
        ...a,
        podAffinity: foldGroup(a.podAffinity),
        podAntiAffinity: foldGroup(a.podAntiAffinity),
      },
    },
  };
}

const foldedInfos = new WeakMap<PodInfo, PodInfo>();

/**
 * The PodInfo whose parsed terms InterPodAffinity should use. With the gate off, or for pods
 * without label keys (nearly all), that is the PodInfo itself; otherwise a cached re-parse.
 */
export function effectivePodInfo(pi: PodInfo, labelKeysEnabled: boolean): PodInfo {
  // A pod without affinity has no terms to fold: answered without the WeakMap, whose entries
  // cost more than the check (the first PreFilter visits every running pod).
  if (!labelKeysEnabled || !pi.pod.spec?.affinity) return pi;
  const cached = foldedInfos.get(pi);
  if (cached) return cached;
  const eff = podUsesLabelKeys(pi.pod) ? new PodInfo(podWithLabelKeysFolded(pi.pod)) : pi;
  foldedInfos.set(pi, eff);
  return eff;
}

/**
 * Upstream mergeAffinityTermNamespacesIfNotEmpty, without mutating the shared term: a non-empty
 * namespaceSelector is replaced by the names of the listed namespaces it selects. An empty
 * selector (`{}`, all namespaces) stays as it is and keeps matching every namespace.
 */
export function mergeTermNamespaces<T extends AffinityTerm>(term: T, objects: ClusterObjects): T {
  if (term.namespaceSelector.isEmpty() || isNothing(term.namespaceSelector)) return term;
  const namespaces = new Set(term.namespaces);
  for (const ns of objects.namespaces.list()) {
    if (term.namespaceSelector.matches(ns.metadata?.labels)) namespaces.add(ns.metadata?.name ?? '');
  }
  return { ...term, namespaces, namespaceSelector: nothing() };
}

/**
 * True iff the pod matches every term (and there is at least one). The incoming pod's terms have
 * their namespaceSelector merged, so no namespace labels are needed.
 */
export function podMatchesAllTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!affinityTermMatches(t, pod, undefined)) return false;
  return true;
}
