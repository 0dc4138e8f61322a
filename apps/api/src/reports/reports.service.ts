import { HttpStatus, Injectable } from '@nestjs/common';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService, RunRepository, RunResultRepository, unpackSnapshotItems } from '@schedlab/db';
import type { KubeObject } from '@schedlab/k8s';
import type { TimelineResult } from '@schedlab/analysis';
import {
  descheduleReportOf,
  renderReportHtml,
  timelineReportOf,
  type StoredDescheduling,
} from '@schedlab/report';
import type { EngineJob } from '@schedlab/runs';
import { ApiError } from '../common/api-error';
import { isUuid } from '../common/id-param.pipe';
import { TenantData } from '../common/tenant-data';
import { ExplanationReplays } from '../runs/explanation-replays';
import { storedDevicesOf } from '../runs/run-devices.model';
import { reportRunOfStored } from './report-source';
import { signReportLink, verifyReportLink } from './report-link';

export interface ReportLinkView {
  url: string;
  expiresAt: Date;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

@Injectable()
export class ReportsService {
  constructor(
    private readonly tenantData: TenantData,
    private readonly prisma: PrismaService,
    private readonly runs: RunRepository,
    private readonly results: RunResultRepository,
    private readonly replays: ExplanationReplays,
    @InjectAppConfig() private readonly config: AppConfig,
  ) {}

  /**
   * The HTML report of one of the tenant's finished simulate runs; with a scenario, the cluster
   * once its last step settled, its volumes per zone, storage timeline and data-loss report. A
   * deschedule run's report shows the cluster before and after and every eviction; a timeline
   * run's, pending pods by queue over time and the waiting-time histogram.
   */
  async html(tenantId: string, runId: string): Promise<string> {
    if (!isUuid(runId)) throw ApiError.notFound('Run', runId);
    const stored = await this.tenantData.run(tenantId, async (tx) => {
      const run = await this.runs.findForReport(tx, tenantId, runId);
      if (!run) throw ApiError.notFound('Run', runId);
      if (run.status !== 'succeeded') {
        throw ApiError.conflict(
          'run_not_finished',
          `Run ${runId} is ${run.status}; its report exists once it has succeeded`,
          { status: run.status },
        );
      }
      if (run.type === 'deschedule') {
        // Drawn from the stored result alone: the figures before and after, the evictions.
        const result = await this.results.findResult(tx, runId);
        return { run, placements: [], explanations: [], descheduling: result?.analysis };
      }
      if (run.type === 'timeline') {
        // The series and histogram are in the stored result.
        const result = await this.results.findResult(tx, runId);
        return { run, placements: [], explanations: [], timeline: result?.analysis };
      }
      if (run.type !== 'simulate') {
        // The report draws one cluster state: capacity/compare/… runs end in several.
        throw ApiError.conflict(
          'report_unavailable',
          `Reports are drawn for simulate, deschedule and timeline runs; run ${runId} is a ${run.type} run`,
          { type: run.type },
        );
      }
      if (run.scenarioId !== null) return { run, placements: [], explanations: [] };
      // The rows of the attempt that finished the run (the run is succeeded here).
      const attempt = run.attempts;
      const placements = await this.results.allPlacements(tx, runId, attempt);
      const explanations = await this.results.allExplanations(tx, runId, attempt);
      const devices = storedDevicesOf((await this.results.findResult(tx, runId))?.summary ?? null);
      return { run, placements, explanations, devices };
    });
    const title = `Schedlab report: ${stored.run.snapshot.name}`;
    if ('timeline' in stored)
      return renderReportHtml(timelineReportOf(stored.timeline as unknown as TimelineResult, title));
    if ('descheduling' in stored) {
      const label = `${stored.run.snapshot.name} (run ${runId})`;
      return renderReportHtml(
        descheduleReportOf(
          stored.descheduling as unknown as StoredDescheduling,
          stored.run.engineVersion ?? '',
          title,
          label,
        ),
      );
    }
    if (stored.run.scenarioId !== null) {
      // The cluster the steps left behind is not stored: the run is recomputed on an engine
      // thread and drawn by the CLI's own code (simulate --report --scenario).
      const label = `${stored.run.snapshot.name} (run ${runId}) after its scenario`;
      const { run, storage } = await this.replays.scenarioReport(runId, label, () =>
        this.scenarioJob(tenantId, runId),
      );
      return renderReportHtml({ title, runs: [run], ...(storage ? { storage } : {}) });
    }
    const report = reportRunOfStored({
      label: `${stored.run.snapshot.name} (run ${runId})`,
      engineVersion: stored.run.engineVersion ?? '',
      items: unpackSnapshotItems(stored.run.snapshot.content) as KubeObject[],
      placements: stored.placements,
      explanations: new Map(
        stored.explanations.map((e) => [
          `${e.namespace}/${e.name}`,
          e.explanation as Record<string, unknown>,
        ]),
      ),
      devices: 'devices' in stored ? stored.devices : null,
    });
    return renderReportHtml({ title, runs: [report] });
  }

  /** What the worker ran for a run with a scenario: snapshot, pinned profile, scenario, options, seed. */
  private async scenarioJob(tenantId: string, runId: string): Promise<EngineJob> {
    const run = await this.tenantData.run(tenantId, (tx) => this.runs.engineInputsOf(tx, tenantId, runId));
    return {
      runId,
      type: 'simulate',
      content: run.snapshot.content,
      schedulerConfiguration: run.profile?.config ?? undefined,
      scenario: run.scenario?.document ?? undefined,
      seed: run.seed,
      options: (run.options ?? {}) as Record<string, unknown>,
    };
  }

  /** A link to the report that works without an API key until it expires. */
  async signedLink(tenantId: string, runId: string): Promise<ReportLinkView> {
    if (!isUuid(runId)) throw ApiError.notFound('Run', runId);
    const exists = await this.tenantData.run(tenantId, (tx) => this.runs.exists(tx, tenantId, runId));
    if (!exists) throw ApiError.notFound('Run', runId);
    const { expires, sig } = signReportLink(this.config.reportLinkSecret, runId.toLowerCase(), nowSeconds());
    const url = `${this.config.publicApiUrl}/v1/reports/${runId.toLowerCase()}?expires=${expires}&sig=${sig}`;
    return { url, expiresAt: new Date(expires * 1000) };
  }

  /** The report behind a signed link; the signature stands in for the API key. */
  async htmlForLink(runId: string, expires: string | undefined, sig: string | undefined): Promise<string> {
    const verdict = isUuid(runId)
      ? verifyReportLink(this.config.reportLinkSecret, runId.toLowerCase(), expires, sig, nowSeconds())
      : 'invalid';
    if (verdict === 'invalid')
      throw new ApiError(
        HttpStatus.FORBIDDEN,
        'invalid_report_link',
        'The report link is not valid; ask the API for a new one (reportUrl)',
      );
    if (verdict === 'expired')
      throw new ApiError(
        HttpStatus.FORBIDDEN,
        'report_link_expired',
        'The report link has expired; ask the API for a new one (reportUrl)',
        { expiredAt: new Date(Number(expires) * 1000).toISOString() },
      );
    // Which tenant owns the run: read as the schema owner (outside row-level security), by id only.
    const owner = await this.runs.tenantOf(this.prisma, runId.toLowerCase());
    if (!owner) throw ApiError.notFound('Run', runId);
    return this.html(owner, runId.toLowerCase());
  }
}
