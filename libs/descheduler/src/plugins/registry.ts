/**
 * Every plugin a DeschedulerPolicy may name (upstream's pluginregistry): its extension point,
 * its args schema (validation and upstream's defaults) and how to build it.
 */
import type { z } from 'zod';
import type { BalancePlugin, DeschedulePlugin, Handle } from '../framework/types';
import { DEFAULT_EVICTOR, createDefaultEvictor, defaultEvictorArgsSchema } from './defaultevictor';
import type { EvictorContext, EvictorPlugin } from './defaultevictor';
import { POD_LIFE_TIME, createPodLifeTimePlugin, podLifeTimeArgsSchema } from './podlifetime';
import {
  REMOVE_PODS_HAVING_TOO_MANY_RESTARTS,
  createTooManyRestartsPlugin,
  tooManyRestartsArgsSchema,
} from './removepodshavingtoomanyrestarts';
import {
  REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY,
  createInterPodAntiAffinityPlugin,
  interPodAntiAffinityArgsSchema,
} from './removepodsviolatinginterpodantiaffinity';
import {
  REMOVE_PODS_VIOLATING_NODE_AFFINITY,
  createNodeAffinityPlugin,
  nodeAffinityArgsSchema,
} from './removepodsviolatingnodeaffinity';
import {
  REMOVE_PODS_VIOLATING_NODE_TAINTS,
  createNodeTaintsPlugin,
  nodeTaintsArgsSchema,
} from './removepodsviolatingnodetaints';
import { REMOVE_DUPLICATES, removeDuplicates, removeDuplicatesArgsSchema } from './removeduplicates';
import {
  HIGH_NODE_UTILIZATION,
  LOW_NODE_UTILIZATION,
  highNodeUtilization,
  highNodeUtilizationArgsSchema,
  lowNodeUtilization,
  lowNodeUtilizationArgsSchema,
} from './nodeutilization';
import {
  REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT,
  removePodsViolatingTopologySpreadConstraint,
  removePodsViolatingTopologySpreadConstraintArgsSchema,
} from './removepodsviolatingtopologyspreadconstraint';

export type PluginKind = 'deschedule' | 'balance' | 'evictor';

export interface DeschedulePluginEntry<S extends z.ZodType = z.ZodType> {
  kind: 'deschedule';
  argsSchema: S;
  factory: (args: z.output<S>, handle: Handle) => DeschedulePlugin;
}

export interface BalancePluginEntry<S extends z.ZodType = z.ZodType> {
  kind: 'balance';
  argsSchema: S;
  factory: (args: z.output<S>, handle: Handle) => BalancePlugin;
}

/** A filter/preEvictionFilter plugin (only DefaultEvictor upstream). */
export interface EvictorPluginEntry<S extends z.ZodType = z.ZodType> {
  kind: 'evictor';
  argsSchema: S;
  factory: (args: z.output<S>, context: EvictorContext) => EvictorPlugin;
}

export type RegisteredPlugin = DeschedulePluginEntry | BalancePluginEntry | EvictorPluginEntry;

/** Entries keep each factory typed by its own schema. */
export const descheduleEntry = <S extends z.ZodType>(
  argsSchema: S,
  factory: DeschedulePluginEntry<S>['factory'],
) => ({ kind: 'deschedule', argsSchema, factory }) as DeschedulePluginEntry;
export const balanceEntry = <S extends z.ZodType>(argsSchema: S, factory: BalancePluginEntry<S>['factory']) =>
  ({ kind: 'balance', argsSchema, factory }) as BalancePluginEntry;
export const evictorEntry = <S extends z.ZodType>(argsSchema: S, factory: EvictorPluginEntry<S>['factory']) =>
  ({ kind: 'evictor', argsSchema, factory }) as EvictorPluginEntry;

export const PLUGIN_REGISTRY: Readonly<Record<string, RegisteredPlugin>> = {
  [DEFAULT_EVICTOR]: evictorEntry(defaultEvictorArgsSchema, createDefaultEvictor),
  [REMOVE_PODS_VIOLATING_NODE_AFFINITY]: descheduleEntry(nodeAffinityArgsSchema, createNodeAffinityPlugin),
  [REMOVE_PODS_VIOLATING_NODE_TAINTS]: descheduleEntry(nodeTaintsArgsSchema, createNodeTaintsPlugin),
  [REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY]: descheduleEntry(
    interPodAntiAffinityArgsSchema,
    createInterPodAntiAffinityPlugin,
  ),
  [REMOVE_PODS_HAVING_TOO_MANY_RESTARTS]: descheduleEntry(
    tooManyRestartsArgsSchema,
    createTooManyRestartsPlugin,
  ),
  [POD_LIFE_TIME]: descheduleEntry(podLifeTimeArgsSchema, createPodLifeTimePlugin),
  [REMOVE_DUPLICATES]: balanceEntry(removeDuplicatesArgsSchema, removeDuplicates),
  [LOW_NODE_UTILIZATION]: balanceEntry(lowNodeUtilizationArgsSchema, lowNodeUtilization),
  [HIGH_NODE_UTILIZATION]: balanceEntry(highNodeUtilizationArgsSchema, highNodeUtilization),
  [REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT]: balanceEntry(
    removePodsViolatingTopologySpreadConstraintArgsSchema,
    removePodsViolatingTopologySpreadConstraint,
  ),
};
