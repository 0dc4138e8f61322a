// Compiles zod schemas into plain "would zod accept this value?" functions, as source text: the
// kind schemas' checks are generated once (kind-checks.generated.ts), so the parser validates a
// well-formed dump without loading zod, building its schemas, or letting zod copy every object.
// The code is conservative: `true` only where zod's parse would succeed; whatever it does not
// model (coercion, defaults, pipes, unions, a refinement without a stand-in, …) answers `false`,
// and the caller then runs zod itself, which finds the first issue and words it.
import type { z } from 'zod';
import type { RefinementName } from './schema-refinements';

/** What the emitter reads of a zod 4 schema (the public `_zod` internals of zod/v4/core). */
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
  _zod: { def: { check?: string; minimum?: unknown; value?: unknown; inclusive?: boolean; format?: string } };
}

const internals = (schema: z.ZodType): Internals => (schema as unknown as { _zod: Internals })._zod;

/** A refinement of schema-refinements.ts and the arguments (JSON) its check is built from. */
interface Refinement {
  name: RefinementName;
  args: readonly unknown[];
}

/** Stand-ins for schemas' refinements, registered by refinedAs. */
const refinements = new WeakMap<z.ZodType, Refinement>();

/**
 * Declares REFINEMENTS[name](...args) a stand-in for all of `schema`'s own checks (its
 * refinements): for a value the schema's type accepts, it answers true only where every one of
 * them would pass. The generated check calls it instead of zod's refinements.
 */
export function refinedAs<T extends z.ZodType>(schema: T, name: RefinementName, ...args: unknown[]): T {
  refinements.set(schema, { name, args });
  return schema;
}

/** Statements of a check's body; undefined: the schema is not modelled (the check answers false). */
type Body = string[] | undefined;

/**
 * Emits one function per schema reached (`c0`, `c1`, …, shared schemas once) and one constant per
 * refinement check (`r0`, …). The functions call `REFINEMENTS`, `isObject`, `isPlainData` and
 * `codePointLength` of schema-refinements.ts, which the surrounding code provides.
 */
export class CheckEmitter {
  private readonly names = new Map<z.ZodType, string>();
  /** Emitted bodies → their function: zod makes a new schema per `z.string()`, alike ones share one. */
  private readonly byBody = new Map<string, string>();
  private readonly functions: string[] = [];
  private readonly constants = new Map<string, string>();
  private count = 0;

  /** With TypeScript annotations (the generated module) or without (compiled on the fly). */
  constructor(private readonly typed: boolean) {}

  /** The name of the function that checks `schema`, emitted (with what it calls) on first use. */
  nameOf(schema: z.ZodType): string {
    let name = this.names.get(schema);
    if (name === undefined) {
      name = `c${this.count++}`;
      // Named before its body is emitted: a recursive schema calls itself.
      this.names.set(schema, name);
      const body = (this.checked(schema) ?? ['return false;']).map((line) => `  ${line}`).join('\n');
      const same = this.byBody.get(body);
      if (same !== undefined && !new RegExp(`\\b${name}\\(`).test(body)) {
        this.names.set(schema, same);
        return same;
      }
      this.byBody.set(body, name);
      const signature = this.typed ? `function ${name}(v: unknown): boolean` : `function ${name}(v)`;
      this.functions.push(`${signature} {\n${body}\n}`);
    }
    return name;
  }

  /** An expression: whether `arg` (a name or a property read) passes `schema`. */
  private test(schema: z.ZodType, arg: string): string {
    return leafTest(schema, arg) ?? `${this.nameOf(schema)}(${arg})`;
  }

  /** The refinement constants, then the functions. */
  declarations(): string {
    const constants = [...this.constants].map(([build, name]) => `const ${name} = ${build};`);
    return [...constants, '', this.functions.join('\n\n')].join('\n');
  }

  /** The schema's type test, then its refinements and checks (min, int, superRefine…), all of them. */
  private checked(schema: z.ZodType): Body {
    const typeTest = this.typeTest(schema);
    if (typeTest === undefined) return undefined;
    const refinement = refinements.get(schema);
    if (refinement) {
      const args = refinement.args.map((a) => JSON.stringify(a)).join(', ');
      const build = `REFINEMENTS.${refinement.name}(${args})`;
      let constant = this.constants.get(build);
      if (constant === undefined) this.constants.set(build, (constant = `r${this.constants.size}`));
      return [...typeTest, `return ${constant}(v);`];
    }
    const zod = internals(schema);
    const checks = [
      ...(zod.traits.has('$ZodCheck') ? [schema as unknown as ZodCheck] : []),
      ...(zod.def.checks ?? []),
    ];
    // Every check runs, even one zod would skip (`when`, after an aborting issue): passing them
    // all is enough for zod, which runs a subset on the same value.
    const tests: string[] = [];
    for (const c of checks) {
      const test = checkTest(c, zod.def.type);
      if (test === undefined) return undefined;
      tests.push(`if (!(${test})) return false;`);
    }
    return [...typeTest, ...tests, 'return true;'];
  }

  /** Statements that return false unless the value has the schema's type. */
  private typeTest(schema: z.ZodType): Body {
    const zod = internals(schema);
    const def = zod.def;
    if (def.coerce) return undefined;
    switch (def.type) {
      case 'string':
        return [`if (typeof v !== 'string') return false;`];
      case 'number':
        return [`if (typeof v !== 'number' || !Number.isFinite(v)) return false;`];
      case 'boolean':
        return [`if (typeof v !== 'boolean') return false;`];
      case 'unknown':
      case 'any':
        return [];
      case 'optional': {
        if (!zod.traits.has('$ZodOptional') || zod.traits.has('$ZodExactOptional') || !def.innerType)
          return undefined;
        if (internals(def.innerType).optin === 'defaulted') return undefined;
        // nullish(): one test for both.
        const nullable = internals(def.innerType).def;
        if (nullable.type === 'nullable' && nullable.innerType && !hasChecks(def.innerType))
          return [`if (v != null && !(${this.test(nullable.innerType, 'v')})) return false;`];
        return [`if (v !== undefined && !(${this.test(def.innerType, 'v')})) return false;`];
      }
      case 'nullable':
        if (!def.innerType) return undefined;
        return [`if (v !== null && !(${this.test(def.innerType, 'v')})) return false;`];
      case 'array': {
        if (!def.element) return undefined;
        return [
          'if (!Array.isArray(v)) return false;',
          `for (let i = 0; i < v.length; i++) if (!(${this.test(def.element, 'v[i]')})) return false;`,
        ];
      }
      case 'record': {
        if (!def.keyType || !def.valueType || internals(def.keyType).def.type !== 'string') return undefined;
        const key = this.test(def.keyType, 'k');
        const value = this.test(def.valueType, 'v[k]');
        const tests = [key, value].filter((t) => t !== 'true' && t !== "typeof k === 'string'");
        // for…in, not Reflect.ownKeys: no key array per record (labels, requests, capacity…). It
        // visits the own enumerable string keys (the prototype is Object.prototype or null); a
        // symbol key, which zod's record would judge too, is left to zod.
        return [
          'if (!isPlainData(v) || Object.getOwnPropertySymbols(v).length > 0) return false;',
          ...(tests.length === 0 ? [] : [`for (const k in v) if (!(${tests.join(' && ')})) return false;`]),
        ];
      }
      case 'object':
        return this.objectTest(def.shape ?? {}, def.catchall);
      default:
        return undefined;
    }
  }

  /**
   * The value's own keys, not the shape's: an object of a dump sets a few of its kind's dozens of
   * fields. Every required field must be among them.
   */
  private objectTest(shape: Record<string, z.ZodType>, catchall: z.ZodType | undefined): Body {
    const keys = Object.keys(shape);
    // A field that objects inherit ("constructor", "toString"…) is present on every object: zod
    // walks the shape then, not the value's keys. Not modelled.
    if (keys.some((key) => key in Object.prototype)) return undefined;
    // A loose object's catchall is z.unknown(), which takes anything: extra keys need no look.
    const rest =
      catchall === undefined ||
      (['unknown', 'any'].includes(internals(catchall).def.type) &&
        (internals(catchall).def.checks ?? []).length === 0)
        ? undefined
        : catchall;
    const cases: string[] = [];
    let required = 0;
    for (const key of keys) {
      const zod = internals(shape[key]);
      // Absent is fine where zod's object parse drops the field's issues for an absent key.
      const absentOk = zod.optin === 'optional' && zod.optout === 'optional';
      if (!absentOk) required++;
      const test = this.test(shape[key], 'v[key]');
      cases.push(
        `  case ${JSON.stringify(key)}:`,
        ...(test === 'true' ? [] : [`    if (!(${test})) return false;`]),
        ...(absentOk ? [] : ['    required++;']),
        '    break;',
      );
    }
    if (rest) cases.push('  default:', `    if (!(${this.test(rest, 'v[key]')})) return false;`);
    const loop =
      cases.length === 0
        ? []
        : ['for (const key in v) {', '  switch (key) {', ...cases.map((c) => `  ${c}`), '  }', '}'];
    if (required === 0) return ['if (!isObject(v)) return false;', ...loop];
    return [
      'if (!isObject(v)) return false;',
      'let required = 0;',
      ...loop,
      `if (required !== ${required}) return false;`,
    ];
  }
}

/** Whether the schema has checks or a refinement of its own, beyond its type. */
function hasChecks(schema: z.ZodType): boolean {
  const zod = internals(schema);
  return refinements.has(schema) || zod.traits.has('$ZodCheck') || (zod.def.checks ?? []).length > 0;
}

/** A plain type's test as an expression on `arg` (called for nothing more); undefined for the rest. */
function leafTest(schema: z.ZodType, arg: string): string | undefined {
  const def = internals(schema).def;
  if (def.coerce || hasChecks(schema)) return undefined;
  switch (def.type) {
    case 'string':
      return `typeof ${arg} === 'string'`;
    case 'boolean':
      return `typeof ${arg} === 'boolean'`;
    case 'unknown':
    case 'any':
      return 'true';
    default:
      return undefined;
  }
}

/**
 * The checks the kind schemas use (min length, integer, bounds) as zod 4 judges them, as an
 * expression on `v`, which the schema's `type` test passed; undefined for any other check (an
 * overwrite such as trim, which changes the value later checks see, or a refinement without a
 * stand-in).
 */
function checkTest(c: ZodCheck, type: string): string | undefined {
  const def = c._zod.def;
  switch (def.check) {
    case 'min_length': {
      const min = def.minimum;
      if (typeof min !== 'number') return undefined;
      // A code point is at most two units: a string of twice `min` units needs no count.
      if (type === 'string') return `v.length >= ${2 * min} || codePointLength(v) >= ${min}`;
      if (type === 'array') return `v.length >= ${min}`;
      return undefined;
    }
    case 'greater_than':
    case 'less_than': {
      const bound = def.value;
      if (typeof bound !== 'number' || !Number.isFinite(bound)) return undefined;
      const op = def.check === 'greater_than' ? (def.inclusive ? '>=' : '>') : def.inclusive ? '<=' : '<';
      return `${type === 'number' ? '' : "typeof v === 'number' && "}v ${op} ${bound}`;
    }
    case 'number_format':
      if (def.format !== 'safeint') return undefined;
      return `${type === 'number' ? '' : "typeof v === 'number' && "}Number.isSafeInteger(v)`;
    default:
      return undefined;
  }
}

/** The generated module's text: a check per kind and one for metadata, named by `exports`. */
export function checksModuleSource(metadata: z.ZodType, kinds: Record<string, z.ZodType>): string {
  const emitter = new CheckEmitter(true);
  const metadataCheck = emitter.nameOf(metadata);
  const kindChecks = Object.entries(kinds).map(([kind, schema]) => `  ${kind}: ${emitter.nameOf(schema)},`);
  return [
    '// Generated from the kind schemas (schemas.ts) by checksModuleSource (schema-check.ts): do not',
    '// edit. `UPDATE_KIND_CHECKS=1 npx jest libs/k8s/src/schema-check.spec.ts` writes it again.',
    "import { REFINEMENTS, codePointLength, isObject, isPlainData } from './schema-refinements';",
    '',
    emitter.declarations(),
    '',
    '/** Whether metadataSchema would accept the value (false: maybe not; ask zod). */',
    `export const METADATA_CHECK: (value: unknown) => boolean = ${metadataCheck};`,
    '',
    '/** Per kind: whether KIND_SCHEMAS[kind] would accept the value (false: maybe not; ask zod). */',
    'export const KIND_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {',
    ...kindChecks,
    '};',
    '',
  ].join('\n');
}
