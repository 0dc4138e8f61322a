// Resource limits for untrusted documents (snapshots, profiles, scenarios, request bodies):
// checked right after parsing, before anything walks the value recursively or stores it.

/** How large and how nested a parsed document may be. Each limit is named after its setting. */
export interface InputLimits {
  /** Nesting depth of objects and arrays (INPUT_MAX_DEPTH). */
  maxDepth: number;
  /** YAML alias expansion: nodes an alias may expand to, summed over a document (INPUT_MAX_YAML_ALIASES). */
  maxYamlAliases: number;
  /** Kubernetes objects in one dump, known and skipped kinds together (INPUT_MAX_OBJECTS). */
  maxObjects: number;
  /** UTF-8 bytes of any single string, key or value (INPUT_MAX_STRING_BYTES). */
  maxStringBytes: number;
}

export const DEFAULT_INPUT_LIMITS: Readonly<InputLimits> = Object.freeze({
  maxDepth: 100,
  maxYamlAliases: 1000,
  maxObjects: 500_000,
  maxStringBytes: 1024 * 1024,
});

/** The environment variable that sets each limit, for messages and error details. */
export const INPUT_LIMIT_SETTINGS: Readonly<Record<keyof InputLimits, string>> = Object.freeze({
  maxDepth: 'SCHEDLAB_INPUT_MAX_DEPTH',
  maxYamlAliases: 'SCHEDLAB_INPUT_MAX_YAML_ALIASES',
  maxObjects: 'SCHEDLAB_INPUT_MAX_OBJECTS',
  maxStringBytes: 'SCHEDLAB_INPUT_MAX_STRING_BYTES',
});

/** A document past one of the limits; `field` is where (a path like items[3].metadata.name). */
export class InputLimitError extends Error {
  readonly setting: string;
  constructor(
    readonly limit: keyof InputLimits,
    readonly max: number,
    readonly field: string,
    detail: string,
  ) {
    super(`${field ? `${field}: ` : ''}${detail} (limit ${max}, setting ${INPUT_LIMIT_SETTINGS[limit]})`);
    this.name = 'InputLimitError';
    this.setting = INPUT_LIMIT_SETTINGS[limit];
  }
}

/**
 * A string that is not well-formed Unicode (a lone UTF-16 surrogate, e.g. from a JSON "\ud800"
 * escape): no UTF-8 encoding exists for it, so nothing downstream can store or compare it.
 */
export class MalformedTextError extends Error {
  constructor(readonly field: string) {
    super(`${field ? `${field}: ` : ''}string is not well-formed Unicode (a lone surrogate)`);
    this.name = 'MalformedTextError';
  }
}

export function isWellFormedText(s: string): boolean {
  const check = (s as string & { isWellFormed?: () => boolean }).isWellFormed;
  return check
    ? check.call(s)
    : !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

export function inputLimits(overrides: Partial<InputLimits> = {}): InputLimits {
  return { ...DEFAULT_INPUT_LIMITS, ...overrides };
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const encoder = new TextEncoder();

function utf8Length(s: string, atLeast: number): number {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: short strings need no encoding.
  if (s.length * 3 <= atLeast) return s.length;
  return encoder.encode(s).length;
}

interface Frame {
  value: object;
  depth: number;
  parent?: Frame;
  key?: string | number;
}

function pathOf(frame: Frame | undefined, last?: string | number): string {
  const keys: (string | number)[] = last === undefined ? [] : [last];
  for (let f = frame; f && f.key !== undefined; f = f.parent) keys.push(f.key);
  let out = '';
  for (const k of keys.reverse()) {
    if (typeof k === 'number') out += `[${k}]`;
    else if (IDENT.test(k)) out += out ? `.${k}` : k;
    else out += `[${k.length > 40 ? `${k.slice(0, 40)}…` : k}]`;
  }
  return out;
}

/** Past this maxDepth the recursive check could exhaust the stack: only the iterative walk runs. */
const FAST_WALK_MAX_DEPTH = 1000;

/** A string within maxStringBytes and, unless known already, well-formed. */
function stringFits(s: string, max: number, wellFormed: boolean): boolean {
  return utf8Length(s, max) <= max && (wellFormed || isWellFormedText(s));
}

/**
 * True if no string (key or value) under `value` breaks a limit and nothing nests too deeply.
 * `wellFormed`: every string is known to be well-formed already (not checked again).
 */
function withinLimits(value: object, depth: number, limits: InputLimits, wellFormed: boolean): boolean {
  if (depth > limits.maxDepth) return false;
  const max = limits.maxStringBytes;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'string') {
        if (!stringFits(child, max, wellFormed)) return false;
      } else if (
        typeof child === 'object' &&
        child !== null &&
        !withinLimits(child, depth + 1, limits, wellFormed)
      )
        return false;
    }
    return true;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    if (!stringFits(key, max, wellFormed)) return false;
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === 'string') {
      if (!stringFits(child, max, wellFormed)) return false;
    } else if (
      typeof child === 'object' &&
      child !== null &&
      !withinLimits(child, depth + 1, limits, wellFormed)
    )
      return false;
  }
  return true;
}

/**
 * Whether every string JSON.parse makes of `text` is well-formed: the text is, and it escapes no
 * surrogate (`\uD800`–`\uDFFF`), the only way JSON writes a lone one. An escaped backslash before
 * such letters answers no too: then each string is checked.
 */
export function jsonStringsWellFormed(text: string): boolean {
  return isWellFormedText(text) && !/\\u[dD][89a-fA-F]/.test(text);
}

/**
 * Throws InputLimitError when `value` nests deeper than maxDepth or holds a string (or key)
 * longer than maxStringBytes. Iterative, so a hostile document cannot overflow the stack.
 */
export function checkValueLimits(
  value: unknown,
  limits: InputLimits = DEFAULT_INPUT_LIMITS,
  base = '',
  options: { stringsWellFormed?: boolean } = {},
): void {
  const tooLong = (s: string) => utf8Length(s, limits.maxStringBytes) > limits.maxStringBytes;
  const prefixed = (path: string) => (base ? (path ? `${base}.${path}`.replace('.[', '[') : base) : path);
  if (typeof value === 'string') {
    if (tooLong(value))
      throw new InputLimitError('maxStringBytes', limits.maxStringBytes, base, 'string is too long');
    if (!isWellFormedText(value)) throw new MalformedTextError(base);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  // A document within every limit (nearly all) passes a walk that allocates nothing; the walk
  // below finds the first problem, in its own order, and names its path.
  if (
    limits.maxDepth <= FAST_WALK_MAX_DEPTH &&
    withinLimits(value, 1, limits, options.stringsWellFormed === true)
  )
    return;
  const stack: Frame[] = [{ value, depth: 1 }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    if (frame.depth > limits.maxDepth) {
      throw new InputLimitError('maxDepth', limits.maxDepth, prefixed(pathOf(frame)), 'nested too deeply');
    }
    // Plain loops (no closure, no entries array per object): this walks every value of a dump.
    const current = frame.value;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) visitChild(frame, i, current[i]);
    } else {
      for (const key in current) {
        if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
        if (tooLong(key))
          throw new InputLimitError(
            'maxStringBytes',
            limits.maxStringBytes,
            prefixed(pathOf(frame)),
            'key is too long',
          );
        if (!isWellFormedText(key)) throw new MalformedTextError(prefixed(pathOf(frame)));
        visitChild(frame, key, (current as Record<string, unknown>)[key]);
      }
    }
  }

  function visitChild(frame: Frame, key: string | number, child: unknown): void {
    if (typeof child === 'string') {
      if (tooLong(child))
        throw new InputLimitError(
          'maxStringBytes',
          limits.maxStringBytes,
          prefixed(pathOf(frame, key)),
          'string is too long',
        );
      if (!isWellFormedText(child)) throw new MalformedTextError(prefixed(pathOf(frame, key)));
    } else if (typeof child === 'object' && child !== null) {
      stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
    }
  }
}

/** True for the error the yaml package throws when aliases expand past maxAliasCount. */
export function isYamlAliasExhaustion(error: unknown): boolean {
  return error instanceof ReferenceError && /alias count/i.test(error.message);
}

/** True for a stack overflow while parsing a hostile (deeply nested) document. */
export function isStackExhaustion(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
