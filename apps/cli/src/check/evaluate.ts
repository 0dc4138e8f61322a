/**
 * Judges each expectation of `schedlab check` against what the analyses found. Pure: the command
 * runs the analyses (through @schedlab/analysis) and hands over their facts; every failure names
 * the pod, what was expected, what happened and the scheduler's message.
 */
import { parseSelectorText, type Labels } from '@schedlab/k8s';
import type { CapacityDocument } from '../commands/capacity';
import type { Placement } from '../output/placements';
import { dominantReason } from '../output/pod-status';
import type { CheckKind, PlacementExpectation, PodSelector } from './expectations';

/** One pod as the check sees it: bound in the dump already, or as the run left it. */
export interface PodFact {
  pod: string;
  namespace: string;
  /**
   * For a pod admission refused (never created): its workload's pod template labels, absent for
   * a bare pod.
   */
  labels?: Labels;
  /** `preempted`: it ran in the dump, and a pod of the run preempted it. */
  state: 'running' | 'preempted' | Placement['outcome'];
  node: string | null;
  /** The FitError (or admission refusal) of a pod without a node. */
  message?: string;
}

export interface RunFacts {
  pods: readonly PodFact[];
  nodeLabels: ReadonlyMap<string, Labels>;
}

export interface CheckFailure {
  pod?: string;
  expected: string;
  actual: string;
  /** The scheduler's message for it, word for word (a FitError, a capacity stop reason). */
  message?: string;
}

export interface CheckResult {
  name: string;
  kind: CheckKind;
  passed: boolean;
  /** One line: what was found. */
  summary: string;
  failures: CheckFailure[];
}

export type Verdict = Omit<CheckResult, 'name' | 'kind'>;

const hasNode = (p: PodFact) => p.node !== null;

export function selectPods(facts: RunFacts, selector: PodSelector | undefined): PodFact[] {
  if (!selector) return [...facts.pods];
  const labels = selector.labels !== undefined ? parseSelectorText(selector.labels) : undefined;
  return facts.pods.filter(
    (p) =>
      (selector.namespace === undefined || p.namespace === selector.namespace) &&
      (selector.pods === undefined || selector.pods.includes(p.pod)) &&
      // A refused bare pod has no labels to match: a label selector leaves it out.
      (labels === undefined || (p.labels !== undefined && labels.matches(p.labels))),
  );
}

/** Names the pods a selector lists by name that the cluster does not have (a typo must not pass). */
function missingPods(facts: RunFacts, selector: PodSelector | undefined): CheckFailure[] {
  const known = new Set(facts.pods.map((p) => p.pod));
  return (selector?.pods ?? [])
    .filter((pod) => !known.has(pod))
    .map((pod) => ({ pod, expected: 'a pod of the cluster', actual: 'no such pod' }));
}

function noPodMatches(what: string): Verdict {
  return {
    passed: false,
    summary: `no pod matches ${what}`,
    failures: [{ expected: 'at least one matching pod', actual: 'none' }],
  };
}

/** What happened to a pod, in a few words: where it runs, or why it has no node. */
export function podOutcome(p: PodFact): string {
  if (p.state === 'running') return `running on ${p.node}`;
  if (p.state === 'preempted') return p.message ?? 'preempted';
  if (p.node !== null) return `scheduled on ${p.node}`;
  if (p.state === 'rejected') return `rejected by admission: ${p.message ?? ''}`;
  const status = p.state === 'gated' ? 'gated' : p.state === 'error' ? 'error' : 'pending';
  return p.message ? `${status}: ${dominantReason(p.message)}` : status;
}

function failureOf(p: PodFact, expected: string): CheckFailure {
  const actual = podOutcome(p);
  return {
    pod: p.pod,
    expected,
    actual,
    ...(p.message && !actual.includes(p.message) ? { message: p.message } : {}),
  };
}

const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

export function checkSchedulable(facts: RunFacts, selector: PodSelector | undefined): Verdict {
  const missing = missingPods(facts, selector);
  const pods = selectPods(facts, selector);
  if (!pods.length && !missing.length) return noPodMatches('the selector');
  const failures = [...missing, ...pods.filter((p) => !hasNode(p)).map((p) => failureOf(p, 'a node'))];
  const running = pods.filter((p) => p.state === 'running').length;
  const scheduled = pods.filter((p) => p.state !== 'running' && hasNode(p)).length;
  return {
    passed: failures.length === 0,
    summary: failures.length
      ? `${failures.length} of ${counted(pods.length + missing.length, 'pod')} without a node`
      : `${counted(pods.length, 'pod')}: ${scheduled} scheduled by the run, ${running} running already`,
    failures,
  };
}

export function checkUnschedulable(
  facts: RunFacts,
  selector: PodSelector | undefined,
  reason: string | undefined,
): Verdict {
  const missing = missingPods(facts, selector);
  const pods = selectPods(facts, selector);
  if (!pods.length && !missing.length) return noPodMatches('the selector');
  const expected = reason ? `no node, for "${reason}"` : 'no node';
  const failures = [
    ...missing,
    ...pods
      .filter((p) => hasNode(p) || (reason !== undefined && !(p.message ?? '').includes(reason)))
      .map((p) => failureOf(p, expected)),
  ];
  return {
    passed: failures.length === 0,
    summary: failures.length
      ? `${failures.length} of ${counted(pods.length + missing.length, 'pod')} not failing as expected`
      : `${counted(pods.length, 'pod')} without a node, as expected`,
    failures,
  };
}

function describeNodeSelector(nodeSelector: Record<string, string>): string {
  return Object.entries(nodeSelector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

export function checkPlacements(facts: RunFacts, entries: readonly PlacementExpectation[]): Verdict {
  const failures: CheckFailure[] = [];
  let checked = 0;
  for (const entry of entries) {
    const selector: PodSelector | undefined =
      entry.pod !== undefined ? { pods: [entry.pod] } : entry.selector;
    const missing = missingPods(facts, selector);
    const pods = selectPods(facts, selector);
    if (!pods.length && !missing.length)
      failures.push({ expected: 'at least one matching pod', actual: 'none' });
    failures.push(...missing);
    const wanted = [
      entry.node !== undefined ? `node ${entry.node}` : undefined,
      entry.nodeSelector ? `a node with ${describeNodeSelector(entry.nodeSelector)}` : undefined,
    ]
      .filter(Boolean)
      .join(' and ');
    for (const p of pods) {
      checked++;
      const labels = p.node !== null ? facts.nodeLabels.get(p.node) : undefined;
      const onNode = entry.node === undefined || p.node === entry.node;
      const labelled =
        entry.nodeSelector === undefined ||
        (labels !== undefined && Object.entries(entry.nodeSelector).every(([k, v]) => labels[k] === v));
      if (!(p.node !== null && onNode && labelled)) {
        const failure = failureOf(p, wanted);
        if (p.node !== null && entry.nodeSelector) {
          const shown = Object.keys(entry.nodeSelector).map((k) => `${k}=${labels?.[k] ?? '<none>'}`);
          failure.actual += ` (${shown.join(',')})`;
        }
        failures.push(failure);
      }
    }
  }
  return {
    passed: failures.length === 0,
    summary: failures.length
      ? `${counted(failures.length, 'pod')} not where expected`
      : `${counted(checked, 'pod')} where expected`,
    failures,
  };
}

/**
 * Pods the baseline placed that are now on another node or have none. Pods only one side has
 * (renamed, new) are not moves: the summary counts them apart.
 */
export function checkMoved(
  facts: RunFacts,
  baseline: ReadonlyMap<string, string | null>,
  max: number,
  baselineLabel: string,
): Verdict {
  const now = new Map(facts.pods.map((p) => [p.pod, p]));
  const moved: CheckFailure[] = [];
  let compared = 0;
  for (const [pod, before] of baseline) {
    const current = now.get(pod);
    if (before === null || !current) continue;
    compared++;
    if (current.node !== before) moved.push(failureOf(current, `node ${before} (as in the baseline)`));
  }
  const onlyBaseline = [...baseline].filter(([pod, node]) => node !== null && !now.has(pod)).length;
  const notes = onlyBaseline ? `; ${counted(onlyBaseline, 'baseline pod')} not in this run` : '';
  return {
    passed: moved.length <= max,
    summary: `${counted(moved.length, 'pod')} of ${compared} moved vs ${baselineLabel} (at most ${max})${notes}`,
    failures: moved.length <= max ? [] : moved,
  };
}

export function checkCapacity(doc: CapacityDocument, atLeast: number): Verdict {
  const passed = doc.replicas >= atLeast;
  return {
    passed,
    summary: passed
      ? `at least ${atLeast} copies of ${doc.pod} fit`
      : `only ${doc.replicas} copies of ${doc.pod} fit (at least ${atLeast} expected)`,
    failures: passed
      ? []
      : [
          {
            pod: doc.pod,
            expected: `at least ${atLeast} copies`,
            actual: `${doc.replicas} copies, then ${dominantReason(doc.stopReason)}`,
            message: doc.stopReason,
          },
        ],
  };
}
