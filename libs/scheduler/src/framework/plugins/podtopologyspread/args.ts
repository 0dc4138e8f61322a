/**
 * PodTopologySpreadArgs (kubescheduler.config.k8s.io/v1): defaulting and validation as upstream
 * SetDefaults_PodTopologySpreadArgs and ValidatePodTopologySpreadArgs do them.
 */
import { LABEL_HOSTNAME, LABEL_TOPOLOGY_ZONE, qualifiedNameErrors } from '@schedlab/k8s';
import type { TopologySpreadConstraint } from '@schedlab/k8s';
import type { FeatureSet } from '../../../features';
import type { ArgsError } from '../../runtime/registry';

export const SYSTEM_DEFAULTING = 'System';
export const LIST_DEFAULTING = 'List';
export type DefaultingType = typeof SYSTEM_DEFAULTING | typeof LIST_DEFAULTING;

export const DO_NOT_SCHEDULE = 'DoNotSchedule';
export const SCHEDULE_ANYWAY = 'ScheduleAnyway';

export interface PodTopologySpreadArgs {
  /** Applied to pods without constraints of their own; each gets a selector deduced per pod. */
  defaultConstraints: TopologySpreadConstraint[];
  /** `System` replaces defaultConstraints with the built-in hostname/zone pair. */
  defaultingType: DefaultingType;
}

/** Upstream systemDefaultConstraints: soft spreading over hosts (skew 3) and zones (skew 5). */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = Object.freeze([
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: SCHEDULE_ANYWAY, maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: SCHEDULE_ANYWAY, maxSkew: 5 },
]);

interface RawArgs {
  defaultConstraints?: TopologySpreadConstraint[] | null;
  defaultingType?: string | null;
}

/** v1 defaulting: only an empty defaultingType becomes `System`; constraints are kept as given. */
export function defaultArgs(raw: unknown, _features?: FeatureSet): PodTopologySpreadArgs {
  const r = (raw ?? {}) as RawArgs;
  return {
    defaultConstraints: r.defaultConstraints ?? [],
    defaultingType: (r.defaultingType ? r.defaultingType : SYSTEM_DEFAULTING) as DefaultingType,
  };
}

/** Go's %q / %#v rendering of a string bad value in field errors. */
function quoted(v: unknown): string {
  return JSON.stringify(v ?? '');
}

export function validateArgs(args: PodTopologySpreadArgs, _features?: FeatureSet): ArgsError[] {
  const errs: ArgsError[] = [];
  const t = args.defaultingType as string;
  if (t !== SYSTEM_DEFAULTING && t !== LIST_DEFAULTING) {
    errs.push({
      field: 'defaultingType',
      message: `Unsupported value: ${quoted(t)}: supported values: "${SYSTEM_DEFAULTING}", "${LIST_DEFAULTING}"`,
    });
  } else if (t === SYSTEM_DEFAULTING && args.defaultConstraints.length > 0) {
    errs.push({
      field: 'defaultingType',
      message: `Invalid value: ${quoted(t)}: when .defaultConstraints are not empty`,
    });
  }

  args.defaultConstraints.forEach((c, i) => {
    const p = `defaultConstraints[${i}]`;
    const maxSkew = c.maxSkew ?? 0;
    if (maxSkew <= 0) {
      errs.push({ field: `${p}.maxSkew`, message: `Invalid value: ${maxSkew}: not in valid range (0, inf)` });
    }
    const key = c.topologyKey ?? '';
    if (key.length === 0) {
      errs.push({ field: `${p}.topologyKey`, message: 'Required value: can not be empty' });
    } else {
      for (const e of qualifiedNameErrors(key)) {
        errs.push({ field: `${p}.topologyKey`, message: `Invalid value: ${quoted(key)}: ${e}` });
      }
    }
    const action = c.whenUnsatisfiable ?? '';
    if (action.length === 0) {
      errs.push({ field: `${p}.whenUnsatisfiable`, message: 'Required value: can not be empty' });
    } else if (action !== DO_NOT_SCHEDULE && action !== SCHEDULE_ANYWAY) {
      errs.push({
        field: `${p}.whenUnsatisfiable`,
        message: `Unsupported value: ${quoted(action)}: supported values: "${DO_NOT_SCHEDULE}", "${SCHEDULE_ANYWAY}"`,
      });
    }
    if (c.labelSelector != null) {
      errs.push({
        field: `${p}.labelSelector`,
        message: 'Forbidden: constraint must not define a selector, as they deduced for each pod',
      });
    }
    for (let j = 0; j < i; j++) {
      const other = args.defaultConstraints[j];
      if (other.topologyKey === c.topologyKey && other.whenUnsatisfiable === c.whenUnsatisfiable) {
        errs.push({
          field: `defaultConstraints[${i}]`,
          message: `Duplicate value: ${quoted(`{${c.topologyKey}, ${c.whenUnsatisfiable}}`)}`,
        });
        break;
      }
    }
  });
  return errs;
}
