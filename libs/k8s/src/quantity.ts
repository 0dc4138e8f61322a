// Exact Kubernetes resource.Quantity parsing (apimachinery semantics).
//
// Every parsed quantity is rounded (away from zero) to a whole number of nano-units, exactly as
// upstream ParseQuantity does, so the value is kept as a BigInt count of nanos: no float error.
// value()/milliValue() convert to JS numbers; they are exact while the result is below 2^53.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

const FORMAT_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const MSG_FORMAT = `quantities must match the regular expression '${FORMAT_PATTERN}'`;
const MSG_SUFFIX = "unable to parse quantity's suffix";
const MSG_NUMERIC = "unable to parse quantity's numeric part";

/** Raised for any string that upstream ParseQuantity rejects. */
export class QuantityError extends Error {
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`invalid quantity "${input}": ${reason}`);
    this.name = 'QuantityError';
  }
}

const NANO_PER_UNIT = 1_000_000_000n;
const NANO_PER_MILLI = 1_000_000n;
// BinarySI values are capped at the largest int64, like upstream's maxAllowed.
const MAX_BINARY_NANOS = ((1n << 63n) - 1n) * NANO_PER_UNIT;
const MAX_INT32 = 2147483647;
// A positive decimal shift beyond this cannot be held as a BigInt sensibly and is far past any
// JS number anyway; upstream would accept it, we reject it (documented deviation).
const MAX_POSITIVE_SHIFT = 4000;

const DECIMAL_SUFFIX: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIX_BY_EXP = new Map(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_EXP = new Map(Object.entries(BINARY_SUFFIX).map(([s, e]) => [e / 10, s]));
const SUFFIX_LETTERS = 'eEinumkKMGTP';

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

const pow10Cache: bigint[] = [];
function pow10(n: number): bigint {
  if (n < 64) return (pow10Cache[n] ??= 10n ** BigInt(n));
  return 10n ** BigInt(n);
}

/** Integer division rounding the magnitude up (away from zero), as upstream Value()/MilliValue(). */
function divAwayFromZero(n: bigint, d: bigint): bigint {
  const q = n / d;
  if (q * d === n) return q;
  return n < 0n ? q - 1n : q + 1n;
}

function toSafeNumber(v: bigint): number {
  return Number(v);
}

export class Quantity {
  private constructor(
    /** The exact amount in units of 10^-9. */
    readonly nanos: bigint,
    readonly format: QuantityFormat,
  ) {}

  static fromNanos(nanos: bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(nanos, format);
  }

  static fromMilli(milli: number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(Math.trunc(milli)) * NANO_PER_MILLI, format);
  }

  static fromValue(value: number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(Math.trunc(value)) * NANO_PER_UNIT, format);
  }

  /** Whole units, rounded away from zero (upstream Value()). */
  value(): number {
    return toSafeNumber(divAwayFromZero(this.nanos, NANO_PER_UNIT));
  }

  /** Thousandths of a unit, rounded away from zero (upstream MilliValue()). */
  milliValue(): number {
    return toSafeNumber(divAwayFromZero(this.nanos, NANO_PER_MILLI));
  }

  sign(): -1 | 0 | 1 {
    return this.nanos === 0n ? 0 : this.nanos < 0n ? -1 : 1;
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  cmp(other: Quantity): -1 | 0 | 1 {
    return this.nanos === other.nanos ? 0 : this.nanos < other.nanos ? -1 : 1;
  }

  equals(other: Quantity): boolean {
    return this.nanos === other.nanos;
  }

  /** Sum keeping this quantity's format (a zero receiver takes the other's format, as upstream Add). */
  add(other: Quantity): Quantity {
    const format = this.nanos === 0n ? other.format : this.format;
    return new Quantity(this.nanos + other.nanos, format);
  }

  sub(other: Quantity): Quantity {
    const format = this.nanos === 0n ? other.format : this.format;
    return new Quantity(this.nanos - other.nanos, format);
  }

  neg(): Quantity {
    return new Quantity(-this.nanos, this.format);
  }

  /** Canonical string form, as upstream Quantity.String(). */
  toString(): string {
    if (this.nanos === 0n) return '0';
    const neg = this.nanos < 0n;
    const abs = neg ? -this.nanos : this.nanos;
    return (neg ? '-' : '') + canonical(abs, this.format);
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Largest exponent e (multiple of 3, e >= -9) with abs/10^(e+9) integral; returns [mantissa, e]. */
function decimalMantissa(absNanos: bigint): [bigint, number] {
  let mantissa = absNanos;
  let exp = -9;
  while (mantissa % 1000n === 0n) {
    mantissa /= 1000n;
    exp += 3;
  }
  return [mantissa, exp];
}

function canonical(absNanos: bigint, format: QuantityFormat): string {
  if (format === 'BinarySI') {
    // Small or fractional binary quantities print as DecimalSI to avoid lossy binary suffixes.
    if (absNanos < 1024n * NANO_PER_UNIT || absNanos % NANO_PER_UNIT !== 0n) {
      return canonical(absNanos, 'DecimalSI');
    }
    let units = absNanos / NANO_PER_UNIT;
    let k = 0;
    while (units % 1024n === 0n) {
      units /= 1024n;
      k++;
    }
    const suffix = k === 0 ? '' : BINARY_SUFFIX_BY_EXP.get(k);
    if (suffix === undefined) return canonical(absNanos, 'DecimalExponent');
    return `${units}${suffix}`;
  }
  const [mantissa, exp] = decimalMantissa(absNanos);
  if (format === 'DecimalSI') {
    const suffix = DECIMAL_SUFFIX_BY_EXP.get(exp);
    if (suffix !== undefined) return `${mantissa}${suffix}`;
  }
  return exp === 0 ? `${mantissa}` : `${mantissa}e${exp}`;
}

interface Scanned {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

// Mirrors upstream's hand-written scanner so that its quirks ("1.", ".", "-.", "1.G") are kept.
function scan(str: string): Scanned | null {
  let pos = 0;
  const end = str.length;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  if (num === '') num = '0';
  pos = i;
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    pos = i;
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTERS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) return null;
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

interface Suffix {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

function interpretSuffix(s: string): Suffix | null {
  if (s in DECIMAL_SUFFIX) return { base: 10, exponent: DECIMAL_SUFFIX[s], format: 'DecimalSI' };
  if (s in BINARY_SUFFIX) return { base: 2, exponent: BINARY_SUFFIX[s], format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'e' || s[0] === 'E') && /^[+-]?[0-9]+$/.test(s.slice(1))) {
    const exp = Number(s.slice(1));
    // Upstream keeps the exponent in an int32 that is later negated: accept only ±MaxInt32.
    if (!Number.isFinite(exp) || Math.abs(exp) > MAX_INT32) return null;
    return { base: 10, exponent: exp, format: 'DecimalExponent' };
  }
  return null;
}

/** Parses a quantity string (or a JSON number) with upstream ParseQuantity semantics. */
/**
 * Parsed quantities by their text. A dump repeats a handful of amounts ("100m", "128Mi") across
 * tens of thousands of containers, and a Quantity is immutable, so each text is scanned once.
 * Cleared when full, so odd inputs cannot grow it without bound; failures are not kept.
 */
const parsedByText = new Map<string, Quantity>();
const PARSED_BY_TEXT_LIMIT = 4096;

export function parseQuantity(input: string | number): Quantity {
  if (typeof input !== 'string') return parseUncached(input);
  let parsed = parsedByText.get(input);
  if (parsed === undefined) {
    parsed = parseUncached(input);
    if (parsedByText.size >= PARSED_BY_TEXT_LIMIT) parsedByText.clear();
    parsedByText.set(input, parsed);
  }
  return parsed;
}

function parseUncached(input: string | number): Quantity {
  let str: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new QuantityError(String(input), MSG_FORMAT);
    str = String(input);
  } else if (typeof input === 'string') {
    str = input;
  } else {
    throw new QuantityError(String(input), MSG_FORMAT);
  }
  if (str.length === 0) throw new QuantityError(str, MSG_FORMAT);
  const scanned = scan(str);
  if (!scanned) throw new QuantityError(str, MSG_FORMAT);
  const suffix = interpretSuffix(scanned.suffix);
  if (!suffix) throw new QuantityError(str, MSG_SUFFIX);

  let format = suffix.format;
  const digits = BigInt(scanned.num + scanned.denom);
  let nanos: bigint;
  if (suffix.base === 2) {
    const scaled = digits << BigInt(suffix.exponent);
    nanos = divAwayFromZero(scaled * NANO_PER_UNIT, pow10(scanned.denom.length));
  } else {
    const shift = suffix.exponent - scanned.denom.length + 9;
    if (shift >= 0) {
      if (shift > MAX_POSITIVE_SHIFT && digits !== 0n)
        throw new QuantityError(str, `${MSG_NUMERIC}: exponent too large`);
      nanos = digits === 0n ? 0n : digits * pow10(shift);
    } else if (digits === 0n) {
      nanos = 0n;
    } else if (-shift > digits.toString().length) {
      // Smaller than one nano: upstream rounds any non-zero amount up to 1n.
      nanos = 1n;
    } else {
      nanos = divAwayFromZero(digits, pow10(-shift));
    }
  }
  if (format === 'BinarySI') {
    if (nanos > MAX_BINARY_NANOS) nanos = MAX_BINARY_NANOS;
    if (nanos > 0n && nanos < NANO_PER_UNIT) format = 'DecimalSI';
  }
  return Quantity.fromNanos(scanned.positive ? nanos : -nanos, format);
}

/** Like parseQuantity but returns undefined instead of throwing. */
export function tryParseQuantity(input: string | number): Quantity | undefined {
  try {
    return parseQuantity(input);
  } catch {
    return undefined;
  }
}

/**
 * The scheduler's integer view of a resource amount: millicores for `cpu`, whole units (rounded
 * away from zero) for everything else (memory bytes, pods, storage, hugepages, extended resources).
 */
export function resourceAmount(resourceName: string, q: string | number | Quantity): number {
  const quantity = q instanceof Quantity ? q : parseQuantity(q);
  return resourceName === 'cpu' ? quantity.milliValue() : quantity.value();
}

/** Converts nanos to the resourceAmount units for `resourceName`. */
export function nanosToResourceAmount(resourceName: string, nanos: bigint): number {
  return resourceName === 'cpu'
    ? toSafeNumber(divAwayFromZero(nanos, NANO_PER_MILLI))
    : toSafeNumber(divAwayFromZero(nanos, NANO_PER_UNIT));
}

/** Converts a resourceAmount-unit number back to exact nanos. */
export function resourceAmountToNanos(resourceName: string, amount: number): bigint {
  const whole = BigInt(Math.trunc(amount));
  return resourceName === 'cpu' ? whole * NANO_PER_MILLI : whole * NANO_PER_UNIT;
}
