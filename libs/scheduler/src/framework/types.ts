/**
 * Scheduler-side views of pods and nodes (upstream framework/types.go): PodInfo with its
 * pre-parsed affinity terms, Resource vectors, NodeInfo aggregates kept up to date
 * incrementally as pods are added and removed.
 */
import { activeRequestPolicy } from './request-policy';
import {
  type ContainerPort,
  DEFAULT_MEMORY_REQUEST,
  containersRequestAll,
  hasPodLevelRequests,
  DEFAULT_MILLI_CPU_REQUEST,
  Labels,
  Node,
  Pod,
  PodAffinityTerm,
  Selector,
  WeightedPodAffinityTerm,
  nodeAllocatable,
  podRequests,
  selectorFromLabelSelector,
} from '@schedlab/k8s';

export const RESOURCE_CPU = 'cpu';
export const RESOURCE_MEMORY = 'memory';
export const RESOURCE_EPHEMERAL_STORAGE = 'ephemeral-storage';
export const RESOURCE_PODS = 'pods';
/** What upstream's scoring defaults (non-zero requests) fill in per container. */
const NON_ZERO_RESOURCES = [RESOURCE_CPU, RESOURCE_MEMORY] as const;

/**
 * Shared by every Resource without extended resources (nearly all pods): one Map per pod would
 * cost ~100 bytes each. Never written: `set` and `accumulate` give a Resource its own map first.
 */
const NO_SCALARS: ReadonlyMap<string, number> = new Map();

/** A resource vector: cpu in millicores, everything else in plain units (bytes, counts). */
export class Resource {
  milliCPU = 0;
  memory = 0;
  ephemeralStorage = 0;
  allowedPodNumber = 0;
  /** Extended resources, hugepages and attachable volumes (read-only; use set to change). */
  scalar: ReadonlyMap<string, number> = NO_SCALARS;

  private ownScalars(): Map<string, number> {
    if (this.scalar === NO_SCALARS) this.scalar = new Map();
    return this.scalar as Map<string, number>;
  }

  static fromList(list: Map<string, number>): Resource {
    const r = new Resource();
    // forEach, not for…of: no [name, amount] pair per entry (every pod's requests come here).
    list.forEach((v, name) => r.set(name, v));
    return r;
  }

  get(name: string): number {
    switch (name) {
      case RESOURCE_CPU:
        return this.milliCPU;
      case RESOURCE_MEMORY:
        return this.memory;
      case RESOURCE_EPHEMERAL_STORAGE:
        return this.ephemeralStorage;
      case RESOURCE_PODS:
        return this.allowedPodNumber;
      default:
        return this.scalar.get(name) ?? 0;
    }
  }

  set(name: string, v: number): void {
    switch (name) {
      case RESOURCE_CPU:
        this.milliCPU = v;
        break;
      case RESOURCE_MEMORY:
        this.memory = v;
        break;
      case RESOURCE_EPHEMERAL_STORAGE:
        this.ephemeralStorage = v;
        break;
      case RESOURCE_PODS:
        this.allowedPodNumber = v;
        break;
      default:
        this.ownScalars().set(name, v);
    }
  }

  /** Adds (sign 1) or subtracts (sign -1) another vector. */
  accumulate(other: Resource, sign: 1 | -1): void {
    this.milliCPU += sign * other.milliCPU;
    this.memory += sign * other.memory;
    this.ephemeralStorage += sign * other.ephemeralStorage;
    this.allowedPodNumber += sign * other.allowedPodNumber;
    if (other.scalar.size === 0) return;
    const own = this.ownScalars();
    for (const [k, v] of other.scalar) own.set(k, (own.get(k) ?? 0) + sign * v);
  }

  clone(): Resource {
    const r = new Resource();
    r.milliCPU = this.milliCPU;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    r.scalar = this.scalar.size === 0 ? NO_SCALARS : new Map(this.scalar);
    return r;
  }
}

/** One pod (anti-)affinity term with its selectors compiled (upstream framework.AffinityTerm). */
export interface AffinityTerm {
  namespaces: Set<string>;
  selector: Selector;
  topologyKey: string;
  namespaceSelector: Selector;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  weight: number;
}

/** Does `pod` (with its namespace's labels) fall under this term? */
export function affinityTermMatches(term: AffinityTerm, pod: Pod, nsLabels: Labels | undefined): boolean {
  const ns = pod.metadata?.namespace ?? 'default';
  if (term.namespaces.has(ns) || term.namespaceSelector.matches(nsLabels)) {
    return term.selector.matches(pod.metadata?.labels);
  }
  return false;
}

function compileAffinityTermUncached(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const namespaces = new Set(term.namespaces ?? []);
  // Upstream: no namespaces and no namespaceSelector means "the pod's own namespace".
  if (namespaces.size === 0 && term.namespaceSelector == null)
    namespaces.add(pod.metadata?.namespace ?? 'default');
  return {
    namespaces,
    selector: selectorFromLabelSelector(term.labelSelector ?? null),
    topologyKey: term.topologyKey,
    namespaceSelector: selectorFromLabelSelector(term.namespaceSelector ?? null),
  };
}

/**
 * Compiled terms are shared by every pod that spells the same term in the same namespace (a
 * Deployment's replicas), so matching can be memoised per term object within one attempt.
 * Terms are never mutated after compiling. Bounded so a long-running process cannot grow it forever.
 */
const internedTerms = new Map<string, AffinityTerm>();
const INTERNED_TERMS_LIMIT = 10_000;

function internTerm<T extends AffinityTerm>(key: string, make: () => T): T {
  const hit = internedTerms.get(key);
  if (hit) return hit as T;
  const t = make();
  if (internedTerms.size >= INTERNED_TERMS_LIMIT) internedTerms.clear();
  internedTerms.set(key, t);
  return t;
}

function compileAffinityTerm(pod: Pod, term: PodAffinityTerm): AffinityTerm {
  const key = `r\0${pod.metadata?.namespace ?? 'default'}\0${JSON.stringify(term)}`;
  return internTerm(key, () => compileAffinityTermUncached(pod, term));
}

/** Most pods have no affinity terms; they all share these (never mutated) empty lists. */
const NO_TERMS: AffinityTerm[] = [];
const NO_WEIGHTED_TERMS: WeightedAffinityTerm[] = [];

function compileRequired(pod: Pod, terms: PodAffinityTerm[] | undefined): AffinityTerm[] {
  if (!terms || terms.length === 0) return NO_TERMS;
  return terms.map((t) => compileAffinityTerm(pod, t));
}

function compileWeighted(pod: Pod, terms: WeightedPodAffinityTerm[] | undefined): WeightedAffinityTerm[] {
  if (!terms || terms.length === 0) return NO_WEIGHTED_TERMS;
  return terms.map((t) =>
    internTerm(`w\0${pod.metadata?.namespace ?? 'default'}\0${JSON.stringify(t)}`, () => ({
      ...compileAffinityTermUncached(pod, t.podAffinityTerm),
      weight: t.weight,
    })),
  );
}

/** What the scheduler computes once per pod: its requests and parsed affinity terms. */
export class PodInfo {
  readonly key: string;
  readonly uid: string;
  readonly requiredAffinityTerms: AffinityTerm[];
  readonly requiredAntiAffinityTerms: AffinityTerm[];
  readonly preferredAffinityTerms: WeightedAffinityTerm[];
  readonly preferredAntiAffinityTerms: WeightedAffinityTerm[];
  /** Requests, computed on first use: sorting the queue or evicting by uid never needs them. */
  private computed?: { requests: Resource; nonZeroMilliCPU: number; nonZeroMemory: number };
  /** The release's accounting in force when the PodInfo was made (the requests follow it). */
  private readonly policy = activeRequestPolicy();

  constructor(readonly pod: Pod) {
    const ns = pod.metadata?.namespace ?? 'default';
    this.key = `${ns}/${pod.metadata?.name ?? ''}`;
    this.uid = pod.metadata?.uid ?? this.key;
    const aff = pod.spec?.affinity;
    this.requiredAffinityTerms = compileRequired(
      pod,
      aff?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
    );
    this.requiredAntiAffinityTerms = compileRequired(
      pod,
      aff?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
    );
    this.preferredAffinityTerms = compileWeighted(
      pod,
      aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    );
    this.preferredAntiAffinityTerms = compileWeighted(
      pod,
      aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    );
  }

  /** Requests as the Filter fit check counts them (a missing request counts as 0). */
  get requests(): Resource {
    return (this.computed ??= this.computeRequests()).requests;
  }

  /** cpu with upstream's non-zero defaults per container, for scoring. */
  get nonZeroMilliCPU(): number {
    return (this.computed ??= this.computeRequests()).nonZeroMilliCPU;
  }

  /** memory with upstream's non-zero defaults per container, for scoring. */
  get nonZeroMemory(): number {
    return (this.computed ??= this.computeRequests()).nonZeroMemory;
  }

  private computeRequests(): { requests: Resource; nonZeroMilliCPU: number; nonZeroMemory: number } {
    const pod = this.pod;
    const policy = this.policy;
    const requests = podRequests(pod, policy);
    // With pod-level requests, the scoring defaults fill only what neither level requests.
    const podLevel = !policy.skipPodLevelResources && hasPodLevelRequests(pod);
    const nonMissing: Record<string, number> = {};
    if (!podLevel || !requests.has(RESOURCE_CPU)) nonMissing.cpu = DEFAULT_MILLI_CPU_REQUEST;
    if (!podLevel || !requests.has(RESOURCE_MEMORY)) nonMissing.memory = DEFAULT_MEMORY_REQUEST;
    // Defaults that fill nothing leave the requests as they are: skip the second pass.
    const nonZero =
      !podLevel && containersRequestAll(pod, NON_ZERO_RESOURCES)
        ? requests
        : podRequests(pod, { ...policy, nonMissingContainerRequests: nonMissing });
    return {
      requests: Resource.fromList(requests),
      nonZeroMilliCPU: nonZero.get(RESOURCE_CPU) ?? 0,
      nonZeroMemory: nonZero.get(RESOURCE_MEMORY) ?? 0,
    };
  }

  get namespace(): string {
    return this.pod.metadata?.namespace ?? 'default';
  }

  private labelKey?: string;

  /**
   * Namespace and labels in one canonical string: two pods with the same signature match every
   * affinity term alike (terms look at nothing else), so matches can be memoised by it.
   */
  get labelSignature(): string {
    if (this.labelKey === undefined) {
      const labels = this.pod.metadata?.labels ?? {};
      const parts: string[] = [this.namespace];
      for (const k of Object.keys(labels).sort()) parts.push(k, labels[k]);
      this.labelKey = JSON.stringify(parts);
    }
    return this.labelKey;
  }

  /**
   * Terms an existing pod contributes to InterPodAffinity scoring of another pod: required
   * affinity (at hardPodAffinityWeight) and preferred (anti-)affinity. Required anti-affinity alone
   * scores nothing.
   */
  hasScoringAffinityTerms(): boolean {
    return (
      this.requiredAffinityTerms.length > 0 ||
      this.preferredAffinityTerms.length > 0 ||
      this.preferredAntiAffinityTerms.length > 0
    );
  }

  /** Asked for every existing pod in InterPodAffinity's PreScore, hence computed once. */
  private affinityKnown?: boolean;

  hasAffinity(): boolean {
    if (this.affinityKnown === undefined) {
      const a = this.pod.spec?.affinity;
      this.affinityKnown = !!a && (!!a.podAffinity || !!a.podAntiAffinity);
    }
    return this.affinityKnown;
  }
}

/** Host ports in use on a node: ip → "protocol/port" set (upstream HostPortInfo). */
/**
 * Host ports in use on a node, as upstream's HostPortInfo: a set per IP of protocol/port. Two pods
 * on one node holding the same port (possible for pods bound without the scheduler) share one
 * entry, so removing either frees the port, as upstream's RemovePod does.
 */
export class HostPortInfo {
  /** Created with the first port: most nodes' pods use no host port. */
  private byIP?: Map<string, Set<string>>;

  static readonly DEFAULT_IP = '0.0.0.0';

  private static sanitize(ip: string | undefined, protocol: string | undefined): [string, string] {
    return [ip ? ip : HostPortInfo.DEFAULT_IP, protocol ? protocol : 'TCP'];
  }

  add(ip: string | undefined, protocol: string | undefined, port: number): void {
    if (port <= 0) return;
    const [i, p] = HostPortInfo.sanitize(ip, protocol);
    const byIP = (this.byIP ??= new Map());
    let set = byIP.get(i);
    if (!set) byIP.set(i, (set = new Set()));
    set.add(`${p}/${port}`);
  }

  remove(ip: string | undefined, protocol: string | undefined, port: number): void {
    if (port <= 0) return;
    const [i, p] = HostPortInfo.sanitize(ip, protocol);
    const set = this.byIP?.get(i);
    if (!set) return;
    set.delete(`${p}/${port}`);
    if (set.size === 0) this.byIP?.delete(i);
  }

  /** 0.0.0.0 conflicts with every address on the same protocol and port. */
  checkConflict(ip: string | undefined, protocol: string | undefined, port: number): boolean {
    const byIP = this.byIP;
    if (port <= 0 || byIP === undefined) return false;
    const [i, p] = HostPortInfo.sanitize(ip, protocol);
    const k = `${p}/${port}`;
    if (i === HostPortInfo.DEFAULT_IP) {
      for (const set of byIP.values()) if (set.has(k)) return true;
      return false;
    }
    return !!byIP.get(i)?.has(k) || !!byIP.get(HostPortInfo.DEFAULT_IP)?.has(k);
  }

  get size(): number {
    let n = 0;
    for (const s of this.byIP?.values() ?? []) n += s.size;
    return n;
  }

  clone(): HostPortInfo {
    const c = new HostPortInfo();
    if (this.byIP) c.byIP = new Map([...this.byIP].map(([ip, set]) => [ip, new Set(set)]));
    return c;
  }
}

/** Per image on a node: its size and on how many nodes of the cluster it is present. */
export interface ImageStateSummary {
  size: number;
  numNodes: number;
}

/** The image states and claim counts of every node that has none (never written to). */
const NO_IMAGES: ReadonlyMap<string, ImageStateSummary> = new Map();
const NO_CLAIMS: ReadonlyMap<string, number> = new Map();

/** Per-node aggregates (upstream NodeInfo), updated incrementally. */
export class NodeInfo {
  node: Node;
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts = new HostPortInfo();
  requested = new Resource();
  nonZeroRequested = new Resource();
  allocatable: Resource;
  /**
   * image name → summary; set by the snapshot (numNodes needs the whole cluster) and not changed
   * in place after. One shared empty map for nodes without images.
   */
  imageStates: ReadonlyMap<string, ImageStateSummary> = NO_IMAGES;
  /** "namespace/claim" → number of pods on this node using it (shared empty map until one does). */
  pvcRefCounts: ReadonlyMap<string, number> = NO_CLAIMS;
  generation = 0;
  /** Position in the snapshot's node list (caches index by it); -1 for what-if copies. */
  index = -1;
  /**
   * Position of the node's name among the snapshot's names sorted as strings compare (`<`): ties
   * between equal scores are broken by name, and comparing two ranks is cheaper. -1 outside a snapshot.
   */
  nameRank = -1;

  /** The node's name, read on every Filter/Score step, hence kept as a field. */
  readonly name: string;

  constructor(node: Node) {
    this.node = node;
    this.name = node.metadata?.name ?? '';
    this.allocatable = Resource.fromList(nodeAllocatable(node));
  }

  addPodInfo(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity()) this.podsWithAffinity.push(pi);
    if (pi.requiredAntiAffinityTerms.length > 0) this.podsWithRequiredAntiAffinity.push(pi);
    this.update(pi, 1);
  }

  /** Removes by uid; returns false when the pod is not on this node. */
  removePod(uid: string): boolean {
    const idx = this.pods.findIndex((p) => p.uid === uid);
    if (idx < 0) return false;
    const pi = this.pods[idx];
    this.pods.splice(idx, 1);
    removeByUid(this.podsWithAffinity, uid);
    removeByUid(this.podsWithRequiredAntiAffinity, uid);
    this.update(pi, -1);
    return true;
  }

  private updatePorts(ports: readonly ContainerPort[] | undefined, sign: 1 | -1): void {
    for (const port of ports ?? []) {
      if (sign > 0) this.usedPorts.add(port.hostIP, port.protocol, port.hostPort ?? 0);
      else this.usedPorts.remove(port.hostIP, port.protocol, port.hostPort ?? 0);
    }
  }

  private update(pi: PodInfo, sign: 1 | -1): void {
    this.requested.accumulate(pi.requests, sign);
    this.requested.allowedPodNumber = 0;
    this.nonZeroRequested.milliCPU += sign * pi.nonZeroMilliCPU;
    this.nonZeroRequested.memory += sign * pi.nonZeroMemory;
    for (const c of pi.pod.spec?.containers ?? []) this.updatePorts(c.ports, sign);
    if (pi.pod.spec?.initContainers && activeRequestPolicy().sidecarHostPorts) {
      for (const c of pi.pod.spec.initContainers)
        if (c.restartPolicy === 'Always') this.updatePorts(c.ports, sign);
    }
    for (const v of pi.pod.spec?.volumes ?? []) {
      const claim =
        v.persistentVolumeClaim?.claimName ??
        (v.ephemeral ? `${pi.pod.metadata?.name}-${v.name}` : undefined);
      if (!claim) continue;
      const k = `${pi.namespace}/${claim}`;
      const counts = this.ownPvcRefCounts();
      const n = (counts.get(k) ?? 0) + sign;
      if (n > 0) counts.set(k, n);
      else counts.delete(k);
    }
    this.generation++;
  }

  /** The node's own claim counts, made on the first write (as Resource.ownScalars). */
  private ownPvcRefCounts(): Map<string, number> {
    if (this.pvcRefCounts === NO_CLAIMS) this.pvcRefCounts = new Map();
    return this.pvcRefCounts as Map<string, number>;
  }

  /** A copy whose pod list can change without touching this one (preemption dry runs). */
  clone(): NodeInfo {
    const c = Object.create(NodeInfo.prototype) as NodeInfo;
    c.node = this.node;
    (c as { name: string }).name = this.name;
    c.pods = [...this.pods];
    c.podsWithAffinity = [...this.podsWithAffinity];
    c.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity];
    c.usedPorts = this.usedPorts.clone();
    c.requested = this.requested.clone();
    c.nonZeroRequested = this.nonZeroRequested.clone();
    c.allocatable = this.allocatable;
    c.imageStates = this.imageStates;
    c.pvcRefCounts = this.pvcRefCounts === NO_CLAIMS ? NO_CLAIMS : new Map(this.pvcRefCounts);
    c.generation = this.generation;
    c.index = -1;
    c.nameRank = this.nameRank;
    return c;
  }
}

function removeByUid(list: PodInfo[], uid: string): void {
  const i = list.findIndex((p) => p.uid === uid);
  if (i >= 0) list.splice(i, 1);
}

export function podInfoFor(pod: Pod): PodInfo {
  return new PodInfo(pod);
}
