/**
 * ResourceQuota admission: each object's usage, for the quotas of its namespace whose scopes match,
 * must fit `hard` on top of what is already used; otherwise the apiserver's `exceeded quota` error.
 */
import { podKeyOf, namespaceOf, Quantity, parseQuantity, podQosClass } from '@schedlab/k8s';
import type { Pod } from '@schedlab/k8s';
import { groupResource } from './errors';
import {
  QuantityList,
  addLists,
  podLimitList,
  podRequestList,
  prettyList,
  toQuantityList,
} from './resource-list';

export interface ScopedResourceSelectorRequirement {
  scopeName: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface ResourceQuota {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec?: {
    hard?: Record<string, string>;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: ScopedResourceSelectorRequirement[] };
  };
  status?: { used?: Record<string, string> };
}

/** An object quota admission counts: a pod, a claim, or any other namespaced object. */
export interface CountedObject {
  kind: string;
  metadata?: { name?: string; namespace?: string };
  spec?: unknown;
  status?: unknown;
}

const ONE = parseQuantity(1);
const POD_SCOPES = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass']);
/** Hard resources that every container must state when a quota limits them (a legacy rule upstream keeps). */
const MUST_SPECIFY = new Set([
  'cpu',
  'memory',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'limits.memory',
]);
const LEGACY_COUNT: Record<string, string> = {
  Pod: 'pods',
  Service: 'services',
  PersistentVolumeClaim: 'persistentvolumeclaims',
  ReplicationController: 'replicationcontrollers',
  ConfigMap: 'configmaps',
  Secret: 'secrets',
};

function isTerminalPod(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

function containerUsage(requests: QuantityList, limits: QuantityList): QuantityList {
  const out: QuantityList = new Map();
  for (const [k, v] of requests) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') {
      out.set(k, v);
      out.set(`requests.${k}`, v);
    } else {
      out.set(`requests.${k}`, v);
    }
  }
  for (const [k, v] of limits)
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') out.set(`limits.${k}`, v);
  return out;
}

/** Everything a pod consumes in quota terms (PodUsageFunc). */
export function podQuotaUsage(pod: Pod): QuantityList {
  if (isTerminalPod(pod)) return new Map();
  const out = containerUsage(podRequestList(pod), podLimitList(pod));
  out.set('pods', ONE);
  out.set('count/pods', ONE);
  return out;
}

export function objectQuotaUsage(obj: CountedObject): QuantityList {
  if (obj.kind === 'Pod') return podQuotaUsage(obj as Pod);
  const out: QuantityList = new Map([[`count/${groupResource(obj.kind)}`, ONE]]);
  if (LEGACY_COUNT[obj.kind]) out.set(LEGACY_COUNT[obj.kind], ONE);
  if (obj.kind === 'PersistentVolumeClaim') {
    const spec = obj.spec as
      { storageClassName?: string; resources?: { requests?: Record<string, string> } } | undefined;
    const storage = spec?.resources?.requests?.storage;
    if (storage !== undefined) {
      const q = parseQuantity(storage);
      out.set('requests.storage', q);
      if (spec?.storageClassName) {
        out.set(`${spec.storageClassName}.storageclass.storage.k8s.io/requests.storage`, q);
        out.set(`${spec.storageClassName}.storageclass.storage.k8s.io/persistentvolumeclaims`, ONE);
      }
    }
  }
  return out;
}

const isBestEffort = (pod: Pod): boolean => podQosClass(pod) === 'BestEffort';

function priorityClassMatches(pod: Pod, req: ScopedResourceSelectorRequirement): boolean {
  const name = pod.spec?.priorityClassName ?? '';
  switch (req.operator) {
    case 'Exists':
      return name !== '';
    case 'In':
      return (req.values ?? []).includes(name);
    case 'NotIn':
      return !(req.values ?? []).includes(name);
    // The label set always has the PriorityClass key (possibly empty), so DoesNotExist never matches.
    case 'DoesNotExist':
      return false;
  }
}

function scopeMatches(pod: Pod, req: ScopedResourceSelectorRequirement): boolean {
  switch (req.scopeName) {
    case 'Terminating':
      return (pod.spec?.activeDeadlineSeconds ?? -1) >= 0;
    case 'NotTerminating':
      return (pod.spec?.activeDeadlineSeconds ?? -1) < 0;
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass':
      return priorityClassMatches(pod, req);
    default:
      return false;
  }
}

function scopesOf(q: ResourceQuota): ScopedResourceSelectorRequirement[] {
  const out: ScopedResourceSelectorRequirement[] = (q.spec?.scopes ?? []).map((s) => ({
    scopeName: s,
    operator: 'Exists',
  }));
  out.push(...(q.spec?.scopeSelector?.matchExpressions ?? []));
  for (const s of out) {
    if (!POD_SCOPES.has(s.scopeName))
      throw new Error(
        `ResourceQuota ${namespaceOf(q)}/${q.metadata?.name}: spec.scopes: Unsupported value: "${s.scopeName}"`,
      );
  }
  return out;
}

/** Resources a scoped quota can track for a pod: BestEffort pods are only counted. */
function trackedBy(scopes: readonly ScopedResourceSelectorRequirement[], resource: string): boolean {
  if (scopes.some((s) => s.scopeName === 'BestEffort'))
    return resource === 'pods' || resource === 'count/pods';
  return true;
}

interface QuotaState {
  quota: ResourceQuota;
  scopes: ScopedResourceSelectorRequirement[];
  hard: QuantityList;
  used: QuantityList;
}

/** Tracks usage across admissions so later objects see the earlier ones. */
export class QuotaTracker {
  private readonly quotas: QuotaState[];

  /** `existing`: objects already in the cluster, counted unless a quota brings status.used. */
  constructor(quotas: readonly ResourceQuota[], existing: readonly CountedObject[] = []) {
    this.quotas = quotas.map((quota) => {
      const state: QuotaState = {
        quota,
        scopes: scopesOf(quota),
        hard: toQuantityList(quota.spec?.hard),
        used: new Map(),
      };
      if (quota.status?.used) state.used = toQuantityList(quota.status.used);
      else
        for (const o of existing)
          if (this.applies(state, o)) addLists(state.used, this.masked(state, objectQuotaUsage(o)));
      return state;
    });
  }

  private applies(q: QuotaState, obj: CountedObject): boolean {
    if (namespaceOf(q.quota) !== namespaceOf(obj)) return false;
    if (q.scopes.length === 0) return true;
    if (obj.kind !== 'Pod') return false;
    return q.scopes.every((s) => scopeMatches(obj as Pod, s));
  }

  private masked(q: QuotaState, usage: QuantityList): QuantityList {
    const out: QuantityList = new Map();
    for (const [k, v] of usage) if (q.hard.has(k) && trackedBy(q.scopes, k)) out.set(k, v);
    return out;
  }

  /** Checks every matching quota; records the usage only when all admit. Returns the reason on rejection. */
  admit(obj: CountedObject): string | undefined {
    const usage = objectQuotaUsage(obj);
    const charges: Array<[QuotaState, QuantityList]> = [];
    for (const q of this.quotas) {
      if (!this.applies(q, obj)) continue;
      const name = q.quota.metadata?.name ?? '';
      if (obj.kind === 'Pod') {
        const missing = this.missingRequirements(q, obj as Pod);
        if (missing.length > 0) return `failed quota: ${name}: must specify ${missing.join(',')}`;
      }
      const charge = this.masked(q, usage);
      const requested: QuantityList = new Map();
      const used: QuantityList = new Map();
      const limited: QuantityList = new Map();
      for (const [k, v] of charge) {
        const current = q.used.get(k) ?? Quantity.fromNanos(0n);
        if (current.add(v).cmp(q.hard.get(k)!) > 0) {
          requested.set(k, v);
          used.set(k, current);
          limited.set(k, q.hard.get(k)!);
        }
      }
      if (requested.size > 0) {
        return `exceeded quota: ${name}, requested: ${prettyList(requested)}, used: ${prettyList(used)}, limited: ${prettyList(limited)}`;
      }
      charges.push([q, charge]);
    }
    for (const [q, charge] of charges) addLists(q.used, charge);
    return undefined;
  }

  private missingRequirements(q: QuotaState, pod: Pod): string[] {
    const required = [...q.hard.keys()].filter((k) => MUST_SPECIFY.has(k) && trackedBy(q.scopes, k));
    const missing = new Set<string>();
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      const have = containerUsage(
        toQuantityList(c.resources?.requests as Record<string, string>),
        toQuantityList(c.resources?.limits as Record<string, string>),
      );
      for (const r of required) if (!have.has(r)) missing.add(r);
    }
    return [...missing].sort();
  }

  /** Current usage per quota (`namespace/name` → resource list), for reports. */
  usage(): Record<string, Record<string, string>> {
    const out: Record<string, Record<string, string>> = {};
    for (const q of this.quotas) {
      const used: Record<string, string> = {};
      for (const k of q.hard.keys()) used[k] = (q.used.get(k) ?? Quantity.fromNanos(0n)).toString();
      out[podKeyOf(q.quota)] = used;
    }
    return out;
  }

  /** Releases a deleted object's usage. */
  release(obj: CountedObject): void {
    const usage = objectQuotaUsage(obj);
    for (const q of this.quotas) {
      if (!this.applies(q, obj)) continue;
      for (const [k, v] of this.masked(q, usage))
        q.used.set(k, (q.used.get(k) ?? Quantity.fromNanos(0n)).sub(v));
    }
  }
}
