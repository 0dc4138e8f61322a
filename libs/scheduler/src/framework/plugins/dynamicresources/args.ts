/**
 * DynamicResourcesArgs (kubescheduler.config.k8s.io/v1), per release: the kind exists from 1.34
 * with `filterTimeout` (DRASchedulerFilterTimeout); 1.35 adds `bindingTimeout`
 * (DRADeviceBindingConditions with DRAResourceClaimDeviceStatus, which Schedlab takes as on).
 * Durations are metav1.Duration strings; the defaulted args keep them as Go prints them ("10m0s").
 */
import { compareVersions, type FeatureSet } from '../../../features';
import type { ArgsError } from '../../runtime/registry';

export interface DynamicResourcesArgs {
  /** Upstream aborts an allocator Filter running past it; Schedlab's allocator never times out. */
  filterTimeout?: string;
  /** How long a claim may wait for its devices' binding conditions after allocationTimestamp. */
  bindingTimeout?: string;
}

export const DYNAMIC_RESOURCES_ARGS_KIND = 'DynamicResourcesArgs';
/** The first release whose v1 scheme registers DynamicResourcesArgs. */
export const DYNAMIC_RESOURCES_ARGS_SINCE = '1.34';
/** The first release with the bindingTimeout field. */
const BINDING_TIMEOUT_FIELD_SINCE = '1.35';
export const FILTER_TIMEOUT_GATE = 'DRASchedulerFilterTimeout';
export const BINDING_CONDITIONS_GATE = 'DRADeviceBindingConditions';

const NS_PER_MS = 1_000_000n;
const DEFAULT_FILTER_TIMEOUT_NS = 10_000_000_000n;
const DEFAULT_BINDING_TIMEOUT_NS = 600_000_000_000n;
const MIN_BINDING_TIMEOUT_NS = 1_000_000_000n;
const INT64_MAX = (1n << 63n) - 1n;

// A Map: an object's lookup would also find "constructor", "toString" … on its prototype.
const UNIT_NS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1_000n],
  ['µs', 1_000n], // U+00B5
  ['μs', 1_000n], // U+03BC
  ['ms', 1_000_000n],
  ['s', 1_000_000_000n],
  ['m', 60_000_000_000n],
  ['h', 3_600_000_000_000n],
]);

/** Go's time.ParseDuration, in nanoseconds; throws with Go's message when `text` is not one. */
export function parseGoDuration(text: string): bigint {
  const quoted = JSON.stringify(text);
  const invalid = () => new Error(`time: invalid duration ${quoted}`);
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    const [whole, intDigits, fracDigits] = /^(\d*)(?:\.(\d*))?/.exec(s) ?? ['', '', undefined];
    if (intDigits === '' && (fracDigits ?? '') === '') throw invalid();
    s = s.slice(whole.length);
    const unitEnd = s.search(/[.\d]/);
    const unit = unitEnd === -1 ? s : s.slice(0, unitEnd);
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = UNIT_NS.get(unit);
    if (scale === undefined)
      throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    let v = BigInt(intDigits || '0') * scale;
    if (fracDigits) v += (BigInt(fracDigits) * scale) / 10n ** BigInt(fracDigits.length);
    total += v;
    if (total > INT64_MAX) throw invalid();
  }
  return negative ? -total : total;
}

/** `v` (< 10^digits) as a fraction with trailing zeros dropped: "" or ".5". */
function fraction(v: bigint, digits: number): string {
  if (v === 0n) return '';
  return '.' + v.toString().padStart(digits, '0').replace(/0+$/, '');
}

/** Go's time.Duration.String: "0s", "1.5ms", "10s", "10m0s", "1h0m0s". */
export function formatGoDuration(ns: bigint): string {
  const sign = ns < 0n ? '-' : '';
  const u = ns < 0n ? -ns : ns;
  if (u === 0n) return '0s';
  if (u < 1_000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${u / 1_000n}${fraction(u % 1_000n, 3)}µs`;
  if (u < 1_000_000_000n) return `${sign}${u / 1_000_000n}${fraction(u % 1_000_000n, 6)}ms`;
  const secs = u / 1_000_000_000n;
  let out = `${secs % 60n}${fraction(u % 1_000_000_000n, 9)}s`;
  if (secs >= 60n) {
    const mins = secs / 60n;
    out = `${mins % 60n}m${out}`;
    if (mins >= 60n) out = `${mins / 60n}h${out}`;
  }
  return sign + out;
}

function fieldsAt(features: FeatureSet): string[] {
  return compareVersions(features.version, BINDING_TIMEOUT_FIELD_SINCE) >= 0
    ? ['filterTimeout', 'bindingTimeout']
    : ['filterTimeout'];
}

/** metav1.Duration's JSON decoding: a string Go can parse, printed back the way Go prints it. */
function decodeDuration(value: unknown): string {
  if (typeof value !== 'string') {
    const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    throw new Error(`json: cannot unmarshal ${got} into Go value of type string`);
  }
  return formatGoDuration(parseGoDuration(value));
}

/**
 * Strict decoding and v1 defaulting: unknown fields (bindingTimeout before 1.35) are errors; an
 * unset filterTimeout becomes 10s with DRASchedulerFilterTimeout on, an unset bindingTimeout
 * 10m0s with DRADeviceBindingConditions on. Before 1.34 the kind does not exist: nothing to default.
 */
export function defaultDynamicResourcesArgs(raw: unknown, features: FeatureSet): DynamicResourcesArgs {
  if (compareVersions(features.version, DYNAMIC_RESOURCES_ARGS_SINCE) < 0) return {};
  const r = (raw ?? {}) as Record<string, unknown>;
  const allowed = fieldsAt(features);
  const unknown = Object.keys(r).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    throw new Error(
      `strict decoding error: ${unknown.map((k) => `unknown field ${JSON.stringify(k)}`).join(', ')}`,
    );
  }
  const args: DynamicResourcesArgs = {};
  if (r.filterTimeout != null) args.filterTimeout = decodeDuration(r.filterTimeout);
  else if (features.enabled(FILTER_TIMEOUT_GATE))
    args.filterTimeout = formatGoDuration(DEFAULT_FILTER_TIMEOUT_NS);
  if (allowed.includes('bindingTimeout')) {
    if (r.bindingTimeout != null) args.bindingTimeout = decodeDuration(r.bindingTimeout);
    else if (features.enabled(BINDING_CONDITIONS_GATE))
      args.bindingTimeout = formatGoDuration(DEFAULT_BINDING_TIMEOUT_NS);
  }
  return args;
}

/**
 * Upstream ValidateDynamicResourcesArgs: a field whose gate is off is Forbidden (unlike the REST
 * API); filterTimeout must not be negative, bindingTimeout at least 1s. Invalid values print as
 * JSON, so the duration is quoted. The messages are those of the code: upstream's test table
 * ignores details (its rows say "feature is disabled" and "requires … to be enabled").
 */
export function validateDynamicResourcesArgs(args: DynamicResourcesArgs, features: FeatureSet): ArgsError[] {
  const errs: ArgsError[] = [];
  if (features.enabled(FILTER_TIMEOUT_GATE)) {
    if (args.filterTimeout !== undefined && parseGoDuration(args.filterTimeout) < 0n) {
      errs.push({
        field: 'filterTimeout',
        message: `Invalid value: ${JSON.stringify(args.filterTimeout)}: must be zero or positive`,
      });
    }
  } else if (args.filterTimeout !== undefined) {
    errs.push({
      field: 'filterTimeout',
      message: 'Forbidden: DRASchedulingFilterTimeout feature gate is disabled',
    });
  }
  if (features.enabled(BINDING_CONDITIONS_GATE)) {
    if (args.bindingTimeout !== undefined && parseGoDuration(args.bindingTimeout) < MIN_BINDING_TIMEOUT_NS) {
      errs.push({
        field: 'bindingTimeout',
        message: `Invalid value: ${JSON.stringify(args.bindingTimeout)}: must be at least 1 second`,
      });
    }
  } else if (args.bindingTimeout !== undefined) {
    errs.push({
      field: 'bindingTimeout',
      message:
        'Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled',
    });
  }
  return errs;
}

/** The plugin's binding timeout in ms: the arg, or upstream's 600 s when it is unset (and before 1.35). */
export function bindingTimeoutMs(args: DynamicResourcesArgs | undefined): number {
  const ns =
    args?.bindingTimeout !== undefined ? parseGoDuration(args.bindingTimeout) : DEFAULT_BINDING_TIMEOUT_NS;
  return Number(ns / NS_PER_MS) + Number(ns % NS_PER_MS) / 1e6;
}
