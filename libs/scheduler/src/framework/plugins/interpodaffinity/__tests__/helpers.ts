/** Compact builders for InterPodAffinity tests (in the spirit of upstream's st.MakePod()). */
import type {
  Affinity,
  LabelSelectorRequirement,
  Namespace,
  Node,
  Pod,
  PodAffinityTerm,
} from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { CycleState } from '../../../cycle-state';
import type { NodeScore } from '../../../interface';
import type { MaybeStatus } from '../../../status';
import { defaultArgs } from '../args';
import { InterPodAffinity } from '../plugin';

let seq = 0;

export function node(name: string, labels: Record<string, string>): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, status: {} };
}

export function pod(
  labels: Record<string, string> | undefined,
  opts: { node?: string; ns?: string; affinity?: Affinity; name?: string } = {},
): Pod {
  const name = opts.name ?? `p${++seq}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: opts.ns ?? 'default', uid: `uid-${name}`, labels },
    spec: { containers: [{ name: 'c' }], nodeName: opts.node, affinity: opts.affinity },
  };
}

export function ns(name: string, labels: Record<string, string>): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

export const inReq = (key: string, ...values: string[]): LabelSelectorRequirement => ({
  key,
  operator: 'In',
  values,
});
export const notInReq = (key: string, ...values: string[]): LabelSelectorRequirement => ({
  key,
  operator: 'NotIn',
  values,
});
export const existsReq = (key: string): LabelSelectorRequirement => ({ key, operator: 'Exists' });
export const notExistsReq = (key: string): LabelSelectorRequirement => ({ key, operator: 'DoesNotExist' });

export function term(
  topologyKey: string,
  exprs: LabelSelectorRequirement[],
  extra: Partial<PodAffinityTerm> = {},
): PodAffinityTerm {
  return { topologyKey, labelSelector: { matchExpressions: exprs }, ...extra };
}

export interface AffinitySpec {
  required?: PodAffinityTerm[];
  requiredAnti?: PodAffinityTerm[];
  preferred?: [number, PodAffinityTerm][];
  preferredAnti?: [number, PodAffinityTerm][];
}

export function affinity(a: AffinitySpec): Affinity {
  const weighted = (ts?: [number, PodAffinityTerm][]) =>
    ts?.map(([weight, podAffinityTerm]) => ({ weight, podAffinityTerm }));
  return {
    podAffinity:
      a.required || a.preferred
        ? {
            requiredDuringSchedulingIgnoredDuringExecution: a.required,
            preferredDuringSchedulingIgnoredDuringExecution: weighted(a.preferred),
          }
        : undefined,
    podAntiAffinity:
      a.requiredAnti || a.preferredAnti
        ? {
            requiredDuringSchedulingIgnoredDuringExecution: a.requiredAnti,
            preferredDuringSchedulingIgnoredDuringExecution: weighted(a.preferredAnti),
          }
        : undefined,
  };
}

export interface Setup {
  nodes: Node[];
  pods?: Pod[];
  namespaces?: Namespace[];
  version?: ConstructorParameters<typeof FeatureSet>[0];
  gates?: Record<string, boolean>;
  args?: unknown;
}

export function setup(s: Setup): { plugin: InterPodAffinity; handle: FakeHandle } {
  const objects = new ClusterObjects();
  for (const n of s.namespaces ?? []) objects.namespaces.set(n);
  const handle = new FakeHandle({
    nodes: s.nodes,
    pods: s.pods ?? [],
    objects,
    features: new FeatureSet(s.version ?? '1.26', s.gates ?? {}),
  });
  const plugin = new InterPodAffinity(defaultArgs(s.args), handle);
  return { plugin, handle };
}

/** PreFilter then Filter on each node: node name → "OK" or "<code>:<reasons>". */
export function runFilter(
  s: Setup,
  incoming: Pod,
): { preFilter: MaybeStatus; perNode: Record<string, string> } {
  const { plugin, handle } = setup(s);
  const state = new CycleState();
  const pre = plugin.preFilter(state, incoming);
  const perNode: Record<string, string> = {};
  if (pre.status) return { preFilter: pre.status, perNode };
  for (const ni of handle.snapshot().list()) {
    const st = plugin.filter(state, incoming, ni);
    perNode[ni.name] = st ? `${st.code}:${st.reasons.join('|')}` : 'OK';
  }
  return { preFilter: null, perNode };
}

/** PreScore, Score and NormalizeScore over all nodes: node name → normalized score, or the PreScore status. */
export function runScore(s: Setup, incoming: Pod): { status: MaybeStatus; scores: Record<string, number> } {
  const { plugin, handle } = setup(s);
  const state = new CycleState();
  const nodes = handle.snapshot().list();
  const status = plugin.preScore(state, incoming, nodes);
  if (status) return { status, scores: {} };
  const list: NodeScore[] = nodes.map((ni) => ({
    name: ni.name,
    score: plugin.score(state, incoming, ni)[0],
  }));
  plugin.normalizeScore(state, incoming, list);
  return { status: null, scores: Object.fromEntries(list.map((x) => [x.name, x.score])) };
}
