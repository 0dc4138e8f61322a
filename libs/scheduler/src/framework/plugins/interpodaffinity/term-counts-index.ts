/**
 * Per-term topology counts kept across attempts from the snapshot's pod change log, so
 * InterPodAffinity's PreFilter sums a few per-term counts instead of visiting every pod of the
 * cluster for every pod it schedules (upstream's PreFilter does the visiting; the sums are the
 * same, since each pod adds to a pair independently of the others):
 *
 * - `existing`: per required anti-affinity term of pods in the cluster (as effective terms:
 *   label keys folded), where those pods are: key → node's value → number of (pod, term).
 * - `matchedBy(term)`: for one of an incoming pod's terms, where the pods it selects are.
 *
 * Terms are interned (pods spelling the same term in the same namespace share one object), so
 * a Deployment's replicas share one entry.
 */
import type { NodeInfoLister, PodChange } from '../../interface';
import { type AffinityTerm, type PodInfo, affinityTermMatches } from '../../types';
import { type Freshness, TopologyCounts } from './topology-counts';

/** Incoming terms remembered at most; past it they are all forgotten and counted again on demand. */
const MAX_INCOMING_TERMS = 256;

type LoggingLister = Required<Pick<NodeInfoLister, 'list' | 'podChangeLog'>>;

export class TermCountsIndex implements Freshness {
  /** Existing pods' required anti-affinity terms → where those pods are. */
  private readonly existing = new Map<AffinityTerm, TopologyCounts>();
  /** Incoming pods' terms → where the pods they select are. */
  private readonly matched = new Map<AffinityTerm, TopologyCounts>();
  /** Position in the change log up to which every count is current. */
  private synced = 0;
  /** Bumped whenever counts handed out may change (see LayeredCounts). */
  epoch = 0;

  constructor(
    readonly lister: LoggingLister,
    private readonly effective: (pi: PodInfo) => PodInfo,
  ) {}

  /** Brings every count up to the snapshot's current pods; called at the start of each PreFilter. */
  sync(): void {
    const log = this.lister.podChangeLog();
    if (this.synced === log.length) return;
    this.epoch++;
    for (; this.synced < log.length; this.synced++) this.apply(log[this.synced]);
  }

  private apply(change: PodChange): void {
    const labels = change.node.node.metadata?.labels;
    for (const t of this.effective(change.pod).requiredAntiAffinityTerms) {
      let counts = this.existing.get(t);
      if (!counts) this.existing.set(t, (counts = new TopologyCounts()));
      counts.addForNode(labels, t.topologyKey, change.delta);
      if (counts.size === 0) this.existing.delete(t);
    }
    for (const [t, counts] of this.matched) {
      if (affinityTermMatches(t, change.pod.pod, undefined))
        counts.addForNode(labels, t.topologyKey, change.delta);
    }
  }

  /** Counts of the existing pods' anti-affinity terms that `selects` says select the incoming pod. */
  existingSelecting(selects: (t: AffinityTerm) => boolean): TopologyCounts[] {
    const out: TopologyCounts[] = [];
    for (const [t, counts] of this.existing) if (selects(t)) out.push(counts);
    return out;
  }

  /**
   * Where the pods an incoming pod's term (namespaceSelector merged, so no namespace labels)
   * selects are: counted over the whole snapshot the first time, then kept up to date.
   */
  matchedBy(term: AffinityTerm): TopologyCounts {
    let counts = this.matched.get(term);
    if (counts) return counts;
    if (this.matched.size >= MAX_INCOMING_TERMS) this.matched.clear();
    counts = new TopologyCounts();
    for (const ni of this.lister.list()) {
      const labels = ni.node.metadata?.labels;
      for (const pi of ni.pods) {
        if (affinityTermMatches(term, pi.pod, undefined)) counts.addForNode(labels, term.topologyKey, 1);
      }
    }
    this.matched.set(term, counts);
    return counts;
  }
}
