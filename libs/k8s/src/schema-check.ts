// A allocation-free "would this zod schema accept the value?" test for the shapes the kind schemas
// use, so the parser validates a well-formed dump without zod building (and discarding) a copy of
// every object. It is conservative: `true` only where zod's parse would succeed; whatever it does
// not model (coercion, defaults, pipes, unions, …) or any doubt answers `false`, and the caller
// then runs zod itself, which finds the first issue and words it exactly as before.
import type { z } from 'zod';

type Check = (value: unknown) => boolean;

/** What the walk reads of a zod 4 schema (the public `_zod` internals of zod/v4/core). */
interface Internals {
  def: {
    type: string;
    coerce?: boolean;
    checks?: ZodCheck[];
    innerType?: z.ZodType;
    element?: z.ZodType;
    shape?: Record<string, z.ZodType>;
    catchall?: z.ZodType;
    keyType?: z.ZodType;
    valueType?: z.ZodType;
  };
  traits: ReadonlySet<string>;
  optin?: string;
  optout?: string;
}
interface ZodCheck {
  _zod: { def: { check?: string }; check: (payload: { value: unknown; issues: unknown[] }) => unknown };
}

const internals = (schema: z.ZodType): Internals => (schema as unknown as { _zod: Internals })._zod;
const reject: Check = () => false;
const isObject = (v: unknown): v is Record<PropertyKey, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * zod's isPlainObject for what JSON and YAML make: an object whose prototype is Object.prototype
 * (or null) and whose own `constructor`, if any, is not a function. Anything else: not judged.
 */
function isPlainData(v: unknown): v is Record<PropertyKey, unknown> {
  if (!isObject(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return !Object.prototype.hasOwnProperty.call(v, 'constructor') || typeof v.constructor !== 'function';
}

const compiled = new WeakMap<z.ZodType, Check>();

/** Native stand-ins for schemas' refinements, registered by refinedAs. */
const nativeRefinements = new WeakMap<z.ZodType, Check>();

/**
 * Declares `passes` a stand-in for all of `schema`'s own checks (its refinements): for a value
 * the schema's type accepts, it answers true only where every one of them would pass. conformsTo
 * then runs it instead of zod's checks, which build a payload, an issue list and a context per
 * value (a resource list on every container and node of a dump).
 */
export function refinedAs<T extends z.ZodType>(schema: T, passes: Check): T {
  nativeRefinements.set(schema, passes);
  return schema;
}

/** True only if `schema.safeParse(value)` would succeed (false may still be a success). */
export function conformsTo(schema: z.ZodType, value: unknown): boolean {
  return checkerOf(schema)(value);
}

function checkerOf(schema: z.ZodType): Check {
  let check = compiled.get(schema);
  if (!check) {
    // Placeholder while compiling: a recursive schema's inner reference is not judged.
    compiled.set(schema, reject);
    check = withChecks(schema, typeCheck(schema));
    compiled.set(schema, check);
  }
  return check;
}

/** The schema's refinements and checks (min, int, superRefine…) after its type test, all of them. */
function withChecks(schema: z.ZodType, base: Check): Check {
  const native = nativeRefinements.get(schema);
  if (native) return (value) => base(value) && native(value);
  const zod = internals(schema);
  const checks = [
    ...(zod.traits.has('$ZodCheck') ? [schema as unknown as ZodCheck] : []),
    ...(zod.def.checks ?? []),
  ];
  if (checks.length === 0) return base;
  // An overwrite check (trim, toLowerCase…) changes the value later checks see: not modelled.
  if (checks.some((c) => c._zod.def.check === 'overwrite')) return reject;
  // Every check runs, even one zod would skip (`when`, after an aborting issue): passing them
  // all is enough for zod, which runs a subset on the same value.
  const steps = checks.map((c) => nativeCheck(c) ?? zodCheck(c));
  const run = (value: unknown): boolean => {
    if (!base(value)) return false;
    for (let i = 0; i < steps.length; i++) if (!steps[i](value)) return false;
    return true;
  };
  if (!checks.every((c) => c._zod.def.check === 'custom')) return run;
  // Refinements alone (the quantity and enum checks of the kind schemas) judge a string or a
  // number by its value only, and a dump repeats a handful of them ("4", "32Gi", "In")
  // thousands of times: each passing value is remembered (bounded, like ValidValues).
  const passed = new Set<string | number>();
  return (value) => {
    if ((typeof value !== 'string' && typeof value !== 'number') || Object.is(value, -0)) return run(value);
    if (passed.has(value)) return true;
    if (!run(value)) return false;
    if (passed.size >= 10_000) passed.clear();
    passed.add(value);
    return true;
  };
}

/** One zod check by zod's own code, on a payload of its own. */
function zodCheck(c: ZodCheck): Check {
  return (value) => {
    const payload = { value, issues: [] as unknown[] };
    try {
      return !(c._zod.check(payload) instanceof Promise) && payload.issues.length === 0;
    } catch {
      return false; // zod's own run throws (or reports) the same: let it
    }
  };
}

/**
 * The checks the kind schemas use on nearly every object (min length, integer, bounds), as zod
 * 4 judges them but without a payload and issue list per value; anything else, or any value of
 * another type, goes to zod's own check.
 */
function nativeCheck(c: ZodCheck): Check | undefined {
  const def = c._zod.def as ZodCheck['_zod']['def'] & {
    minimum?: unknown;
    value?: unknown;
    inclusive?: boolean;
    format?: string;
  };
  const zod = zodCheck(c);
  switch (def.check) {
    case 'min_length': {
      const min = def.minimum;
      if (typeof min !== 'number') return undefined;
      // A code point is at most two units: a string of twice `min` units needs no count.
      return (v) =>
        typeof v === 'string'
          ? v.length >= 2 * min || codePointLength(v) >= min
          : Array.isArray(v)
            ? v.length >= min
            : zod(v);
    }
    case 'greater_than':
    case 'less_than': {
      const bound = def.value;
      if (typeof bound !== 'number') return undefined;
      const above = def.check === 'greater_than';
      return (v) => {
        if (typeof v !== 'number') return zod(v);
        if (above) return def.inclusive ? v >= bound : v > bound;
        return def.inclusive ? v <= bound : v < bound;
      };
    }
    case 'number_format':
      return def.format === 'safeint'
        ? (v) => (typeof v === 'number' ? Number.isSafeInteger(v) : zod(v))
        : undefined;
    default:
      return undefined;
  }
}

/** Code points as zod counts a string's length: a surrogate pair is one, a lone surrogate one. */
function codePointLength(s: string): number {
  let count = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

function typeCheck(schema: z.ZodType): Check {
  const zod = internals(schema);
  const def = zod.def;
  if (def.coerce) return reject;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'optional': {
      if (!zod.traits.has('$ZodOptional') || zod.traits.has('$ZodExactOptional') || !def.innerType)
        return reject;
      if (internals(def.innerType).optin === 'defaulted') return reject;
      const inner = checkerOf(def.innerType);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      if (!def.innerType) return reject;
      const inner = checkerOf(def.innerType);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      if (!def.element) return reject;
      const element = checkerOf(def.element);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'record': {
      if (!def.keyType || !def.valueType || internals(def.keyType).def.type !== 'string') return reject;
      const key = checkerOf(def.keyType);
      const value = checkerOf(def.valueType);
      return (v) => {
        if (!isPlainData(v)) return false;
        // for…in, not Reflect.ownKeys: no key array per record (labels, requests, capacity…).
        // It visits the own enumerable string keys (the prototype is Object.prototype or null);
        // a symbol key, which zod's record would judge too, is left to zod.
        if (Object.getOwnPropertySymbols(v).length > 0) return false;
        for (const k in v) if (!key(k) || !value(v[k])) return false;
        return true;
      };
    }
    case 'object':
      return objectCheck(def.shape ?? {}, def.catchall);
    default:
      return reject;
  }
}

function objectCheck(shape: Record<string, z.ZodType>, catchall: z.ZodType | undefined): Check {
  const fields = new Map(
    Object.keys(shape).map((key) => {
      const zod = internals(shape[key]);
      // Absent is fine where zod's object parse drops the field's issues for an absent key.
      const absentOk = zod.optin === 'optional' && zod.optout === 'optional';
      return [key, { check: checkerOf(shape[key]), absentOk }];
    }),
  );
  const required = [...fields.values()].filter((f) => !f.absentOk).length;
  // A loose object's catchall is z.unknown(), which takes anything: extra keys need no look.
  const rest =
    catchall === undefined ||
    (['unknown', 'any'].includes(internals(catchall).def.type) &&
      (internals(catchall).def.checks ?? []).length === 0)
      ? undefined
      : checkerOf(catchall);
  // A field that objects inherit ("constructor", "toString"…) is present on every object: then
  // walk the shape, as zod does, rather than the value's own keys.
  if ([...fields.keys()].some((key) => key in Object.prototype)) return reject;
  // The value's own keys, not the shape's: an object of a dump sets a few of its kind's dozens of
  // fields. Every required field must be among them.
  return (v) => {
    if (!isObject(v)) return false;
    let requiredSeen = 0;
    for (const key in v) {
      const field = fields.get(key);
      if (field === undefined) {
        if (rest && !rest(v[key])) return false;
      } else {
        if (!field.check(v[key])) return false;
        if (!field.absentOk) requiredSeen++;
      }
    }
    return requiredSeen === required;
  };
}
