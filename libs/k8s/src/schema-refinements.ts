// The judgements behind the kind schemas' refinements, without zod: schemas.ts words each problem
// as a zod issue, and the generated kind checks (kind-checks.generated.ts) ask the same functions
// whether there is one, so a well-formed dump is validated without loading zod at all.
import { parseQuantity, QuantityError, type Quantity } from './quantity';
import { LabelSelectorError, selectorFromLabelSelector } from './labels';
import type { LabelSelector } from './types';
import { labelValueErrors, qualifiedNameErrors } from './validation';

/**
 * Values already found usable, so each is judged once per process: a dump repeats a handful of
 * amounts ("32000m", "128Gi", "110") across thousands of nodes and pods, and judging one is
 * BigInt arithmetic. Bounded, since a dump may also hold many distinct amounts.
 */
class ValidValues {
  private readonly values = new Set<string | number>();
  has(v: string | number): boolean {
    return this.values.has(v);
  }
  add(v: string | number): void {
    if (this.values.size >= 10_000) this.values.clear();
    this.values.add(v);
  }
}

/** The quantity `v` stands for (the apiserver's parse), or why it is none. */
function parsedQuantity(v: string | number): Quantity | string {
  // Not remembered here: parseQuantity keeps the strings it parsed.
  try {
    return parseQuantity(v);
  } catch (e) {
    if (!(e instanceof QuantityError)) throw e;
    return `${e.reason} (got ${JSON.stringify(v)})`;
  }
}

/** Why `v` is not a quantity, or undefined. */
export function quantityProblem(v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') {
    return `Invalid value: ${JSON.stringify(v)}: must be a quantity string or number`;
  }
  const q = parsedQuantity(v);
  return typeof q === 'string' ? q : undefined;
}

/**
 * The largest amount the engine holds exactly, in its units (millicores for cpu, whole units for
 * everything else): 2^53-1. The apiserver stores larger quantities, but no real node has them,
 * and past this the scheduler's arithmetic would silently lose precision or reach Infinity.
 */
export const MAX_RESOURCE_AMOUNT = Number.MAX_SAFE_INTEGER;

/** Amounts with no problem, for cpu (millicores) and for every other resource (whole units). */
const usableCpuAmounts = new ValidValues();
const usableOtherAmounts = new ValidValues();

/** Why `value` is not a usable amount of `resource` (negative, or beyond MAX_RESOURCE_AMOUNT), or undefined. */
export function resourceQuantityProblem(resource: string, value: string | number): string | undefined {
  const usable = resource === 'cpu' ? usableCpuAmounts : usableOtherAmounts;
  if (usable.has(value)) return undefined;
  const problem = amountProblem(resource, value);
  if (problem === undefined) usable.add(value);
  return problem;
}

function amountProblem(resource: string, value: string | number): string | undefined {
  const q = parsedQuantity(value);
  if (typeof q === 'string') return q;
  const shown = JSON.stringify(value);
  if (q.sign() < 0) return `Invalid value: ${shown}: must be greater than or equal to 0`;
  const perUnit = resource === 'cpu' ? 1_000_000n : 1_000_000_000n;
  if (q.nanos / perUnit >= BigInt(MAX_RESOURCE_AMOUNT)) {
    const unit = resource === 'cpu' ? 'm' : '';
    return `Invalid value: ${shown}: must be less than ${MAX_RESOURCE_AMOUNT}${unit} (the largest ${resource} amount the scheduler holds exactly)`;
  }
  return undefined;
}

/**
 * Whether every amount of a resource list is usable for its resource (values that are no string
 * or number are the quantity check's to refuse); `onProblem` hears each one that is not, and
 * without it the walk stops at the first. for…in visits the keys Object.entries lists: the list is
 * plain data.
 */
export function resourceAmountsUsable(
  list: Record<string, unknown>,
  onProblem?: (resource: string, problem: string) => void,
): boolean {
  let usable = true;
  for (const resource in list) {
    const value = list[resource];
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    const problem = resourceQuantityProblem(resource, value);
    if (problem === undefined) continue;
    if (!onProblem) return false;
    usable = false;
    onProblem(resource, problem);
  }
  return usable;
}

/** Why `v` is none of `values` ('' allowed too when `allowEmpty`), or undefined. */
export function oneOfProblem(values: readonly string[], allowEmpty: boolean, v: unknown): string | undefined {
  if (typeof v === 'string' && (values.includes(v) || (allowEmpty && v === ''))) return undefined;
  return `Unsupported value: ${JSON.stringify(v)}: supported values: ${values.map((x) => `"${x}"`).join(', ')}`;
}

/** Label keys and values already found valid: a dump's selectors repeat a few hundred. */
const validLabelKeys = new ValidValues();
const validLabelValues = new ValidValues();

/** Whether `value` is a string `problems` finds nothing wrong with (remembered in `known`). */
function validString(value: unknown, known: ValidValues, problems: (s: string) => string[]): boolean {
  if (typeof value !== 'string') return false;
  if (known.has(value)) return true;
  if (problems(value).length > 0) return false;
  known.add(value);
  return true;
}

const labelKeyValid = (key: unknown) => validString(key, validLabelKeys, qualifiedNameErrors);
const labelValueValid = (value: unknown) => validString(value, validLabelValues, labelValueErrors);

/**
 * Whether the selector is certainly valid, judged without building it (a dump has one or more
 * per pod). False means "not certain": labelSelectorProblem then decides and words the problem.
 */
function labelSelectorSurelyValid(v: unknown): boolean {
  if (!v) return true;
  const { matchLabels, matchExpressions } = v as LabelSelector;
  if (matchLabels) {
    for (const key in matchLabels) {
      if (!Object.hasOwn(matchLabels, key) || !labelKeyValid(key) || !labelValueValid(matchLabels[key]))
        return false;
    }
  }
  if (!matchExpressions) return true;
  if (!Array.isArray(matchExpressions)) return false;
  for (let i = 0; i < matchExpressions.length; i++) {
    const expr = matchExpressions[i];
    if (!expr || !labelKeyValid(expr.key)) return false;
    const values = expr.values ?? [];
    if (!Array.isArray(values)) return false;
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) return false;
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0) return false;
        break;
      default:
        return false;
    }
    for (let j = 0; j < values.length; j++) if (!labelValueValid(values[j])) return false;
  }
  return true;
}

/** The selector's first problem (its field within the selector, and why), or undefined. */
export function labelSelectorProblem(v: unknown): LabelSelectorError | undefined {
  if (!v) return undefined;
  try {
    selectorFromLabelSelector(v as LabelSelector);
  } catch (e) {
    if (!(e instanceof LabelSelectorError)) throw e;
    return e;
  }
  return undefined;
}

/** A toleration's problems with its operator, as the apiserver words them. */
export function tolerationProblems(t: { key?: unknown; operator?: unknown; value?: unknown }): string[] {
  const problems: string[] = [];
  if (t.operator === 'Exists' && t.value) {
    problems.push(`Invalid value: "${String(t.value)}": value must be empty when \`operator\` is 'Exists'`);
  }
  if (!t.key && t.operator !== 'Exists') {
    problems.push(
      `Invalid value: "${String(t.operator ?? '')}": operator must be Exists when \`key\` is empty, which means "match all values and all keys"`,
    );
  }
  return problems;
}

type Check = (value: unknown) => boolean;

/**
 * Each refinement as a check the generated code builds once (from the arguments the schema gave
 * it) and calls per value; it sees only values the schema's own type test passed.
 */
export const REFINEMENTS = {
  quantity: (): Check => (v) => quantityProblem(v) === undefined,
  resourceAmounts: (): Check => (v) => v == null || resourceAmountsUsable(v as Record<string, unknown>),
  oneOf: (values: readonly string[], allowEmpty: boolean): Check => {
    const allowed = new Set(allowEmpty ? ['', ...values] : values);
    return (v) => typeof v === 'string' && allowed.has(v);
  },
  labelSelector: (): Check => (v) => labelSelectorSurelyValid(v) || labelSelectorProblem(v) === undefined,
  toleration: (): Check => (v) =>
    typeof v === 'object' && v !== null && tolerationProblems(v as Record<string, unknown>).length === 0,
} satisfies Record<string, (...args: never[]) => Check>;

export type RefinementName = keyof typeof REFINEMENTS;

/** Helpers the generated checks call. */
export const isObject = (v: unknown): v is Record<PropertyKey, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * zod's isPlainObject for what JSON and YAML make: an object whose prototype is Object.prototype
 * (or null) and whose own `constructor`, if any, is not a function. Anything else: not judged.
 */
export function isPlainData(v: unknown): v is Record<PropertyKey, unknown> {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return !Object.prototype.hasOwnProperty.call(v, 'constructor') || typeof v.constructor !== 'function';
}

/** Code points as zod counts a string's length: a surrogate pair is one, a lone surrogate one. */
export function codePointLength(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}
