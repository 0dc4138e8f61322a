/** NodeResourcesFitArgs / NodeResourcesBalancedAllocationArgs: v1 defaulting and validation. */
import { qualifiedNameErrors } from '@schedlab/k8s';
import type { ArgsError } from '../../runtime/registry';
import type { ResourceSpec } from './resource-allocation';
import { MAX_CUSTOM_PRIORITY_SCORE, type FunctionShapePoint } from './strategies';

export const LEAST_ALLOCATED = 'LeastAllocated';
export const MOST_ALLOCATED = 'MostAllocated';
export const REQUESTED_TO_CAPACITY_RATIO = 'RequestedToCapacityRatio';
export const SUPPORTED_SCORING_STRATEGY_TYPES = [
  LEAST_ALLOCATED,
  MOST_ALLOCATED,
  REQUESTED_TO_CAPACITY_RATIO,
];

export interface ScoringStrategy {
  type: string;
  resources: ResourceSpec[];
  requestedToCapacityRatio?: { shape: FunctionShapePoint[] };
}

export interface NodeResourcesFitArgs {
  ignoredResources: string[];
  ignoredResourceGroups: string[];
  scoringStrategy: ScoringStrategy;
}

export interface NodeResourcesBalancedAllocationArgs {
  resources: ResourceSpec[];
}

function defaultResourceSpec(): ResourceSpec[] {
  return [
    { name: 'cpu', weight: 1 },
    { name: 'memory', weight: 1 },
  ];
}

type Raw = Record<string, unknown> | undefined | null;

function rawResources(list: unknown): ResourceSpec[] {
  if (!Array.isArray(list)) return [];
  // An unset or explicit 0 weight means the default weight 1.
  return list.map((r: { name?: string; weight?: number }) => ({
    name: r?.name ?? '',
    weight: r?.weight ? r.weight : 1,
  }));
}

export function defaultFitArgs(raw: unknown): NodeResourcesFitArgs {
  const r = (raw ?? {}) as Raw & Record<string, unknown>;
  const rawStrategy = r.scoringStrategy as Raw;
  let scoringStrategy: ScoringStrategy;
  if (rawStrategy == null) {
    scoringStrategy = { type: LEAST_ALLOCATED, resources: defaultResourceSpec() };
  } else {
    // A given strategy keeps its type as written (an empty type fails validation, as upstream).
    const resources = rawResources(rawStrategy.resources);
    scoringStrategy = {
      type: (rawStrategy.type as string) ?? '',
      resources: resources.length ? resources : defaultResourceSpec(),
    };
    const r2c = rawStrategy.requestedToCapacityRatio as { shape?: FunctionShapePoint[] } | undefined;
    if (r2c) {
      scoringStrategy.requestedToCapacityRatio = {
        shape: (r2c.shape ?? []).map((p) => ({ utilization: p?.utilization ?? 0, score: p?.score ?? 0 })),
      };
    }
  }
  return {
    ignoredResources: [...((r.ignoredResources as string[]) ?? [])],
    ignoredResourceGroups: [...((r.ignoredResourceGroups as string[]) ?? [])],
    scoringStrategy,
  };
}

export function defaultBalancedAllocationArgs(raw: unknown): NodeResourcesBalancedAllocationArgs {
  const resources = rawResources((raw as Raw)?.resources);
  return { resources: resources.length ? resources : defaultResourceSpec() };
}

function validateShape(shape: readonly FunctionShapePoint[] | undefined, path: string): ArgsError[] {
  if (!shape || shape.length === 0) return [{ field: path, message: 'at least one point must be specified' }];
  const errs: ArgsError[] = [];
  for (let i = 1; i < shape.length; i++) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.push({
        field: `${path}[${i}].utilization`,
        message: 'utilization values must be sorted in increasing order',
      });
      break;
    }
  }
  shape.forEach((p, i) => {
    if (p.utilization < 0 || p.utilization > 100) {
      errs.push({ field: `${path}[${i}].utilization`, message: 'not in valid range [0, 100]' });
    }
    if (p.score < 0 || p.score > MAX_CUSTOM_PRIORITY_SCORE) {
      errs.push({
        field: `${path}[${i}].score`,
        message: `not in valid range [0, ${MAX_CUSTOM_PRIORITY_SCORE}]`,
      });
    }
  });
  return errs;
}

export function validateFitArgs(args: NodeResourcesFitArgs): ArgsError[] {
  const errs: ArgsError[] = [];
  args.ignoredResources.forEach((res, i) => {
    for (const m of qualifiedNameErrors(res)) errs.push({ field: `ignoredResources[${i}]`, message: m });
  });
  args.ignoredResourceGroups.forEach((group, i) => {
    const field = `ignoredResourceGroups[${i}]`;
    if (group.includes('/')) errs.push({ field, message: "resource group name can't contain '/'" });
    for (const m of qualifiedNameErrors(group)) errs.push({ field, message: m });
  });
  const s = args.scoringStrategy;
  if (!SUPPORTED_SCORING_STRATEGY_TYPES.includes(s.type)) {
    errs.push({
      field: 'scoringStrategy.type',
      message: `Unsupported value: "${s.type}": supported values: ${SUPPORTED_SCORING_STRATEGY_TYPES.map((t) => `"${t}"`).join(', ')}`,
    });
  }
  s.resources.forEach((r, i) => {
    if (r.weight <= 0 || r.weight > 100) {
      errs.push({
        field: `scoringStrategy.resources[${i}].weight`,
        message: `resource weight of ${r.name} not in valid range (0, 100]`,
      });
    }
  });
  if (s.requestedToCapacityRatio) {
    errs.push(...validateShape(s.requestedToCapacityRatio.shape, 'scoringStrategy.shape'));
  } else if (s.type === REQUESTED_TO_CAPACITY_RATIO) {
    // Upstream would dereference a missing shape when building the plugin; reject it here instead.
    errs.push({ field: 'scoringStrategy.shape', message: 'at least one point must be specified' });
  }
  return errs;
}

export function validateBalancedAllocationArgs(args: NodeResourcesBalancedAllocationArgs): ArgsError[] {
  const errs: ArgsError[] = [];
  const seen = new Set<string>();
  args.resources.forEach((r, i) => {
    if (seen.has(r.name))
      errs.push({ field: `resources[${i}].name`, message: `Duplicate value: "${r.name}"` });
    else seen.add(r.name);
    if (r.weight !== 1) errs.push({ field: `resources[${i}].weight`, message: 'must be 1' });
  });
  return errs;
}
