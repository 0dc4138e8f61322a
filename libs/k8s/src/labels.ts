// Label selectors with apimachinery labels/metav1 semantics, precompiled for hot-path matching.
import type { LabelSelector, Labels } from './types';
import { labelValueErrors, qualifiedNameErrors } from './validation';

export interface Selector {
  matches(labels: Labels | undefined): boolean;
  /** True when the selector has no requirements (it matches everything). */
  isEmpty(): boolean;
  toString(): string;
}

/** Raised when a LabelSelector cannot be converted; `field` is the offending path. */
export class LabelSelectorError extends Error {
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`);
    this.name = 'LabelSelectorError';
  }
}

export type RequirementOperator = '=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** One parsed requirement; Gt/Lt only come from node selectors. */
export interface Requirement {
  readonly key: string;
  readonly operator: RequirementOperator;
  readonly values: readonly string[];
}

type Matcher = (labels: Labels) => boolean;

const hasOwn = Object.prototype.hasOwnProperty;
const INT64_RE = /^[+-]?[0-9]+$/;
const SHORT_INT_RE = /^[+-]?[0-9]{1,15}$/;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** strconv.ParseInt(s, 10, 64) equivalent; undefined when not a valid int64. */
export function parseInt64(s: string): bigint | undefined {
  if (!INT64_RE.test(s)) return undefined;
  const v = BigInt(s);
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

function compileRequirement(r: Requirement): Matcher {
  const key = r.key;
  switch (r.operator) {
    case '=': {
      const v = r.values[0];
      return (l) => hasOwn.call(l, key) && l[key] === v;
    }
    case 'in': {
      if (r.values.length === 1) {
        const v = r.values[0];
        return (l) => hasOwn.call(l, key) && l[key] === v;
      }
      const set = new Set(r.values);
      return (l) => hasOwn.call(l, key) && set.has(l[key]);
    }
    case 'notin': {
      const set = new Set(r.values);
      return (l) => !hasOwn.call(l, key) || !set.has(l[key]);
    }
    case 'exists':
      return (l) => hasOwn.call(l, key);
    case '!':
      return (l) => !hasOwn.call(l, key);
    case 'gt':
    case 'lt': {
      // Values were validated as integers when the requirement was built.
      const bound = r.values.length === 1 ? parseInt64(r.values[0]) : undefined;
      if (bound === undefined) return () => false;
      const gt = r.operator === 'gt';
      // Short integers compare as doubles exactly; only long ones need BigInt (hot path in Filter).
      const boundNum = Number(bound);
      const boundIsSafe = Number.isSafeInteger(boundNum);
      return (l) => {
        if (!hasOwn.call(l, key)) return false;
        const s = l[key];
        if (boundIsSafe && SHORT_INT_RE.test(s)) {
          const n = Number(s);
          return gt ? n > boundNum : n < boundNum;
        }
        const v = parseInt64(s);
        if (v === undefined) return false;
        return gt ? v > bound : v < bound;
      };
    }
  }
}

function requirementString(r: Requirement): string {
  const sorted = [...r.values].sort();
  switch (r.operator) {
    case '=':
      return `${r.key}=${r.values[0]}`;
    case 'in':
      return `${r.key} in (${sorted.join(',')})`;
    case 'notin':
      return `${r.key} notin (${sorted.join(',')})`;
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'gt':
      return `${r.key}>${r.values[0]}`;
    case 'lt':
      return `${r.key}<${r.values[0]}`;
  }
}

class RequirementsSelector implements Selector {
  private readonly matchers: Matcher[];
  /** toString's text, made once: callers key caches by it for every pod. */
  private text?: string;
  constructor(readonly requirements: readonly Requirement[]) {
    this.matchers = requirements.map(compileRequirement);
  }
  matches(labels: Labels | undefined): boolean {
    const l = labels ?? EMPTY;
    const ms = this.matchers;
    for (let i = 0; i < ms.length; i++) if (!ms[i](l)) return false;
    return true;
  }
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  toString(): string {
    return (this.text ??= this.requirements.map(requirementString).join(','));
  }
}

const EMPTY: Labels = Object.freeze({}) as Labels;

const EVERYTHING: Selector = new RequirementsSelector([]);
const NOTHING: Selector = Object.freeze({
  matches: () => false,
  isEmpty: () => false,
  toString: () => '',
});

export function everything(): Selector {
  return EVERYTHING;
}

export function nothing(): Selector {
  return NOTHING;
}

export function isNothing(sel: Selector): boolean {
  return sel === NOTHING;
}

/**
 * A label every pod the selector matches must carry (`key=value`, or `key in (value)`), if the
 * selector has one: lets callers index selectors by label instead of trying each one. `sole`: the
 * selector requires nothing else (its other requirements, if any, are that one again, as in a
 * default spread selector whose Service and ReplicaSet select the same label), so every set of
 * labels carrying that one matches.
 */
export function requiredLabelOf(sel: Selector): { key: string; value: string; sole: boolean } | undefined {
  if (!(sel instanceof RequirementsSelector)) return undefined;
  const reqs = sel.requirements;
  const isLabel = (r: Requirement) => (r.operator === '=' || r.operator === 'in') && r.values.length === 1;
  const label = reqs.find(isLabel);
  if (label === undefined) return undefined;
  const value = label.values[0];
  const sole = reqs.every((r) => isLabel(r) && r.key === label.key && r.values[0] === value);
  return { key: label.key, value, sole };
}

function sortByKey(reqs: Requirement[]): Requirement[] {
  // Upstream keeps requirements sorted by key (stable), which fixes toString() output.
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Builds a selector from validated requirements (ANDed). */
export function selectorFromRequirements(reqs: Requirement[]): Selector {
  return reqs.length === 0 ? EVERYTHING : new RequirementsSelector(sortByKey([...reqs]));
}

/** Equality selector for a label set; an empty set selects everything (SelectorFromSet). */
export function selectorFromSet(labels: Labels | undefined | null): Selector {
  if (!labels) return EVERYTHING;
  const keys = Object.keys(labels);
  if (keys.length === 0) return EVERYTHING;
  return new RequirementsSelector(
    sortByKey(keys.map((k) => ({ key: k, operator: '=', values: [labels[k]] }))),
  );
}

/**
 * Validates one requirement like labels.NewRequirement; returns the problems (with paths
 * relative to `path`), empty when valid.
 */
export function requirementErrors(
  key: string,
  op: RequirementOperator,
  values: readonly string[],
  path: string,
): { field: string; detail: string }[] {
  const errs: { field: string; detail: string }[] = [];
  for (const e of qualifiedNameErrors(key))
    errs.push({ field: `${path}.key`, detail: `Invalid value: "${key}": ${e}` });
  const vpath = `${path}.values`;
  switch (op) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        errs.push({ field: vpath, detail: "for 'in', 'notin' operators, values set can't be empty" });
      break;
    case '=':
      if (values.length !== 1)
        errs.push({ field: vpath, detail: 'exact-match compatibility requires one single value' });
      break;
    case 'exists':
    case '!':
      if (values.length !== 0)
        errs.push({ field: vpath, detail: 'values set must be empty for exists and does not exist' });
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1)
        errs.push({ field: vpath, detail: "for 'Gt', 'Lt' operators, exactly one value is required" });
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined)
          errs.push({
            field: `${vpath}[${i}]`,
            detail: `Invalid value: "${v}": for 'Gt', 'Lt' operators, the value must be an integer`,
          });
      });
      break;
  }
  values.forEach((v, i) => {
    for (const e of labelValueErrors(v))
      errs.push({ field: `${vpath}[${i}]`, detail: `Invalid value: "${v}": ${e}` });
  });
  return errs;
}

// A Map: an object's lookup would also find "constructor", "toString" … on its prototype.
const LABEL_SELECTOR_OPS: ReadonlyMap<string, RequirementOperator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/**
 * metav1.LabelSelectorAsSelector: null/undefined selects nothing, `{}` selects everything,
 * matchLabels and matchExpressions are ANDed. Throws LabelSelectorError on invalid input.
 */
export function selectorFromLabelSelector(sel: LabelSelector | null | undefined, path = ''): Selector {
  if (sel === null || sel === undefined) return NOTHING;
  const matchLabels = sel.matchLabels ?? {};
  const exprs = sel.matchExpressions ?? [];
  const labelKeys = Object.keys(matchLabels);
  if (labelKeys.length + exprs.length === 0) return EVERYTHING;
  const prefix = path ? `${path}.` : '';
  const reqs: Requirement[] = [];
  for (const k of labelKeys) {
    const values = [matchLabels[k]];
    const errs = requirementErrors(k, '=', values, `${prefix}matchLabels`);
    if (errs.length) throw new LabelSelectorError(`${prefix}matchLabels`, errs[0].detail);
    reqs.push({ key: k, operator: '=', values });
  }
  exprs.forEach((expr, i) => {
    const p = `${prefix}matchExpressions[${i}]`;
    const op = LABEL_SELECTOR_OPS.get(expr.operator as string);
    if (!op)
      throw new LabelSelectorError(
        `${p}.operator`,
        `"${expr.operator}" is not a valid label selector operator`,
      );
    const values = expr.values ?? [];
    const errs = requirementErrors(expr.key, op, values, p);
    if (errs.length) throw new LabelSelectorError(errs[0].field, errs[0].detail);
    reqs.push({ key: expr.key, operator: op, values: [...values] });
  });
  return new RequirementsSelector(sortByKey(reqs));
}

/** ANDs selectors; any `nothing()` makes the result `nothing()`. */
export function mergeSelectorsAnd(selectors: readonly Selector[]): Selector {
  const reqs: Requirement[] = [];
  const opaque: Selector[] = [];
  for (const s of selectors) {
    if (s === NOTHING) return NOTHING;
    if (s instanceof RequirementsSelector) reqs.push(...s.requirements);
    else opaque.push(s);
  }
  const merged = selectorFromRequirements(reqs);
  if (opaque.length === 0) return merged;
  const all = [merged, ...opaque];
  return {
    matches: (l) => all.every((s) => s.matches(l)),
    isEmpty: () => all.every((s) => s.isEmpty()),
    toString: () =>
      all
        .map((s) => s.toString())
        .filter((s) => s)
        .join(','),
  };
}

/** A selector string that labels.Parse would refuse; the message says which part and why. */
export class SelectorTextError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'SelectorTextError';
  }
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * Parses a selector in kubectl syntax: `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`,
 * `k notin (a,b)`; '' selects everything. Throws SelectorTextError.
 */
export function parseSelectorText(text: string): Selector {
  const reqs: Requirement[] = [];
  for (const part of splitTopLevel(text)) {
    let m: RegExpExecArray | null;
    let key: string;
    let op: RequirementOperator;
    let values: string[];
    if ((m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part))) {
      key = m[1];
      op = m[2] as RequirementOperator;
      values = m[3]
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
    } else if ((m = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part))) {
      key = m[1];
      op = m[2] === '!=' ? 'notin' : '=';
      values = [m[3]];
    } else if ((m = /^!\s*(\S+)$/.exec(part))) {
      key = m[1];
      op = '!';
      values = [];
    } else if (/^\S+$/.test(part)) {
      key = part;
      op = 'exists';
      values = [];
    } else {
      throw new SelectorTextError(`cannot parse selector requirement "${part}"`);
    }
    const errs = requirementErrors(key, op, values, '');
    if (errs.length) throw new SelectorTextError(`invalid selector "${text}": ${errs[0].detail}`);
    reqs.push({ key, operator: op, values });
  }
  return selectorFromRequirements(reqs);
}
