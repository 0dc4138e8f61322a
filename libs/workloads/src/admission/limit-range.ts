/**
 * LimitRanger: defaults container requests/limits from `Container` items (mutating), then checks
 * min, max and maxLimitRequestRatio per Container and per Pod (validating), in upstream's words.
 */
import { namespaceOf, Quantity } from '@schedlab/k8s';
import type { Container, Pod } from '@schedlab/k8s';
import { QuantityList, podLimitList, podRequestList, toQuantityList } from './resource-list';

type RawList = Record<string, string>;

export interface LimitRangeItem {
  type: string;
  max?: RawList;
  min?: RawList;
  default?: RawList;
  defaultRequest?: RawList;
  maxLimitRequestRatio?: RawList;
}

export interface LimitRange {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  spec: { limits: LimitRangeItem[] };
}

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

/** API defaulting of a Container item: default ← max, defaultRequest ← default, then ← min. */
export function defaultLimitRangeItem(item: LimitRangeItem): LimitRangeItem {
  if (item.type !== 'Container') return item;
  const def = { ...(item.default ?? {}) };
  const defReq = { ...(item.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries(item.max ?? {})) if (!(k in def)) def[k] = v;
  for (const [k, v] of Object.entries(def)) if (!(k in defReq)) defReq[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!(k in defReq)) defReq[k] = v;
  return { ...item, default: def, defaultRequest: defReq };
}

function rangesIn(namespace: string, ranges: readonly LimitRange[]): LimitRangeItem[] {
  return ranges
    .filter((r) => namespaceOf(r) === namespace)
    .flatMap((r) => (r.spec?.limits ?? []).map(defaultLimitRangeItem));
}

function mergeDefaults(
  c: Container,
  requests: RawList,
  limits: RawList,
  label: string,
  notes: string[],
): void {
  const res = (c.resources = { ...(c.resources ?? {}) });
  const setReq: string[] = [];
  const setLim: string[] = [];
  const limOut = { ...(res.limits ?? {}) } as RawList;
  const reqOut = { ...(res.requests ?? {}) } as RawList;
  for (const [k, v] of Object.entries(limits)) {
    if (k in limOut) continue;
    limOut[k] = v;
    setLim.push(k);
  }
  for (const [k, v] of Object.entries(requests)) {
    if (k in reqOut) continue;
    reqOut[k] = v;
    setReq.push(k);
  }
  if (setLim.length > 0) res.limits = limOut;
  if (setReq.length > 0) res.requests = reqOut;
  if (setReq.length > 0) notes.push(`${setReq.sort().join(', ')} request for ${label} ${c.name}`);
  if (setLim.length > 0) notes.push(`${setLim.sort().join(', ')} limit for ${label} ${c.name}`);
}

/** Mutating half: the first Container item's defaults fill what each container leaves unset. */
export function applyLimitRangeDefaults(pod: Pod, ranges: readonly LimitRange[]): Pod {
  const items = rangesIn(namespaceOf(pod), ranges).filter((i) => i.type === 'Container');
  if (items.length === 0) return pod;
  // Upstream merges the defaults of every Container item; the last one wins per resource.
  const requests: RawList = {};
  const limits: RawList = {};
  for (const i of items) {
    Object.assign(requests, i.defaultRequest ?? {});
    Object.assign(limits, i.default ?? {});
  }
  const out = structuredClone(pod);
  const notes: string[] = [];
  for (const c of out.spec?.containers ?? []) mergeDefaults(c, requests, limits, 'container', notes);
  for (const c of out.spec?.initContainers ?? []) mergeDefaults(c, requests, limits, 'init container', notes);
  if (notes.length > 0) {
    out.metadata = {
      ...out.metadata,
      annotations: {
        ...(out.metadata?.annotations ?? {}),
        [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}`,
      },
    };
  }
  return out;
}

/** Compares with MilliValue when every amount fits (as upstream), else Value. */
const MAX_EXACT_MILLI_BASE = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

function scaledValues(
  a: Quantity | undefined,
  b: Quantity | undefined,
  enforced: Quantity,
): [number, number, number] {
  const all = [a, b, enforced].filter((q): q is Quantity => q !== undefined);
  // Upstream compares in milli-units while they fit an int64 (MaxInt64/1000); here numbers are
  // exact only up to 2^53, so milli-units are used while they stay exact.
  const useMilli = all.every((q) => Math.abs(q.value()) <= MAX_EXACT_MILLI_BASE);
  const v = (q: Quantity | undefined) => (q === undefined ? 0 : useMilli ? q.milliValue() : q.value());
  return [v(a), v(b), v(enforced)];
}

function minConstraint(
  type: string,
  res: string,
  enforced: Quantity,
  req: QuantityList,
  lim: QuantityList,
): string | undefined {
  const r = req.get(res);
  const l = lim.get(res);
  const [rv, lv, ev] = scaledValues(r, l, enforced);
  if (!r) return `minimum ${res} usage per ${type} is ${enforced}.  No request is specified`;
  if (rv < ev) return `minimum ${res} usage per ${type} is ${enforced}, but request is ${r}`;
  if (l && lv < ev) return `minimum ${res} usage per ${type} is ${enforced}, but limit is ${l}`;
  return undefined;
}

function maxConstraint(
  type: string,
  res: string,
  enforced: Quantity,
  req: QuantityList,
  lim: QuantityList,
): string | undefined {
  const r = req.get(res);
  const l = lim.get(res);
  const [rv, lv, ev] = scaledValues(r, l, enforced);
  if (!l) return `maximum ${res} usage per ${type} is ${enforced}.  No limit is specified`;
  if (lv > ev) return `maximum ${res} usage per ${type} is ${enforced}, but limit is ${l}`;
  if (r && rv > ev) return `maximum ${res} usage per ${type} is ${enforced}, but request is ${r}`;
  return undefined;
}

/** Go's %f: six decimals. */
function goFloat(x: number): string {
  return x.toFixed(6);
}

function ratioConstraint(
  type: string,
  res: string,
  enforced: Quantity,
  req: QuantityList,
  lim: QuantityList,
): string | undefined {
  const r = req.get(res);
  const l = lim.get(res);
  const [rv, lv] = scaledValues(r, l, enforced);
  if (!r || rv === 0)
    return `${res} max limit to request ratio per ${type} is ${enforced}, but no request is specified or request is 0`;
  if (!l || lv === 0)
    return `${res} max limit to request ratio per ${type} is ${enforced}, but no limit is specified or limit is 0`;
  const observed = lv / rv;
  if (observed * 1000 > enforced.milliValue())
    return `${res} max limit to request ratio per ${type} is ${enforced}, but provided ratio is ${goFloat(observed)}`;
  return undefined;
}

function checkItem(
  type: string,
  item: LimitRangeItem,
  req: QuantityList,
  lim: QuantityList,
  errs: string[],
): void {
  const check = (list: RawList | undefined, fn: typeof minConstraint) => {
    for (const res of Object.keys(list ?? {}).sort()) {
      const e = fn(type, res, toQuantityList(list).get(res)!, req, lim);
      if (e) errs.push(e);
    }
  };
  check(item.min, minConstraint);
  check(item.max, maxConstraint);
  check(item.maxLimitRequestRatio, ratioConstraint);
}

/** Validating half: every violation, in item order, per container then per pod. */
export function limitRangeViolations(pod: Pod, ranges: readonly LimitRange[]): string[] {
  const errs: string[] = [];
  for (const item of rangesIn(namespaceOf(pod), ranges)) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        checkItem(
          'Container',
          item,
          toQuantityList(c.resources?.requests as RawList),
          toQuantityList(c.resources?.limits as RawList),
          errs,
        );
      }
    } else if (item.type === 'Pod') {
      // Per-Pod bounds apply to what the containers ask for; RuntimeClass overhead is not counted.
      checkItem('Pod', item, podRequestList(pod, false), podLimitList(pod, false), errs);
    }
  }
  return errs;
}
