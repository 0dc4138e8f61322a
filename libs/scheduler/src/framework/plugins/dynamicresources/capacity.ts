/**
 * Consumable capacity (DRAConsumableCapacity), written from upstream's structured allocator: what a
 * request takes from a device's capacity (its own amount, else the policy's default, else all of
 * it), rounded up to the policy's valid range step or next valid value, and whether that still
 * fits beside what allocated claims and the current search already take.
 */
import { parseQuantity, Quantity, type QuantityFormat } from '@schedlab/k8s';

export interface CapacityRequestPolicy {
  default?: string;
  validValues?: string[];
  validRange?: { min?: string; max?: string; step?: string };
}

export interface DeviceCapacity {
  value: string;
  requestPolicy?: CapacityRequestPolicy;
}

export interface CapacityRequests {
  requests?: Record<string, string>;
}

/** Capacity name → nanos, per device. */
export type ConsumedCapacity = Map<string, bigint>;

/** A capacity value the allocator cannot work with: a fatal allocator error upstream. */
export class CapacityError extends Error {}

const NANOS_PER_MILLI = 1_000_000n;
const NANOS_PER_UNIT = 1_000_000_000n;
const MAX_INT64 = (1n << 63n) - 1n;

const ceilDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? (a + b - 1n) / b : a / b);
/** Quantity.Value() and MilliValue(): rounded up. */
const unitValue = (q: Quantity): bigint => ceilDiv(q.nanos, NANOS_PER_UNIT);
const milliValue = (q: Quantity): bigint => ceilDiv(q.nanos, NANOS_PER_MILLI);
const exactMilli = (q: Quantity): bigint | undefined =>
  q.nanos % NANOS_PER_MILLI === 0n ? q.nanos / NANOS_PER_MILLI : undefined;

function useMilli(range: NonNullable<CapacityRequestPolicy['validRange']>, fractional: boolean): boolean {
  if (!fractional) return false;
  for (const v of [range.min, range.max, range.step]) {
    if (v === undefined) continue;
    if (exactMilli(parseQuantity(v)) === undefined) return false;
  }
  if (range.step !== undefined && (exactMilli(parseQuantity(range.step)) ?? 0n) < 1n) return false;
  return true;
}

function roundUpRange(
  requested: Quantity,
  range: NonNullable<CapacityRequestPolicy['validRange']>,
  fractional: boolean,
): Quantity {
  const min = parseQuantity(range.min!);
  if (requested.nanos < min.nanos) return min;
  if (range.step === undefined) return requested;
  const step = parseQuantity(range.step);
  const format: QuantityFormat = step.format;
  if (useMilli(range, fractional)) {
    const req = exactMilli(requested);
    if (req === undefined)
      throw new CapacityError(
        `capacity request cannot be represented in the device's range arithmetic: request ${requested.toString()} is not a representable milli value`,
      );
    const stepMilli = milliValue(step);
    const minMilli = milliValue(min);
    const n = ceilDiv(req - minMilli, stepMilli);
    return Quantity.fromNanos((minMilli + stepMilli * n) * NANOS_PER_MILLI, format);
  }
  if (unitValue(requested) > MAX_INT64)
    throw new CapacityError(
      `capacity request cannot be represented in the device's range arithmetic: request ${requested.toString()} exceeds MaxInt64`,
    );
  const stepInt = unitValue(step);
  const minInt = unitValue(min);
  const n = ceilDiv(unitValue(requested) - minInt, stepInt);
  return Quantity.fromNanos((minInt + stepInt * n) * NANOS_PER_UNIT, format);
}

/** What one allocation takes of a capacity, given what the request asks for (if anything). */
function consumedOf(requested: string | undefined, capacity: DeviceCapacity, fractional: boolean): Quantity {
  const policy = capacity.requestPolicy;
  if (requested === undefined) return parseQuantity(policy?.default ?? capacity.value);
  const q = parseQuantity(requested);
  if (!policy) return q;
  if (policy.validRange?.min !== undefined) return roundUpRange(q, policy.validRange, fractional);
  if (policy.validValues) {
    for (const v of policy.validValues) {
      const valid = parseQuantity(v);
      if (q.nanos <= valid.nanos) return valid;
    }
  }
  return q;
}

function violatesPolicy(
  consumed: Quantity,
  policy: CapacityRequestPolicy | undefined,
  fractional: boolean,
): boolean {
  if (!policy) return false;
  if (policy.default !== undefined && parseQuantity(policy.default).nanos === consumed.nanos) return false;
  const range = policy.validRange;
  if (range) {
    if (range.max !== undefined && consumed.nanos > parseQuantity(range.max).nanos) return true;
    if (range.step !== undefined) {
      const step = parseQuantity(range.step);
      const min = parseQuantity(range.min ?? '0');
      if (useMilli(range, fractional)) {
        const req = exactMilli(consumed);
        if (req === undefined) return true;
        return (req - milliValue(min)) % milliValue(step) !== 0n;
      }
      return (unitValue(consumed) - unitValue(min)) % unitValue(step) !== 0n;
    }
    return false;
  }
  if (policy.validValues && policy.validValues.length > 0)
    return !policy.validValues.some((v) => parseQuantity(v).nanos === consumed.nanos);
  return false;
}

/**
 * Whether the request's capacity fits the device beside `allocated` (claims already allocated)
 * and `allocating` (this search). A request naming a capacity the device lacks never fits.
 */
export function capacityFits(
  requests: CapacityRequests | undefined,
  capacity: Record<string, DeviceCapacity> | undefined,
  allocated: ConsumedCapacity | undefined,
  allocating: ConsumedCapacity | undefined,
  fractional: boolean,
): boolean {
  const caps = capacity ?? {};
  for (const name of Object.keys(requests?.requests ?? {})) if (!(name in caps)) return false;
  const consumed = new Map<string, Quantity>();
  for (const [name, cap] of Object.entries(caps)) {
    let q: Quantity;
    try {
      q = consumedOf(requests?.requests?.[name], cap, fractional);
    } catch (e) {
      throw new CapacityError(`capacity "${name}": ${(e as Error).message}`);
    }
    if (q.nanos < 0n) throw new CapacityError(`capacity "${name}": capacity value is negative`);
    consumed.set(name, q);
  }
  for (const [name, cap] of Object.entries(caps)) {
    const q = consumed.get(name)!;
    if (violatesPolicy(q, cap.requestPolicy, fractional)) return false;
    const total = q.nanos + (allocated?.get(name) ?? 0n) + (allocating?.get(name) ?? 0n);
    if (total > parseQuantity(cap.value).nanos) return false;
  }
  return true;
}

/** What an allocation of a shared device takes of each of its capacities. */
export function consumedCapacityOf(
  requests: CapacityRequests | undefined,
  capacity: Record<string, DeviceCapacity> | undefined,
  fractional: boolean,
): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, cap] of Object.entries(capacity ?? {})) {
    try {
      out.set(name, consumedOf(requests?.requests?.[name], cap, fractional));
    } catch (e) {
      throw new CapacityError(`capacity "${name}": ${(e as Error).message}`);
    }
  }
  return out;
}

/** Adds (sign 1) or takes away (sign -1) one allocation's consumption. */
export function addConsumed(
  into: ConsumedCapacity,
  consumed: ReadonlyMap<string, Quantity>,
  sign: 1n | -1n,
): void {
  for (const [name, q] of consumed) into.set(name, (into.get(name) ?? 0n) + sign * q.nanos);
}

export const isEmptyConsumption = (c: ConsumedCapacity): boolean => [...c.values()].every((v) => v === 0n);
