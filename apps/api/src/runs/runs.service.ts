import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { RunRepository, RunResultRepository, RunStatus, type TenantTx } from '@schedlab/db';
import { enqueueRun, QueueName } from '@schedlab/queues';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { type EngineJob, runEventData } from '@schedlab/runs';
import { recordWebhookEvent } from '@schedlab/webhooks';
import { ApiError } from '../common/api-error';
import {
  createdAtCursorOf,
  decodeCreatedAtCursor,
  decodeCursor,
  type Page,
  pageOf,
} from '../common/pagination';
import { TenantData } from '../common/tenant-data';
import { ProfilesService } from '../profiles/profiles.service';
import { ScenariosService } from '../scenarios/scenarios.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import { ExplanationReplays } from './explanation-replays';
import { nodeExplanation } from './explanation-view';
import { replayRecords, servedExplanation } from './replay-records';
import type { ExplanationQuery, PlacementQuery, SubmitRunInput } from './run-input';
import {
  FINAL_RUN_STATUSES,
  type PlacementView,
  type RunResultView,
  type RunView,
  toPlacementView,
  toRunView,
  type UnschedulableGroup,
} from './run.model';
import { filterRunStorage, runStorageOf, type RunStorageView, type StorageQuery } from './run-storage.model';
import { claimDevicesView, runDevicesOf } from './run-devices.model';

const DEFAULT_PROFILE = 'default';
const REASON_SAMPLE = 20;

/**
 * The attempt whose placement and explanation rows are the run's result: the one that finished
 * it (a succeeded run's `attempts` never changes again). Rows of other attempts, or of a run
 * still being written, are never read (docs/worker.md, "Finish, once"); -1 matches no row.
 */
export function resultAttemptOf(run: { status: string; attempts: number }): number {
  return run.status === RunStatus.succeeded ? run.attempts : -1;
}

@Injectable()
export class RunsService implements OnModuleInit {
  private readonly logger = new Logger(RunsService.name);

  constructor(
    private readonly data: TenantData,
    @InjectQueue(QueueName.Runs) private readonly queue: Queue,
    @InjectAppConfig() private readonly config: AppConfig,
    private readonly replays: ExplanationReplays,
    private readonly runs: RunRepository,
    private readonly results: RunResultRepository,
    private readonly snapshots: SnapshotsService,
    private readonly scenarios: ScenariosService,
    private readonly profiles: ProfilesService,
  ) {}

  /** The tenant's run or 404, inside the caller's tenant transaction. */
  async require(tx: TenantTx, tenantId: string, id: string) {
    const row = await this.runs.find(tx, tenantId, id);
    if (!row) throw ApiError.notFound('Run', id);
    return row;
  }

  onModuleInit(): void {
    this.queue.on('error', (error) => this.logger.warn(`Simulations queue: ${error.message}`));
  }

  /**
   * Writes the run row (snapshot, scenario and profile resolved and checked in the same
   * transaction), then enqueues it. If Redis refuses, the row is marked failed and 503 answered.
   */
  async submit(tenantId: string, input: SubmitRunInput): Promise<RunView> {
    const row = await this.data.run(tenantId, async (tx) => {
      await this.snapshots.require(tx, tenantId, input.snapshotId);
      if (input.scenarioId) await this.scenarios.require(tx, tenantId, input.scenarioId);
      const profile = await this.profiles.resolve(tx, tenantId, input.profile ?? DEFAULT_PROFILE);
      const options = await this.resolveOptionProfiles(tx, tenantId, input.options);
      return this.runs.create(tx, {
        tenantId,
        type: input.type,
        snapshotId: input.snapshotId,
        scenarioId: input.scenarioId ?? null,
        profileId: profile.id,
        profileName: profile.name,
        profileVersion: profile.version,
        seed: input.seed ?? 0,
        options,
      });
    });
    try {
      await enqueueRun(this.queue, row.id);
    } catch (error) {
      const reason = `Could not enqueue: ${(error as Error).message}`;
      await this.data.run(tenantId, (tx) => this.runs.failUnqueued(tx, row.id, reason));
      throw new ApiError(503, 'queue_unavailable', reason);
    }
    return toRunView(row);
  }

  /** compare's "after" profile is pinned to a version and its configuration now, like the main one. */
  private async resolveOptionProfiles(tx: TenantTx, tenantId: string, options: Record<string, unknown>) {
    if (typeof options.afterProfile !== 'string') return options;
    const after = await this.profiles.resolve(tx, tenantId, options.afterProfile);
    return {
      ...options,
      afterProfile: `${after.name}@${after.version}`,
      after: { ...((options.after as object | undefined) ?? {}), schedulerConfiguration: after.config },
    };
  }

  async get(tenantId: string, id: string): Promise<RunView> {
    return toRunView(await this.data.run(tenantId, (tx) => this.require(tx, tenantId, id)));
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<Page<RunView>> {
    const after = decodeCreatedAtCursor(cursor);
    const rows = await this.data.run(tenantId, (tx) => this.runs.list(tx, tenantId, limit + 1, after));
    return pageOf(rows, limit, toRunView, createdAtCursorOf);
  }

  /** A queued run is cancelled at once; a running one is asked to stop (the worker checks). */
  async cancel(tenantId: string, id: string): Promise<RunView> {
    const row = await this.data.run(tenantId, async (tx) => {
      const run = await this.require(tx, tenantId, id);
      if (FINAL_RUN_STATUSES.has(run.status)) {
        throw ApiError.conflict('run_finished', `Run ${id} already ${run.status}`, { status: run.status });
      }
      const now = new Date();
      // Guarded on status so a worker that just started the run is not overwritten.
      if (!(await this.runs.cancelIfQueued(tx, id, now))) {
        await this.runs.requestCancel(tx, id, now);
      } else {
        // No worker will ever see this run, so the cancellation is announced here, in the same
        // transaction (a running run's cancellation is announced by the worker that stops it).
        await recordWebhookEvent(
          tx,
          {
            tenantId,
            type: 'simulation.cancelled',
            data: runEventData(
              {
                id,
                type: run.type,
                parentId: run.parentId,
                createdAt: run.createdAt,
                startedAt: null,
                finishedAt: now,
              },
              { status: RunStatus.cancelled },
              this.config.publicApiUrl,
            ),
          },
          now,
        );
      }
      return this.require(tx, tenantId, id);
    });
    if (row.status === RunStatus.cancelled) {
      await this.queue.remove(id).catch(() => undefined); // the worker also skips cancelled rows
    }
    return toRunView(row);
  }

  /** The storage of a finished scenario run as typed fields, narrowed by `query`. */
  async storage(tenantId: string, id: string, query: StorageQuery): Promise<RunStorageView> {
    const storage = runStorageOf((await this.result(tenantId, id)).analysis);
    if (!storage) {
      throw ApiError.conflict(
        'storage_unavailable',
        `Run ${id} has no storage report: it is recorded for simulate runs with a scenario on a cluster with claims or volumes`,
      );
    }
    return filterRunStorage(storage, query);
  }

  async result(tenantId: string, id: string): Promise<RunResultView> {
    return this.data.run(tenantId, async (tx) => {
      const run = await this.require(tx, tenantId, id);
      const result = await this.results.findResult(tx, id);
      if (!result) {
        throw ApiError.conflict('result_not_ready', `Run ${id} has no result (status ${run.status})`, {
          status: run.status,
        });
      }
      return {
        summary: result.summary,
        storageSummary: result.storageSummary,
        devices: runDevicesOf(result.summary),
        analysis: result.analysis,
      };
    });
  }

  async placements(tenantId: string, id: string, query: PlacementQuery): Promise<Page<PlacementView>> {
    const afterOrdinal = query.cursor ? decodeCursor<number>(query.cursor, 'number') : undefined;
    const { rows, claims } = await this.data.run(tenantId, async (tx) => {
      const run = await this.require(tx, tenantId, id);
      const attempt = resultAttemptOf(run);
      const page = await this.results.placements(tx, id, attempt, query, query.limit + 1, afterOrdinal);
      // Only a placed pod holds devices; its claims are in its stored explanation.
      const placed = page.filter((r) => r.status === 'scheduled');
      return { rows: page, claims: await this.results.claimsOfPods(tx, id, attempt, placed) };
    });
    const view = (row: (typeof rows)[number]) =>
      toPlacementView(row, claimDevicesView(claims.get(`${row.namespace}/${row.name}`)));
    return pageOf(rows, query.limit, view, (r) => r.ordinal);
  }

  /** Pods that did not schedule, grouped by the scheduler's message, largest group first. */
  async unschedulable(tenantId: string, id: string): Promise<UnschedulableGroup[]> {
    const rows = await this.data.run(tenantId, async (tx) => {
      const run = await this.require(tx, tenantId, id);
      return this.results.notScheduled(tx, id, resultAttemptOf(run));
    });
    const groups = new Map<string, string[]>();
    for (const row of rows) {
      const reason = row.message ?? row.status;
      const pods = groups.get(reason) ?? [];
      pods.push(row.podKey);
      groups.set(reason, pods);
    }
    return [...groups]
      .map(([reason, pods]) => ({ reason, count: pods.length, pods: pods.slice(0, REASON_SAMPLE) }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }

  /**
   * A pod's explanation: the stored compact record, or (`detail: full`, or one `node`) the full
   * record recomputed by replaying the run up to the pod (ExplanationReplays), exactly the record
   * the engine gives at explain level `full`.
   */
  async explanation(
    tenantId: string,
    id: string,
    namespace: string,
    name: string,
    query: ExplanationQuery = { detail: 'compact' },
  ): Promise<unknown> {
    const pod = `${namespace}/${name}`;
    let resultAttempt = 0;
    const stored = await this.data.run(tenantId, async (tx) => {
      const run = await this.require(tx, tenantId, id);
      if (run.status !== RunStatus.succeeded) {
        throw ApiError.conflict('result_not_ready', `Run ${id} has no result (status ${run.status})`, {
          status: run.status,
        });
      }
      const attempt = resultAttemptOf(run);
      resultAttempt = attempt;
      if (query.detail === 'compact' && query.node === undefined) {
        const row = await this.results.findExplanation(tx, id, attempt, namespace, name);
        if (!row) throw ApiError.notFound('Pod explanation', pod);
        return { explanation: servedExplanation(row.explanation) };
      }
      // Only pods the run placed are replayed: an unknown name costs no replay.
      if (!(await this.results.hasPlacement(tx, id, attempt, namespace, name))) {
        throw ApiError.notFound('Pod explanation', pod);
      }
      if (run.type !== 'simulate' || run.scenarioId !== null) {
        throw ApiError.conflict(
          'replay_unavailable',
          `Full explanations are replayed for simulate runs without a scenario; run ${id} is a ${run.type} run${run.scenarioId ? ' with a scenario' : ''}`,
          { type: run.type },
        );
      }
      return null;
    });
    if (stored) return stored.explanation;
    const replay = await this.replays.replay(`${id}/${pod}`, pod, () =>
      this.replayJob(tenantId, id, { attempt: resultAttempt, namespace, name }),
    );
    if (query.node === undefined) return replay.result;
    if (!replay.nodes.includes(query.node)) {
      throw new ApiError(404, 'not_found', `Node ${query.node} is not in run ${id}'s snapshot`, {
        field: 'node',
        node: query.node,
      });
    }
    return nodeExplanation(replay.result, query.node);
  }

  /**
   * What the worker ran: the snapshot, the profile version pinned at submit, options and seed; and
   * what the run recorded up to the pod, so the replay fast-forwards instead of scheduling every
   * pod before it again (replay-records.ts).
   */
  private async replayJob(
    tenantId: string,
    id: string,
    target: { attempt: number; namespace: string; name: string },
  ): Promise<EngineJob> {
    const fastForward = await this.data.run(tenantId, (tx) =>
      replayRecords(tx, id, target.attempt, target.namespace, target.name),
    );
    const run = await this.data.run(tenantId, (tx) => this.runs.engineInputsOf(tx, tenantId, id));
    return {
      runId: id,
      type: run.type as EngineJob['type'],
      content: run.snapshot.content,
      schedulerConfiguration: run.profile?.config ?? undefined,
      seed: run.seed,
      options: (run.options ?? {}) as Record<string, unknown>,
      ...(fastForward ? { fastForward } : {}),
    };
  }
}
