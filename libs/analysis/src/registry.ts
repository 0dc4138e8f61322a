/**
 * Every analysis, keyed by the run type that asks for it. The service's run types (RUN_TYPES
 * below) and the CLI's commands both resolve here.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import {
  capacity,
  compare,
  deschedule,
  nodesNeeded,
  outcomeOf,
  resilience,
  runDescheduler,
  runScenario,
  type CapacityResult,
  type CompareRequest,
  type CompareResult,
  type DescheduleRequest,
  type DeschedulingReport,
  type NodeTemplate,
  type NodesNeededResult,
  type ResilienceResult,
  type ScenarioOutcome,
} from '@schedlab/scenarios';
import type { ClusterState } from '@schedlab/scheduler';
import type { Analysis } from './analysis';
import { scheduleCluster, type ScheduledCluster } from './schedule';
import { runTimeline } from './timeline/driver';
import { parseTimeline } from './timeline/input';
import type { TimelineResult } from './timeline/result';

export interface SimulateRequest {
  /**
   * A cluster state the caller has already built (the CLI, from loading the dump), used when the
   * prepared items are exactly `known.items` (the PV controller changed nothing).
   */
  known?: { items: readonly KubeObject[]; state: ClusterState };
}

export interface ScenarioRequest {
  /** A scenario document (validated by @schedlab/scenarios). */
  scenario: unknown;
}

export interface CapacityAnalysisRequest {
  podTemplate: Pod;
  maxReplicas: number;
}

export interface NodesNeededRequest {
  templates: readonly NodeTemplate[];
  maxNodes?: number;
}

export interface TimelineRequest {
  /** A timeline document (docs/timeline.md), validated when the run starts. */
  timeline: unknown;
}

export interface ResilienceRequest {
  by: 'node' | 'zone';
}

export interface ResilienceAnalysis {
  result: ResilienceResult;
  /**
   * The cluster the domains were lost from: the prepared one once the scheduler placed what it
   * could of its pending pods (otherwise every domain would be charged with their preemptions).
   */
  before: KubeObject[];
}

/** The analyses and the request and result of each. */
export interface Analyses {
  simulate: Analysis<SimulateRequest, ScheduledCluster>;
  scenario: Analysis<ScenarioRequest, ScenarioOutcome>;
  capacity: Analysis<CapacityAnalysisRequest, CapacityResult>;
  'nodes-needed': Analysis<NodesNeededRequest, NodesNeededResult>;
  resilience: Analysis<ResilienceRequest, ResilienceAnalysis>;
  compare: Analysis<CompareRequest, CompareResult>;
  deschedule: Analysis<DescheduleRequest, DeschedulingReport>;
  timeline: Analysis<TimelineRequest, TimelineResult>;
}

export type AnalysisType = keyof Analyses;
export type RequestOf<T extends AnalysisType> = Parameters<Analyses[T]['run']>[1];
export type ResultOf<T extends AnalysisType> = ReturnType<Analyses[T]['run']>;

export const ANALYSES: Analyses = {
  simulate: {
    start: 'settled',
    run: ({ items, engine, report, state }, request) =>
      scheduleCluster(
        items,
        engine,
        report,
        state ?? (request.known?.items === items ? request.known.state : undefined),
      ),
  },
  scenario: {
    start: 'running',
    run: ({ items, engine, report, initial, pvController }, request) => {
      // Scenario steps have no per-pod progress hook; the phase still tells where the run is.
      report({ phase: 'scenario', podsProcessed: 0, podsTotal: 0 });
      const run = runScenario(items, request.scenario, engine, { started: initial, pvController });
      return { run, ...outcomeOf(run.world) };
    },
  },
  capacity: {
    start: 'running',
    run: ({ items, engine }, request) => capacity(items, request, engine),
  },
  'nodes-needed': {
    start: 'running',
    run: ({ items, engine }, request) =>
      nodesNeeded(items, request.templates, engine, { maxNodes: request.maxNodes }),
  },
  resilience: {
    start: 'running',
    run: ({ items, engine }, request) => {
      const before = runScenario(items, { steps: [] }, engine).world.items;
      return { result: resilience(before, request.by, engine), before };
    },
  },
  compare: {
    start: 'running',
    run: ({ items, engine }, request) => compare(items, request, engine),
  },
  deschedule: {
    start: 'running',
    run: ({ items, engine, setup, report }, request) => {
      report({ phase: 'deschedule', podsProcessed: 0, podsTotal: 0 });
      // The descheduler finds the cluster once the scheduler placed what it could of its pending
      // pods (as resilience does); those that fit nowhere stay pending and are retried later.
      const running = runScenario(items, { steps: [] }, engine).world.items;
      return deschedule(running, request, engine, setup, runDescheduler);
    },
  },
  timeline: {
    // The dump's pending pods arrive at the start and go through the queue like the others.
    start: 'settled',
    run: ({ items, engine, setup, report }, request) => {
      report({ phase: 'timeline', podsProcessed: 0, podsTotal: 0 });
      const timeline = parseTimeline(request.timeline, engine.seed ?? 0);
      return runTimeline(items, timeline, {
        engine,
        setup,
        // Progress in simulated seconds, through the counters the service's progress already has.
        onProgress: (done, total) =>
          report({ phase: 'timeline', podsProcessed: Math.floor(done), podsTotal: Math.floor(total) }),
      });
    },
  },
};

export const ANALYSIS_TYPES = Object.keys(ANALYSES) as AnalysisType[];

/**
 * What a stored run names in `type`: every analysis but `scenario`, which a simulate run selects
 * by carrying a scenario. The API's enums (REST and GraphQL) are built from this list.
 */
export type RunType = Exclude<AnalysisType, 'scenario'>;
export const RUN_TYPES = ANALYSIS_TYPES.filter((type): type is RunType => type !== 'scenario') as [
  RunType,
  ...RunType[],
];
