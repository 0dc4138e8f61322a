import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { FlowProducer } from 'bullmq';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { RunRepository } from '@schedlab/db';
import { enqueueSweep, ignoreErrorsAfterClose, redisOptionsFromUrl } from '@schedlab/queues';
import { ApiError } from '../common/api-error';
import { TenantData } from '../common/tenant-data';
import { ProfilesService } from '../profiles/profiles.service';
import { toRunView } from '../runs/run.model';
import { ScenariosService } from '../scenarios/scenarios.service';
import { SnapshotsService } from '../snapshots/snapshots.service';
import type { SubmitSweepInput, SweepView } from './sweep.model';

/**
 * Sweeps: the parent run (type `compare`, options.sweep) and one `simulate` child per profile ×
 * seed are written in one transaction, then enqueued as one BullMQ flow (children on the
 * simulations queue, the parent's aggregation on the sweeps queue). If Redis is unavailable the
 * rows stay queued and the worker's reconciler enqueues them.
 */
@Injectable()
export class SweepsService implements OnApplicationShutdown {
  private readonly logger = new Logger(SweepsService.name);
  private readonly flows: FlowProducer;

  constructor(
    private readonly data: TenantData,
    private readonly runs: RunRepository,
    private readonly snapshots: SnapshotsService,
    private readonly scenarios: ScenariosService,
    private readonly profiles: ProfilesService,
    @InjectAppConfig() config: AppConfig,
  ) {
    this.flows = new FlowProducer({
      connection: { ...redisOptionsFromUrl(config.redisUrl), maxRetriesPerRequest: 2 },
      prefix: config.queuePrefix,
    });
    this.flows.on('error', (error) => this.logger.warn(`sweep flows: ${error.message}`));
    ignoreErrorsAfterClose(this.flows);
  }

  async submit(tenantId: string, input: SubmitSweepInput): Promise<SweepView> {
    const { parentId, childIds } = await this.data.run(tenantId, async (tx) => {
      const snapshot = await this.snapshots.require(tx, tenantId, input.snapshotId);
      if (input.scenarioId) await this.scenarios.require(tx, tenantId, input.scenarioId);
      const profiles = [];
      for (const ref of input.profiles) profiles.push(await this.profiles.resolve(tx, tenantId, ref));
      const base = { tenantId, snapshotId: snapshot.id, scenarioId: input.scenarioId ?? null };
      const options = input.options;
      const parent = await this.runs.create(tx, {
        ...base,
        type: 'compare',
        profileId: profiles[0]!.id,
        profileName: profiles[0]!.name,
        profileVersion: profiles[0]!.version,
        options: {
          sweep: { profiles: profiles.map((p) => `${p.name}@${p.version}`), seeds: input.seeds },
          ...input.options,
        },
        phase: 'waiting for runs',
      });
      const childIds: string[] = [];
      for (const profile of profiles) {
        for (const seed of input.seeds) {
          const child = await this.runs.create(tx, {
            ...base,
            type: 'simulate',
            parentId: parent.id,
            profileId: profile.id,
            profileName: profile.name,
            profileVersion: profile.version,
            seed,
            options,
          });
          childIds.push(child.id);
        }
      }
      return { parentId: parent.id, childIds };
    });
    try {
      await enqueueSweep(this.flows, parentId, childIds);
    } catch (error) {
      // The rows are the source of truth: the reconciler enqueues them once Redis is back.
      this.logger.warn({
        msg: 'sweep not enqueued; the reconciler will pick it up',
        sweepId: parentId,
        error: (error as Error).message,
      });
    }
    return this.get(tenantId, parentId);
  }

  async get(tenantId: string, id: string): Promise<SweepView> {
    return this.data.run(tenantId, async (tx) => {
      const parent = await this.runs.findSweep(tx, tenantId, id);
      if (!parent) throw ApiError.notFound('Sweep', id);
      const children = await this.runs.listChildren(tx, tenantId, id);
      return {
        id,
        parent: toRunView(parent),
        runs: children.map(toRunView),
        comparison: parent.result
          ? {
              summary: parent.result.summary,
              runs: (parent.result.analysis as { runs?: unknown } | null)?.runs ?? [],
            }
          : null,
      };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.flows.close();
  }
}
