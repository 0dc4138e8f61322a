import { Injectable } from '@nestjs/common';
import type { TenantTx } from '@schedlab/data';
import type { Prisma } from '@schedlab/db';
import { parseScenario, ScenarioError } from '@schedlab/scenarios';
import { ApiError } from '../common/api-error';
import {
  afterCreatedAtCursor,
  createdAtCursorOf,
  NEWEST_FIRST,
  type Page,
  pageOf,
} from '../common/pagination';
import { TenantData } from '../common/tenant-data';
import { requireSnapshot } from '../snapshots/snapshots.service';
import { type CreateScenarioInput, type ScenarioView, toScenarioView } from './scenario.model';

/** The engine's scenario validation; its field path prefixed with "document.". */
export function validateScenarioDocument(document: unknown): void {
  try {
    parseScenario(document);
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
}

export async function requireScenario(tx: TenantTx, tenantId: string, id: string) {
  const row = await tx.scenario.findFirst({ where: { id, tenantId } });
  if (!row) throw ApiError.notFound('Scenario', id);
  return row;
}

@Injectable()
export class ScenariosService {
  constructor(private readonly data: TenantData) {}

  async create(tenantId: string, input: CreateScenarioInput): Promise<ScenarioView> {
    validateScenarioDocument(input.document);
    return this.data.run(tenantId, async (tx) => {
      if (input.snapshotId) await requireSnapshot(tx, tenantId, input.snapshotId);
      const row = await tx.scenario.create({
        data: {
          tenantId,
          name: input.name,
          snapshotId: input.snapshotId ?? null,
          document: input.document as Prisma.InputJsonValue,
        },
      });
      return toScenarioView(row);
    });
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<Page<ScenarioView>> {
    const rows = await this.data.run(tenantId, (tx) =>
      tx.scenario.findMany({
        where: {
          tenantId,
          ...afterCreatedAtCursor(cursor),
        },
        orderBy: NEWEST_FIRST,
        take: limit + 1,
      }),
    );
    return pageOf(rows, limit, toScenarioView, createdAtCursorOf);
  }

  async get(tenantId: string, id: string): Promise<ScenarioView> {
    return toScenarioView(await this.data.run(tenantId, (tx) => requireScenario(tx, tenantId, id)));
  }

  async getMany(tenantId: string, ids: readonly string[]): Promise<ScenarioView[]> {
    const rows = await this.data.run(tenantId, (tx) =>
      tx.scenario.findMany({ where: { tenantId, id: { in: [...ids] } } }),
    );
    return rows.map(toScenarioView);
  }

  /** Scenarios are replaced by new ones; deleting is refused while runs refer to it. */
  async delete(tenantId: string, id: string): Promise<void> {
    await this.data.run(tenantId, async (tx) => {
      await requireScenario(tx, tenantId, id);
      const runs = await tx.simulationRun.count({ where: { scenarioId: id } });
      if (runs > 0)
        throw ApiError.conflict('scenario_in_use', `Scenario ${id} is used by ${runs} run(s)`, { runs });
      await tx.scenario.delete({ where: { id } });
    });
  }
}
