import { Injectable } from '@nestjs/common';
import { RunRepository, ScenarioRepository, type TenantTx } from '@schedlab/db';
import { parseScenario, ScenarioError, type Scenario } from '@schedlab/scenarios';
import { ApiError } from '../common/api-error';
import { createdAtCursorOf, decodeCreatedAtCursor, type Page, pageOf } from '../common/pagination';
import { TenantData } from '../common/tenant-data';
import { SnapshotsService } from '../snapshots/snapshots.service';
import { type CreateScenarioInput, type ScenarioView, toScenarioView } from './scenario.model';

/** The engine's scenario validation; its field path prefixed with "document.". */
export function validateScenarioDocument(document: unknown): void {
  let scenario: Scenario;
  try {
    scenario = parseScenario(document);
  } catch (error) {
    if (error instanceof ScenarioError) {
      const field = error.field ? `document.${error.field}` : 'document';
      throw ApiError.badRequest('invalid_scenario', `${field}: ${error.detail}`, {
        field,
        problem: error.detail,
        stepIndex: error.stepIndex,
      });
    }
    throw error;
  }
  // The service reads no files: a deschedule step carries its policy inline.
  scenario.steps.forEach((step, i) => {
    if ('deschedule' in step && step.deschedule.policy === undefined) {
      const field = `document.steps[${i}].deschedule.policy`;
      const problem = 'Required: the DeschedulerPolicy inline (policyFile is read by the CLI only)';
      throw ApiError.badRequest('invalid_scenario', `${field}: ${problem}`, { field, problem, stepIndex: i });
    }
  });
}

@Injectable()
export class ScenariosService {
  constructor(
    private readonly data: TenantData,
    private readonly scenarios: ScenarioRepository,
    private readonly runs: RunRepository,
    private readonly snapshots: SnapshotsService,
  ) {}

  /** The tenant's scenario or 404, inside the caller's tenant transaction. */
  async require(tx: TenantTx, tenantId: string, id: string) {
    const row = await this.scenarios.find(tx, tenantId, id);
    if (!row) throw ApiError.notFound('Scenario', id);
    return row;
  }

  async create(tenantId: string, input: CreateScenarioInput): Promise<ScenarioView> {
    validateScenarioDocument(input.document);
    return this.data.run(tenantId, async (tx) => {
      if (input.snapshotId) await this.snapshots.require(tx, tenantId, input.snapshotId);
      const row = await this.scenarios.create(tx, {
        tenantId,
        name: input.name,
        snapshotId: input.snapshotId ?? null,
        document: input.document,
      });
      return toScenarioView(row);
    });
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<Page<ScenarioView>> {
    const after = decodeCreatedAtCursor(cursor);
    const rows = await this.data.run(tenantId, (tx) => this.scenarios.list(tx, tenantId, limit + 1, after));
    return pageOf(rows, limit, toScenarioView, createdAtCursorOf);
  }

  async get(tenantId: string, id: string): Promise<ScenarioView> {
    return toScenarioView(await this.data.run(tenantId, (tx) => this.require(tx, tenantId, id)));
  }

  async getMany(tenantId: string, ids: readonly string[]): Promise<ScenarioView[]> {
    const rows = await this.data.run(tenantId, (tx) => this.scenarios.findMany(tx, tenantId, ids));
    return rows.map(toScenarioView);
  }

  /** Scenarios are replaced by new ones; deleting is refused while runs refer to it. */
  async delete(tenantId: string, id: string): Promise<void> {
    await this.data.run(tenantId, async (tx) => {
      await this.require(tx, tenantId, id);
      const runs = await this.runs.countUsingScenario(tx, id);
      if (runs > 0)
        throw ApiError.conflict('scenario_in_use', `Scenario ${id} is used by ${runs} run(s)`, { runs });
      await this.scenarios.delete(tx, id);
    });
  }
}
