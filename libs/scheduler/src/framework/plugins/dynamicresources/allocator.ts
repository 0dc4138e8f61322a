/**
 * The structured-parameters device allocator of k8s.io/dynamic-resource-allocation/structured
 * (the "stable"/"incubating" variants of 1.34–1.37), written from upstream's allocator: pools
 * gathered per node (newest generation only, incomplete and invalid pools), requests with
 * `exactly` (ExactCount / All, admin access) or `firstAvailable` subrequests, class and request
 * CEL selectors, `matchAttribute` constraints, devices in use by other claims, and a depth-first
 * search that keeps the first complete solution, in upstream's visiting order.
 *
 * Device taints (DRADeviceTaints): a NoSchedule or NoExecute taint on a device keeps it from any
 * request that does not tolerate it.
 *
 * Partitionable devices (DRAPartitionableDevices): a pool's slices with `sharedCounters` carry its
 * counter sets, devices `consumesCounters` from them, and a device is refused when the counters
 * left after allocated devices and those allocated in this search would go below zero.
 * Consumable capacity (DRAConsumableCapacity): a device with `allowMultipleAllocations` is shared
 * by several allocations, each taking capacity by its request (rounded by the capacity's
 * `requestPolicy`), while the sum stays within the device's capacity (capacity.ts).
 *
 * DeviceTaintRules (DRADeviceTaintRules) add their taints to the slices before they get here
 * (taint-rules.ts).
 *
 * Binding conditions (DRADeviceBindingConditions with DRAResourceClaimDeviceStatus): without the
 * gates a device with `bindingConditions` is never allocated; with them it is, its conditions are
 * copied into the result, and pools holding such devices are visited after the others (1.34's
 * allocator also puts a pool's slices with such devices after its other slices). Either way a
 * device with `bindsToNode` narrows the allocation's node selector to the node allocated for.
 */
import {
  compileNodeSelector,
  fnv32a,
  parseQuantity,
  Quantity,
  tolerationToleratesTaint,
  type Node,
  type NodeSelector,
} from '@schedlab/k8s';
import type * as Cel from '@bufbuild/cel';
import {
  addConsumed,
  CapacityError,
  capacityFits,
  consumedCapacityOf,
  isEmptyConsumption,
  type CapacityRequests,
  type ConsumedCapacity,
  type DeviceCapacity,
} from './capacity';

export const ALLOCATION_RESULTS_MAX_SIZE = 32;
export const FIRST_AVAILABLE_MAX_SIZE = 8;

export interface DeviceAttribute {
  string?: string;
  int?: number;
  bool?: boolean;
  version?: string;
}

export interface Device {
  name: string;
  attributes?: Record<string, DeviceAttribute>;
  capacity?: Record<string, DeviceCapacity>;
  nodeName?: string;
  allNodes?: boolean;
  nodeSelector?: NodeSelector;
  consumesCounters?: DeviceCounterConsumption[];
  allowMultipleAllocations?: boolean;
  taints?: DeviceTaint[];
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
  bindsToNode?: boolean;
}

export interface CounterSet {
  name: string;
  counters?: Record<string, { value: string }>;
}

export interface DeviceCounterConsumption {
  counterSet: string;
  counters?: Record<string, { value: string }>;
}

export interface DeviceTaint {
  key: string;
  value?: string;
  effect: string;
}

export interface DeviceToleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

export interface ResourceSliceSpec {
  driver: string;
  pool: { name: string; generation?: number; resourceSliceCount?: number };
  nodeName?: string;
  allNodes?: boolean;
  nodeSelector?: NodeSelector;
  perDeviceNodeSelection?: boolean;
  sharedCounters?: CounterSet[];
  devices?: Device[];
}

export interface SliceObject {
  metadata?: { name?: string };
  spec?: ResourceSliceSpec;
}

export interface DeviceSelector {
  cel?: { expression: string };
}

export interface DeviceClassObject {
  metadata?: { name?: string };
  spec?: { selectors?: DeviceSelector[]; config?: unknown[] };
}

export interface SubRequest {
  name: string;
  deviceClassName?: string;
  selectors?: DeviceSelector[];
  allocationMode?: string;
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
  capacity?: CapacityRequests;
}

export interface DeviceRequestSpec {
  name: string;
  exactly?: Omit<SubRequest, 'name'>;
  firstAvailable?: SubRequest[];
}

export interface ClaimObject {
  metadata?: { name?: string; namespace?: string; uid?: string };
  spec?: {
    devices?: {
      requests?: DeviceRequestSpec[];
      constraints?: { requests?: string[]; matchAttribute?: string }[];
      config?: { requests?: string[] }[];
    };
  };
}

export interface DeviceRequestAllocationResult {
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  /** Consumable capacity: the share of a device allocated several times, and what it takes. */
  shareID?: string;
  consumedCapacity?: Record<string, string>;
  /** Binding conditions: what PreBind waits for, and what fails the binding, from the device. */
  bindingConditions?: string[];
  bindingFailureConditions?: string[];
}

export interface AllocationResult {
  devices: { results: DeviceRequestAllocationResult[] };
  nodeSelector?: NodeSelector;
}

export interface AllocatorFeatures {
  adminAccess: boolean;
  prioritizedList: boolean;
  /** 1.36+: the "incubating" allocator sorts pools by driver/pool and a pool's slices by name. */
  sortPools: boolean;
  /**
   * 1.34 (k8s.io/dynamic-resource-allocation v0.34): an incomplete pool is still allocated from
   * (only allocationMode All refuses it), its completeness is not re-checked against slices for
   * other nodes, and an invalid pool met during the search is a fatal error.
   */
  legacyPools: boolean;
  /** DRADeviceTaints (on from 1.36): untolerated NoSchedule/NoExecute taints keep a device out. */
  deviceTaints: boolean;
  /** DRADeviceTaintRules (on from 1.37, needs DRADeviceTaints): DeviceTaintRules taint devices. */
  deviceTaintRules?: boolean;
  /** DRAPartitionableDevices (on from 1.36): shared counters and per-device node selection. */
  partitionableDevices?: boolean;
  /** DRAConsumableCapacity (on from 1.36): allowMultipleAllocations and capacity requests. */
  consumableCapacity?: boolean;
  /** DRAFractionalCapacityRange (on from 1.37): validRange steps in milli units. */
  fractionalCapacityRange?: boolean;
  /**
   * 1.37+: allocationMode All lists a device by its own capacity only (1.36 also subtracted the
   * shares of allocated claims, leaving a device without room out of "all"), and a capacity
   * value the arithmetic cannot handle is a fatal error (1.36 passed the device over).
   */
  strictCapacity?: boolean;
  /**
   * 1.36 (v0.36.3): a slice with sharedCounters counts for every node whatever its node
   * selection, and the counters left are kept per pool name (not driver and pool).
   */
  countersByPoolName?: boolean;
  /**
   * DRADeviceBindingConditions and DRAResourceClaimDeviceStatus (both on from 1.36): devices with
   * binding conditions may be allocated, the result carries their conditions.
   */
  deviceBindingConditions?: boolean;
  /**
   * 1.37+: the claim's device limit is checked as each request adds its minimum, naming the
   * request; 1.36 and earlier check the claim's total once all its requests are validated.
   */
  claimLimitPerRequest?: boolean;
}

/** The allocator failed on this node only (upstream ErrFailedAllocationOnNode). */
export class FailedOnNode extends Error {}
/** A fatal problem (invalid claim or class, CEL errors): the scheduling attempt aborts. */
export class AllocatorError extends Error {}

export const deviceKey = (driver: string, pool: string, device: string): string =>
  `${driver}/${pool}/${device}`;

// ---- CEL ------------------------------------------------------------------------------------

const Q_KEY = '__quantity_nanos';
const quantityValue = (nanos: bigint): Map<string, bigint> => new Map([[Q_KEY, nanos]]);
const nanosOf = (m: unknown): bigint => {
  const v = (m as { get(k: string): unknown }).get(Q_KEY);
  if (typeof v !== 'bigint') throw new Error('not a quantity');
  return v;
};
const cmp = (a: bigint, b: bigint): bigint => (a < b ? -1n : a > b ? 1n : 0n);

// The CEL library costs ~0.2 s to load: it is required the first time a dump has a selector to
// compile, not at start-up of every run (most dumps have no DRA objects).
let celLibrary: { lib: typeof Cel; env: Cel.CelEnv } | undefined;
function cel(): { lib: typeof Cel; env: Cel.CelEnv } {
  if (celLibrary) return celLibrary;
  const lib = require('@bufbuild/cel') as typeof Cel;
  const { celEnv, celFunc, celMethod, CelScalar, mapType } = lib;
  const QUANTITY = mapType(CelScalar.STRING, CelScalar.DYN);
  const env = celEnv({
    variables: { device: CelScalar.DYN },
    funcs: [
      celFunc('quantity', [CelScalar.STRING], QUANTITY, (s) => quantityValue(parseQuantity(s).nanos)),
      celMethod('compareTo', QUANTITY, [QUANTITY], CelScalar.INT, function (o) {
        return cmp(nanosOf(this), nanosOf(o));
      }),
      celMethod('isGreaterThan', QUANTITY, [QUANTITY], CelScalar.BOOL, function (o) {
        return nanosOf(this) > nanosOf(o);
      }),
      celMethod('isLessThan', QUANTITY, [QUANTITY], CelScalar.BOOL, function (o) {
        return nanosOf(this) < nanosOf(o);
      }),
      celMethod('sign', QUANTITY, [], CelScalar.INT, function () {
        return cmp(nanosOf(this), 0n);
      }),
    ],
  });
  celLibrary = { lib, env };
  return celLibrary;
}

type Program = (ctx: { device: unknown }) => unknown;
const programs = new Map<string, Program | Error>();

function compile(expression: string): Program | Error {
  let p = programs.get(expression);
  if (!p) {
    try {
      const { lib, env } = cel();
      p = lib.plan(env, lib.parse(expression)) as unknown as Program;
    } catch (e) {
      p = e instanceof Error ? e : new Error(String(e));
    }
    programs.set(expression, p);
  }
  return p;
}

/** The CEL `device` variable: driver, attributes and capacity grouped by domain. */
function celDevice(driver: string, device: Device): unknown {
  const attributes = new Map<string, Map<string, unknown>>();
  const capacity = new Map<string, Map<string, unknown>>();
  const domainOf = (name: string): [string, string] => {
    const i = name.indexOf('/');
    return i < 0 ? [driver, name] : [name.slice(0, i), name.slice(i + 1)];
  };
  for (const [name, a] of Object.entries(device.attributes ?? {})) {
    const [domain, id] = domainOf(name);
    let v: unknown;
    if (a.int !== undefined) v = BigInt(a.int);
    else if (a.bool !== undefined) v = a.bool;
    else if (a.string !== undefined) v = a.string;
    else if (a.version !== undefined) v = a.version;
    else continue;
    if (!attributes.has(domain)) attributes.set(domain, new Map());
    attributes.get(domain)!.set(id, v);
  }
  for (const [name, c] of Object.entries(device.capacity ?? {})) {
    const [domain, id] = domainOf(name);
    if (!capacity.has(domain)) capacity.set(domain, new Map());
    capacity.get(domain)!.set(id, quantityValue(parseQuantity(c.value).nanos));
  }
  return { driver, attributes, capacity, allowMultipleAllocations: !!device.allowMultipleAllocations };
}

/** Whether a CEL selector matches, or the error text upstream would wrap. */
export function celMatches(expression: string, driver: string, device: Device): boolean | Error {
  const p = compile(expression);
  if (p instanceof Error) return new Error(`CEL compile error: ${p.message}`);
  let r: unknown;
  try {
    r = p({ device: celDevice(driver, device) });
  } catch (e) {
    return new Error(`CEL runtime error: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof r === 'boolean') return r;
  const msg = (r as { message?: string } | undefined)?.message ?? String(r);
  return new Error(`CEL runtime error: ${msg}`);
}

// ---- Pools ----------------------------------------------------------------------------------

export function nodeMatches(
  node: Node,
  nodeName: string | undefined,
  allNodes: boolean | undefined,
  sel: NodeSelector | undefined,
): boolean {
  if (nodeName) return node.metadata?.name === nodeName;
  if (allNodes) return true;
  if (sel) return compileNodeSelector(sel).match(node);
  return false;
}

interface PoolSlice {
  name: string;
  spec: ResourceSliceSpec;
}

export interface Pool {
  driver: string;
  pool: string;
  incomplete: boolean;
  invalid: boolean;
  /** Why the pool is invalid (upstream's InvalidReason). */
  invalidReason?: string;
  /** The pool's slices with devices for the node. */
  slices: PoolSlice[];
  /**
   * Partitionable devices: the pool's slices with devices for other nodes (only when the node's
   * own slices do not complete the pool), whose allocated devices consume counters too.
   */
  otherSlices: PoolSlice[];
  /** Partitionable devices: counter set → counter → nanos, from the slices with sharedCounters. */
  counterSets: Map<string, Map<string, bigint>>;
}

/** GatherPools: the pools with devices for the node, newest generation only. */
export function gatherPools(all: readonly SliceObject[], node: Node, features: AllocatorFeatures): Pool[] {
  const pools = new Map<string, PoolSlice[]>();
  const add = (s: PoolSlice): void => {
    const id = `${s.spec.driver}\u0000${s.spec.pool.name}`;
    const list = pools.get(id);
    const gen = s.spec.pool.generation ?? 0;
    if (!list) pools.set(id, [s]);
    else if (gen < (list[0].spec.pool.generation ?? 0)) return;
    else if (gen > (list[0].spec.pool.generation ?? 0)) pools.set(id, [s]);
    else list.push(s);
  };
  const partitionable = !!features.partitionableDevices;
  // 1.34's allocator adds a node's slices holding devices with binding conditions after its other
  // slices, so within a pool those come last.
  const deferred: PoolSlice[] = [];
  const addForNode = (s: PoolSlice): void => {
    if (features.legacyPools && sliceHasBindingConditions(s)) deferred.push(s);
    else add(s);
  };
  for (const o of all) {
    const spec = o.spec;
    if (!spec) continue;
    // Without the gate, slices selecting nodes per device are not looked at, nor (from 1.35)
    // slices with shared counters; 1.34's allocator kept those as slices without devices.
    if (!partitionable && spec.perDeviceNodeSelection !== undefined) continue;
    if (!partitionable && !features.legacyPools && (spec.sharedCounters ?? []).length > 0) continue;
    const s = { name: o.metadata?.name ?? '', spec };
    if (partitionable && features.countersByPoolName && (spec.sharedCounters ?? []).length > 0) add(s);
    else if (spec.nodeName || spec.allNodes || spec.nodeSelector) {
      if (nodeMatches(node, spec.nodeName, spec.allNodes, spec.nodeSelector)) addForNode(s);
    } else if (spec.perDeviceNodeSelection) {
      if ((spec.devices ?? []).some((d) => nodeMatches(node, d.nodeName, d.allNodes, d.nodeSelector)))
        addForNode(s);
    }
  }
  for (const s of deferred) add(s);
  const result: Pool[] = [];
  for (const slices of pools.values()) {
    const first = slices[0].spec;
    const count = first.pool.resourceSliceCount ?? 0;
    const base = { driver: first.driver, pool: first.pool.name };
    if (features.legacyPools) {
      result.push({
        ...base,
        incomplete: slices.length !== count,
        invalid: !!duplicateNames(slices),
        slices,
        otherSlices: [],
        counterSets: new Map(),
      });
      continue;
    }
    if (slices.length === count) {
      result.push(buildPool(base, slices, [], features));
      continue;
    }
    // checkSlicesInPool: all slices of the generation, or obsolete if a newer one exists.
    const gen = first.pool.generation ?? 0;
    let obsolete = false;
    const ofGeneration: PoolSlice[] = [];
    for (const o of all) {
      if (o.spec?.driver !== first.driver || o.spec.pool.name !== first.pool.name) continue;
      const g = o.spec.pool.generation ?? 0;
      if (g === gen) ofGeneration.push({ name: o.metadata?.name ?? '', spec: o.spec });
      else if (g > gen) obsolete = true;
    }
    if (obsolete) continue;
    if (ofGeneration.length !== count) {
      result.push({
        ...base,
        incomplete: true,
        invalid: false,
        slices: [],
        otherSlices: [],
        counterSets: new Map(),
      });
      continue;
    }
    const targeting = new Set(slices.map((s) => s.name));
    result.push(
      buildPool(
        base,
        slices,
        ofGeneration.filter((s) => !targeting.has(s.name)),
        features,
      ),
    );
  }
  if (features.sortPools) result.sort((a, b) => cmpStr(a.driver, b.driver) || cmpStr(a.pool, b.pool));
  // Pools with devices that have binding conditions come last, whatever the gates say, so the
  // search prefers devices that need no binding step.
  const withConditions = result.filter((p) => p.slices.some(sliceHasBindingConditions));
  if (withConditions.length === 0) return result;
  return [...result.filter((p) => !withConditions.includes(p)), ...withConditions];
}

/** A slice with a device that lists binding conditions (even none: the field is set). */
function sliceHasBindingConditions(s: PoolSlice): boolean {
  return (s.spec.devices ?? []).some(
    (d) => d.bindingConditions !== undefined && d.bindingConditions !== null,
  );
}

/**
 * A pool's slices for the node split into device slices and counter sets (partitionable devices),
 * checked: unique device names, unique counter set names, every consumed counter declared.
 */
function buildPool(
  base: { driver: string; pool: string },
  slices: PoolSlice[],
  others: PoolSlice[],
  features: AllocatorFeatures,
): Pool {
  if (features.sortPools) slices.sort((a, b) => cmpStr(a.name, b.name));
  const partitionable = !!features.partitionableDevices;
  const hasCounters = (s: PoolSlice): boolean => partitionable && (s.spec.sharedCounters ?? []).length > 0;
  const deviceSlices = slices.filter((s) => !hasCounters(s));
  const otherSlices = others.filter((s) => !hasCounters(s));
  const counterSlices = [...slices.filter(hasCounters), ...others.filter(hasCounters)];
  const invalid = (reason: string): Pool => ({
    ...base,
    incomplete: false,
    invalid: true,
    invalidReason: reason,
    slices: [],
    otherSlices: [],
    counterSets: new Map(),
  });
  const duplicate = duplicateNames(deviceSlices);
  if (duplicate) return invalid(`duplicate device name ${duplicate}`);
  if (!partitionable)
    return {
      ...base,
      incomplete: false,
      invalid: false,
      slices: deviceSlices,
      otherSlices: [],
      counterSets: new Map(),
    };
  const counterSets = new Map<string, Map<string, bigint>>();
  for (const s of counterSlices)
    for (const set of s.spec.sharedCounters ?? []) {
      if (counterSets.has(set.name)) return invalid(`duplicate counter set name ${set.name}`);
      counterSets.set(
        set.name,
        new Map(Object.entries(set.counters ?? {}).map(([k, v]) => [k, parseQuantity(v.value).nanos])),
      );
    }
  for (const s of [...deviceSlices, ...otherSlices])
    for (const d of s.spec.devices ?? [])
      for (const use of d.consumesCounters ?? []) {
        const set = counterSets.get(use.counterSet);
        if (!set) return invalid(`counter set ${use.counterSet} not found`);
        for (const name of Object.keys(use.counters ?? {}))
          if (!set.has(name)) return invalid(`counter ${name} not found in counter set ${use.counterSet}`);
      }
  return { ...base, incomplete: false, invalid: false, slices: deviceSlices, otherSlices, counterSets };
}

const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The first device name two devices of the pool share, if any. */
function duplicateNames(slices: PoolSlice[]): string | undefined {
  const seen = new Set<string>();
  for (const s of slices)
    for (const d of s.spec.devices ?? []) {
      if (seen.has(d.name)) return d.name;
      seen.add(d.name);
    }
  return undefined;
}

// ---- Counters and release gates (shared with the device summary) ----------------------------

/** Where a pool's counters left are kept: driver and pool, or (1.36) the pool name only. */
export const counterPoolKey = (pool: Pool, features: AllocatorFeatures): string =>
  features.countersByPoolName ? pool.pool : `${pool.driver}/${pool.pool}`;

export const consumesCounters = (device: Device): boolean => (device.consumesCounters ?? []).length > 0;

/** Without DRAPartitionableDevices a device consuming counters is never allocated. */
export const countersRefused = (device: Device, features: AllocatorFeatures): boolean =>
  !features.partitionableDevices && consumesCounters(device);

/** Without DRADeviceBindingConditions a device with binding conditions is never allocated. */
export const bindingConditionsRefused = (device: Device, features: AllocatorFeatures): boolean =>
  !features.deviceBindingConditions && (device.bindingConditions ?? []).length > 0;

/**
 * The pool's counters left (set → counter → nanos) once the devices `held` (allocated whole or
 * shared) took theirs, kept in `cache` under counterPoolKey: upstream computes them the first time
 * a node's search needs them and keeps them for the cycle.
 */
export function countersLeft(
  pool: Pool,
  features: AllocatorFeatures,
  held: (id: string) => boolean,
  cache: Map<string, Map<string, Map<string, bigint>>>,
): Map<string, Map<string, bigint>> {
  const poolId = counterPoolKey(pool, features);
  let available = cache.get(poolId);
  if (available) return available;
  available = new Map([...pool.counterSets].map(([name, counters]) => [name, new Map(counters)]));
  for (const slice of [...pool.slices, ...pool.otherSlices])
    for (const d of slice.spec.devices ?? []) {
      if (!held(deviceKey(slice.spec.driver, slice.spec.pool.name, d.name))) continue;
      for (const use of d.consumesCounters ?? []) {
        const set = available.get(use.counterSet);
        for (const [name, v] of Object.entries(use.counters ?? {})) {
          const left = set?.get(name);
          if (left !== undefined) set!.set(name, left - parseQuantity(v.value).nanos);
        }
      }
    }
  cache.set(poolId, available);
  return available;
}

/** What one device takes of its pool's counters (set → counter → nanos). */
export function counterUse(device: Device): Map<string, Map<string, bigint>> {
  const used = new Map<string, Map<string, bigint>>();
  for (const use of device.consumesCounters ?? []) {
    let set = used.get(use.counterSet);
    if (!set) used.set(use.counterSet, (set = new Map()));
    for (const [name, v] of Object.entries(use.counters ?? {}))
      set.set(name, (set.get(name) ?? 0n) + parseQuantity(v.value).nanos);
  }
  return used;
}

/** Whether the counters left cover `used`: no counter of the pool may go below what is taken. */
export function countersHold(
  available: ReadonlyMap<string, ReadonlyMap<string, bigint>>,
  used: ReadonlyMap<string, ReadonlyMap<string, bigint>>,
): boolean {
  for (const [setName, counters] of available)
    for (const [name, left] of counters) if (left < (used.get(setName)?.get(name) ?? 0n)) return false;
  return true;
}

// ---- Allocation -----------------------------------------------------------------------------

interface Candidate {
  id: string;
  driver: string;
  pool: string;
  device: Device;
  slice: PoolSlice;
  from: Pool;
}

interface RequestData {
  name: string; // the request, or "parent/sub"
  baseName: string;
  subName: string;
  parent: boolean; // a subrequest
  className: string;
  class: DeviceClassObject;
  selectors: DeviceSelector[];
  adminAccess: boolean;
  tolerations: DeviceToleration[];
  capacity?: CapacityRequests;
  all: boolean;
  numDevices: number;
  allDevices: Candidate[];
}

interface DeviceResult {
  request: string;
  candidate: Candidate;
  adminAccess?: boolean;
  shareID?: string;
  consumedCapacity?: Map<string, Quantity>;
}

class MaxSizeExceeded extends Error {}

function claimRef(c: ClaimObject): string {
  return `${c.metadata?.namespace ?? 'default'}/${c.metadata?.name ?? ''}`;
}

function attributeOf(device: Device, driver: string, fq: string): DeviceAttribute | undefined {
  const attrs = device.attributes ?? {};
  if (fq in attrs) return attrs[fq];
  const i = fq.indexOf('/');
  if (i < 0 || fq.slice(0, i) !== driver) return undefined;
  return attrs[fq.slice(i + 1)];
}

class MatchAttribute {
  private value: DeviceAttribute | undefined;
  private n = 0;
  constructor(
    private readonly requests: Set<string>,
    private readonly attribute: string,
  ) {}
  private applies(base: string, sub: string): boolean {
    if (this.requests.size === 0) return true;
    return this.requests.has(base) || (sub !== '' && this.requests.has(`${base}/${sub}`));
  }
  add(base: string, sub: string, c: Candidate): boolean {
    if (!this.applies(base, sub)) return true;
    const a = attributeOf(c.device, c.driver, this.attribute);
    if (!a) return false;
    if (this.n === 0) {
      this.value = a;
      this.n = 1;
      return true;
    }
    const v = this.value!;
    if (a.string !== undefined) {
      if (v.string === undefined || v.string !== a.string) return false;
    } else if (a.int !== undefined) {
      if (v.int === undefined || v.int !== a.int) return false;
    } else if (a.bool !== undefined) {
      if (v.bool === undefined || v.bool !== a.bool) return false;
    } else if (a.version !== undefined) {
      if (v.version === undefined || v.version !== a.version) return false;
    } else return false;
    this.n++;
    return true;
  }
  remove(base: string, sub: string): void {
    if (this.applies(base, sub)) this.n--;
  }
}

export interface AllocatorInput {
  features: AllocatorFeatures;
  /** Devices allocated to claims (not shared, no admin access). */
  allocated: ReadonlySet<string>;
  /** Consumable capacity: devices with allocated shares (a shareID). */
  shared?: ReadonlySet<string>;
  /** Consumable capacity: what the allocated shares of each device take. */
  capacity?: ReadonlyMap<string, ConsumedCapacity>;
  classes: (name: string) => DeviceClassObject | undefined;
  slices: readonly SliceObject[];
  /**
   * Partitionable devices: the counters each pool has left after allocated devices, computed the
   * first time a node's search needs them and kept for the rest of the cycle, as upstream's
   * allocator keeps them.
   */
  availableCounters?: Map<string, Map<string, Map<string, bigint>>>;
}

/**
 * The shareID of one allocation of a device allowing multiple. Upstream draws a random UUID; any
 * identifier works (only the device of a share is ever compared), so it is a hash of claim,
 * request and device, the same on every run.
 */
function shareIDFor(claim: string, request: string, device: string): string {
  const hex = (s: string): string => fnv32a(s).toString(16).padStart(8, '0');
  const a = hex(`${claim}|${request}|${device}`);
  const b = hex(`${device}|${request}|${claim}`);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-8${a.slice(1, 4)}-${b}${a.slice(0, 4)}`;
}

/**
 * Allocate for one node: an allocation result per claim, or null when the claims cannot be
 * allocated there. Throws FailedOnNode (only this node) or AllocatorError (abort the attempt).
 */
export function allocate(
  input: AllocatorInput,
  node: Node,
  claims: readonly ClaimObject[],
): AllocationResult[] | null {
  const pools = gatherPools(input.slices, node, input.features);
  const consumable = !!input.features.consumableCapacity;
  const fractional = consumable && !!input.features.fractionalCapacityRange;
  const requestData = new Map<string, RequestData>(); // "c/r/s"
  const key = (c: number, r: number, s: number): string => `${c}/${r}/${s}`;
  const matchCache = new Map<string, boolean>();
  const constraints: MatchAttribute[][] = [];
  const results: DeviceResult[][] = claims.map(() => []);
  const allocating = new Map<string, Set<number>>();
  const selected = new Map<string, number>(); // "c/r" -> chosen subrequest index

  /** Consumable capacity: what shares of devices allocated in this search take. */
  const allocatingCapacity = new Map<string, ConsumedCapacity>();
  /** Partitionable devices: counters taken by devices allocated in this search, per pool. */
  const consumedCounters = new Map<string, Map<string, Map<string, bigint>>>();
  const counterKey = (pool: Pool): string => counterPoolKey(pool, input.features);

  const strictCapacity = !!input.features.strictCapacity;
  /** `where`: "all" (listing a request's devices), "search" or "allocate" (upstream's recheck). */
  const fitsCapacity = (
    claim: ClaimObject,
    rd: RequestData,
    c: Candidate,
    where: 'all' | 'search' | 'allocate',
  ): boolean => {
    const ownOnly = where === 'all' && strictCapacity;
    try {
      return capacityFits(
        rd.capacity,
        c.device.capacity,
        ownOnly ? undefined : input.capacity?.get(c.id),
        ownOnly ? undefined : allocatingCapacity.get(c.id),
        fractional,
      );
    } catch (e) {
      if (!(e instanceof CapacityError)) throw e;
      if (!strictCapacity) return false;
      const device = where === 'all' ? c.device.name : c.id;
      const verb = where === 'allocate' ? 'rechecking' : 'checking';
      throw new AllocatorError(
        `claim ${claimRef(claim)}, request ${rd.subName || rd.baseName}: ${verb} capacity for device ${device}: ${e.message}`,
      );
    }
  };

  const isSelectable = (rk: string, rd: RequestData, c: Candidate, claim: ClaimObject): boolean => {
    const mk = `${c.id}|${rk}`;
    const cached = matchCache.get(mk);
    if (cached !== undefined) return cached;
    const check = (selectors: DeviceSelector[], cls: boolean): boolean => {
      for (let i = 0; i < selectors.length; i++) {
        const m = celMatches(selectors[i].cel!.expression, c.driver, c.device);
        if (m instanceof Error) {
          if (cls)
            throw new AllocatorError(`class ${rd.className}: selector #${i} on device ${c.id}: ${m.message}`);
          throw new AllocatorError(
            `claim ${claimRef(claim)}: selector #${i} on device ${c.id}: ${m.message}`,
          );
        }
        if (!m) return false;
      }
      return true;
    };
    let ok = !bindingConditionsRefused(c.device, input.features);
    ok = ok && check(rd.class.spec?.selectors ?? [], true) && check(rd.selectors, false);
    if (ok && c.slice.spec.perDeviceNodeSelection)
      ok = nodeMatches(node, c.device.nodeName, c.device.allNodes, c.device.nodeSelector);
    matchCache.set(mk, ok);
    return ok;
  };

  const validate = (
    claim: ClaimObject,
    ci: number,
    ri: number,
    si: number,
    req: SubRequest,
    parent?: DeviceRequestSpec,
  ): RequestData => {
    const name = parent ? `${parent.name}/${req.name}` : req.name;
    const display = req.name;
    for (let i = 0; i < (req.selectors ?? []).length; i++)
      if (!req.selectors![i].cel)
        throw new AllocatorError(
          `claim ${claimRef(claim)}, request ${display}, selector #${i}: CEL expression empty (unsupported selector type?)`,
        );
    if (!input.features.adminAccess && req.adminAccess)
      throw new AllocatorError(
        `claim ${claimRef(claim)}, request ${display}: admin access is requested, but the feature is disabled`,
      );
    if (!req.deviceClassName)
      throw new AllocatorError(
        `claim ${claimRef(claim)}, request ${display}: missing device class name (unsupported request type?)`,
      );
    const cls = input.classes(req.deviceClassName);
    if (!cls)
      throw new AllocatorError(
        `claim ${claimRef(claim)}, request ${display}: could not retrieve device class ${req.deviceClassName}: deviceclass.resource.k8s.io "${req.deviceClassName}" not found`,
      );
    const rd: RequestData = {
      name,
      baseName: parent ? parent.name : req.name,
      subName: parent ? req.name : '',
      parent: !!parent,
      className: req.deviceClassName,
      class: cls,
      selectors: req.selectors ?? [],
      adminAccess: !!req.adminAccess,
      tolerations: req.tolerations ?? [],
      capacity: req.capacity,
      all: false,
      numDevices: 0,
      allDevices: [],
    };
    const mode = req.allocationMode ?? 'ExactCount';
    if (mode === 'ExactCount') {
      rd.numDevices = req.count ?? 1;
    } else if (mode === 'All') {
      rd.all = true;
      for (const pool of pools) {
        if (pool.incomplete)
          throw new AllocatorError(
            `claim ${claimRef(claim)}, request ${display}: asks for all devices, but resource pool ${pool.driver}/${pool.pool} is currently being updated`,
          );
        if (pool.invalid)
          throw new AllocatorError(
            `claim ${claimRef(claim)}, request ${display}: asks for all devices, but resource pool ${pool.driver}/${pool.pool} is currently invalid`,
          );
        for (const slice of pool.slices)
          for (const device of slice.spec.devices ?? []) {
            const c = {
              id: deviceKey(slice.spec.driver, slice.spec.pool.name, device.name),
              driver: slice.spec.driver,
              pool: slice.spec.pool.name,
              device,
              slice,
              from: pool,
            };
            if (!isSelectable(key(ci, ri, si), rd, c, claim)) continue;
            // From 1.37 only the device's own capacity here: what others take is checked when
            // allocating, so a device taken by others stays in the list and All fails.
            if (consumable && !fitsCapacity(claim, rd, c, 'all')) continue;
            rd.allDevices.push(c);
          }
      }
      rd.numDevices = rd.allDevices.length;
    } else {
      throw new AllocatorError(
        `claim ${claimRef(claim)}, request ${display}: unsupported count mode ${mode}`,
      );
    }
    return rd;
  };

  claims.forEach((claim, ci) => {
    let minPerClaim = 0;
    const requests = claim.spec?.devices?.requests ?? [];
    requests.forEach((request, ri) => {
      const subs = request.firstAvailable ?? [];
      let minPerRequest: number;
      if (subs.length > 0 && !input.features.prioritizedList)
        throw new AllocatorError(
          `claim ${claimRef(claim)}, request ${request.name}: has subrequests, but the DRAPrioritizedList feature is disabled`,
        );
      if (!consumable) {
        if (request.exactly?.capacity)
          throw new AllocatorError(
            `claim ${claimRef(claim)}, request ${request.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`,
          );
        // 1.34's allocator named the request for a subrequest's capacity too.
        if (input.features.legacyPools && subs.some((sub) => sub.capacity))
          throw new AllocatorError(
            `claim ${claimRef(claim)}, request ${request.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`,
          );
        for (const sub of subs)
          if (sub.capacity)
            throw new AllocatorError(
              `claim ${claimRef(claim)}, subrequest ${sub.name}: has capacity requests, but the DRAConsumableCapacity feature is disabled`,
            );
      }
      if (subs.length > 0) {
        minPerRequest = Number.MAX_SAFE_INTEGER;
        subs.forEach((sub, si) => {
          const rd = validate(claim, ci, ri, si, sub, request);
          requestData.set(key(ci, ri, si), rd);
          minPerRequest = Math.min(minPerRequest, rd.numDevices);
        });
      } else {
        const rd = validate(claim, ci, ri, 0, { name: request.name, ...(request.exactly ?? {}) });
        requestData.set(key(ci, ri, 0), rd);
        minPerRequest = rd.numDevices;
      }
      if (input.features.claimLimitPerRequest && minPerRequest > ALLOCATION_RESULTS_MAX_SIZE - minPerClaim)
        throw new AllocatorError(
          `claim ${claimRef(claim)}, request ${request.name}: adding ${minPerRequest} devices exceeds the claim limit of ${ALLOCATION_RESULTS_MAX_SIZE}, with ${minPerClaim} already accounted for`,
        );
      minPerClaim += minPerRequest;
    });
    if (!input.features.claimLimitPerRequest && minPerClaim > ALLOCATION_RESULTS_MAX_SIZE)
      throw new AllocatorError(
        `claim ${claimRef(claim)}: number of requested devices ${minPerClaim} exceeds the claim limit of ${ALLOCATION_RESULTS_MAX_SIZE}`,
      );
    constraints.push(
      (claim.spec?.devices?.constraints ?? []).map((c, i) => {
        if (!c.matchAttribute)
          throw new AllocatorError(
            `claim ${claimRef(claim)}, constraint #${i}: empty constraint (unsupported constraint type?)`,
          );
        return new MatchAttribute(new Set(c.requests ?? []), c.matchAttribute);
      }),
    );
  });

  const inUse = (id: string): boolean => input.allocated.has(id) || (allocating.get(id)?.size ?? 0) > 0;
  const allocatingFor = (id: string, ci: number): boolean => allocating.get(id)?.has(ci) ?? false;
  /** A device of the pool counts for counters once allocated, shared or not. */
  const allocatedForCounters = (id: string): boolean =>
    input.allocated.has(id) || !!input.shared?.has(id) || !!input.capacity?.has(id);

  /** The pool's counters left after allocated devices (computed once per cycle). */
  const availableCounters = (pool: Pool): Map<string, Map<string, bigint>> =>
    countersLeft(pool, input.features, allocatedForCounters, (input.availableCounters ??= new Map()));

  const takeCounters = (c: Candidate, sign: 1n | -1n): void => {
    let used = consumedCounters.get(counterKey(c.from));
    if (!used) consumedCounters.set(counterKey(c.from), (used = new Map()));
    for (const [setName, counters] of counterUse(c.device)) {
      let set = used.get(setName);
      if (!set) used.set(setName, (set = new Map()));
      for (const [name, v] of counters) set.set(name, (set.get(name) ?? 0n) + sign * v);
    }
  };

  /** Takes the device's counters, or leaves them and answers false when any counter would run out. */
  const reserveCounters = (c: Candidate): boolean => {
    const available = availableCounters(c.from);
    takeCounters(c, 1n);
    if (countersHold(available, consumedCounters.get(counterKey(c.from))!)) return true;
    takeCounters(c, -1n);
    return false;
  };

  const capacityInUse = (id: string): boolean =>
    !!input.capacity?.has(id) || !!input.shared?.has(id) || allocatingCapacity.has(id);

  /** allocateDevice: availability, counters, taints, constraints, capacity; the rollback or undefined. */
  const allocateDevice = (
    ci: number,
    rd: RequestData,
    c: Candidate,
    must: boolean,
  ): (() => void) | undefined => {
    const claim = claims[ci];
    const multiple = consumable && !!c.device.allowMultipleAllocations;
    if (!multiple && rd.adminAccess && allocatingFor(c.id, ci)) return undefined;
    if (!rd.adminAccess && inUse(c.id)) return undefined;
    const usesCounters = consumesCounters(c.device);
    if (countersRefused(c.device, input.features)) return undefined;
    // A further share of a device already shared does not take its counters again.
    let countersTaken = false;
    if (usesCounters && !(multiple && capacityInUse(c.id))) {
      if (!reserveCounters(c)) return undefined;
      countersTaken = true;
    }
    let added = 0;
    let marked = false;
    let capacityEntryExisted = false;
    let consumed: Map<string, Quantity> | undefined;
    const rollback = (): void => {
      if (consumed) {
        const entry = allocatingCapacity.get(c.id);
        if (entry) {
          addConsumed(entry, consumed, -1n);
          if (isEmptyConsumption(entry)) allocatingCapacity.delete(c.id);
        }
        if (capacityEntryExisted && !allocatingCapacity.has(c.id)) allocatingCapacity.set(c.id, new Map());
      }
      if (marked) allocating.get(c.id)!.delete(ci);
      for (let i = added - 1; i >= 0; i--) constraints[ci][i].remove(rd.baseName, rd.subName);
      if (countersTaken) takeCounters(c, -1n);
    };
    if (input.features.deviceTaints && taintPreventsAllocation(c.device, rd.tolerations)) {
      rollback();
      return undefined;
    }
    for (const con of constraints[ci]) {
      if (!con.add(rd.baseName, rd.subName, c)) {
        rollback();
        if (must)
          throw new AllocatorError(
            `claim ${claimRef(claim)}, request ${rd.subName || rd.baseName}: cannot add device ${c.id} because a claim constraint would not be satisfied`,
          );
        return undefined;
      }
      added++;
    }
    if (!multiple) {
      if (!allocating.has(c.id)) allocating.set(c.id, new Set());
      allocating.get(c.id)!.add(ci);
      marked = true;
    }
    let shareID: string | undefined;
    if (consumable) {
      let fits: boolean;
      try {
        fits = fitsCapacity(claim, rd, c, 'allocate');
      } catch (e) {
        rollback();
        throw e;
      }
      if (!fits) {
        rollback();
        return undefined;
      }
      if (multiple) {
        let taken: Map<string, Quantity>;
        try {
          taken = consumedCapacityOf(rd.capacity, c.device.capacity, fractional);
        } catch (e) {
          rollback();
          if (!(e instanceof CapacityError)) throw e;
          throw new AllocatorError(
            `claim ${claimRef(claim)}, request ${rd.subName || rd.baseName}: computing consumed capacity for device ${c.id}: ${e.message}`,
          );
        }
        shareID = shareIDFor(claimRef(claim), rd.name, c.id);
        capacityEntryExisted = allocatingCapacity.has(c.id);
        let entry = allocatingCapacity.get(c.id);
        if (!entry) allocatingCapacity.set(c.id, (entry = new Map()));
        addConsumed(entry, taken, 1n);
        consumed = taken;
      }
    }
    const before = results[ci].length;
    results[ci].push({
      request: rd.name,
      candidate: c,
      adminAccess: rd.adminAccess ? true : undefined,
      shareID,
      consumedCapacity: consumed && consumed.size > 0 ? consumed : undefined,
    });
    return () => {
      results[ci].length = before;
      rollback();
    };
  };

  /**
   * `start` (pool, slice, device indexes): the next device of the same request is searched after
   * the previous one, as upstream does, so a device allowing multiple allocations is not given
   * twice to one request (for other devices it only skips orders already tried).
   */
  const allocateOne = (
    ci: number,
    ri: number,
    si: number,
    di: number,
    inSub: boolean,
    start: readonly [number, number, number] = [0, 0, 0],
  ): boolean => {
    if (ci >= claims.length) return true;
    const claim = claims[ci];
    const requests = claim.spec?.devices?.requests ?? [];
    if (ri >= requests.length) {
      try {
        return allocateOne(ci + 1, 0, 0, 0, false);
      } catch (e) {
        if (e instanceof MaxSizeExceeded) return false;
        throw e;
      }
    }
    const rd = requestData.get(key(ci, ri, si))!;
    if (!inSub && rd.parent) {
      let allExceeded = true;
      for (let sub = 0; ; sub++) {
        if (!requestData.has(key(ci, ri, sub))) {
          if (allExceeded) throw new MaxSizeExceeded();
          return false;
        }
        let ok: boolean;
        try {
          ok = allocateOne(ci, ri, sub, di, true);
        } catch (e) {
          if (e instanceof MaxSizeExceeded) continue;
          throw e;
        }
        allExceeded = false;
        if (ok) {
          selected.set(`${ci}/${ri}`, sub);
          return true;
        }
      }
    }
    if (rd.all && rd.allDevices.length === 0) return false;
    if (di >= rd.numDevices) return allocateOne(ci, ri + 1, 0, 0, false);
    if (rd.numDevices - di > ALLOCATION_RESULTS_MAX_SIZE - results[ci].length) throw new MaxSizeExceeded();
    if (rd.all) {
      const undo = allocateDevice(ci, rd, rd.allDevices[di], true);
      if (!undo) return false;
      let done = false;
      try {
        done = allocateOne(ci, ri, si, di + 1, inSub);
      } finally {
        if (!done) undo();
      }
      return done;
    }
    for (let pi = start[0]; pi < pools.length; pi++) {
      const pool = pools[pi];
      if (input.features.legacyPools && pool.invalid)
        throw new AllocatorError(`pool ${pool.pool} is invalid: duplicate device name`);
      if (!input.features.legacyPools && (pool.incomplete || pool.invalid)) continue;
      for (let sli = pi === start[0] ? start[1] : 0; sli < pool.slices.length; sli++) {
        const slice = pool.slices[sli];
        const devices = slice.spec.devices ?? [];
        for (let dvi = pi === start[0] && sli === start[1] ? start[2] : 0; dvi < devices.length; dvi++) {
          const device = devices[dvi];
          const c: Candidate = {
            id: deviceKey(pool.driver, pool.pool, device.name),
            driver: pool.driver,
            pool: pool.pool,
            device,
            slice,
            from: pool,
          };
          if (rd.adminAccess ? allocatingFor(c.id, ci) : inUse(c.id)) continue;
          if (!isSelectable(key(ci, ri, si), rd, c, claim)) continue;
          if (consumable && !fitsCapacity(claim, rd, c, 'search')) continue;
          const undo = allocateDevice(ci, rd, c, false);
          if (!undo) continue;
          let done = false;
          try {
            done = allocateOne(ci, ri, si, di + 1, inSub, [pi, sli, dvi + 1]);
          } finally {
            if (!done) undo();
          }
          if (done) return true;
        }
      }
    }
    return false;
  };

  let done: boolean;
  try {
    done = allocateOne(0, 0, 0, 0, false);
  } catch (e) {
    if (e instanceof MaxSizeExceeded) done = false;
    else throw e;
  }
  if (!done) {
    if (pools.some((p) => p.invalid)) throw new FailedOnNode('invalid resource pools were encountered');
    return null;
  }
  return claims.map((_, ci) => {
    const devices = results[ci];
    const out: AllocationResult = {
      devices: {
        results: devices.map((d) => {
          const r: DeviceRequestAllocationResult = {
            request: d.request,
            driver: d.candidate.driver,
            pool: d.candidate.pool,
            device: d.candidate.device.name,
          };
          if (d.adminAccess) r.adminAccess = true;
          if (d.shareID) r.shareID = d.shareID;
          if (d.consumedCapacity)
            r.consumedCapacity = Object.fromEntries(
              [...d.consumedCapacity].map(([k, q]) => [k, q.toString()]),
            );
          if (input.features.deviceBindingConditions) {
            const device = d.candidate.device;
            if (device.bindingConditions?.length) r.bindingConditions = [...device.bindingConditions];
            if (device.bindingFailureConditions?.length)
              r.bindingFailureConditions = [...device.bindingFailureConditions];
          }
          return r;
        }),
      },
    };
    const sel = nodeSelectorFor(devices, node.metadata?.name ?? '');
    if (sel) out.nodeSelector = sel;
    return out;
  });
}

/**
 * Only NoSchedule and NoExecute keep a device out; other effects (None) are informational. A
 * device toleration matches a taint as a pod's toleration does (resourceclaim.ToleratesTaint).
 */
export function taintPreventsAllocation(device: Device, tolerations: readonly DeviceToleration[]): boolean {
  return (device.taints ?? []).some(
    (t) =>
      (t.effect === 'NoSchedule' || t.effect === 'NoExecute') &&
      !tolerations.some((tol) => tolerationToleratesTaint(tol, t)),
  );
}

/**
 * createNodeSelector: where the allocated devices are reachable; absent means everywhere. A device
 * local to one node, or one that binds to the node it is allocated for (`bindsToNode`), pins the
 * allocation to the node allocated for.
 */
function nodeSelectorFor(devices: DeviceResult[], nodeName: string): NodeSelector | undefined {
  const fields: { key: string; operator: string; values?: string[] }[] = [];
  const exprs: { key: string; operator: string; values?: string[] }[] = [];
  const addNew = (from: typeof fields | undefined, to: typeof fields): void => {
    for (const r of from ?? []) if (!to.some((t) => JSON.stringify(t) === JSON.stringify(r))) to.push(r);
  };
  for (const d of devices) {
    const spec = d.candidate.slice.spec;
    const per = !!spec.perDeviceNodeSelection;
    const local = per ? d.candidate.device.nodeName : spec.nodeName;
    const sel = per ? d.candidate.device.nodeSelector : spec.nodeSelector;
    if (local || d.candidate.device.bindsToNode)
      return {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      } as NodeSelector;
    if (sel && sel.nodeSelectorTerms.length === 1) {
      const t = sel.nodeSelectorTerms[0] as { matchFields?: typeof fields; matchExpressions?: typeof fields };
      addNew(t.matchFields, fields);
      addNew(t.matchExpressions, exprs);
    } else if (sel && sel.nodeSelectorTerms.length > 1) {
      throw new AllocatorError(
        `unsupported ResourceSlice.NodeSelector with ${sel.nodeSelectorTerms.length} terms`,
      );
    }
  }
  if (fields.length === 0 && exprs.length === 0) return undefined;
  const term: Record<string, unknown> = {};
  if (fields.length) term.matchFields = fields;
  if (exprs.length) term.matchExpressions = exprs;
  return { nodeSelectorTerms: [term] } as unknown as NodeSelector;
}
