import { Injectable } from '@nestjs/common';
import { countBy } from './snapshot-counts';
import {
  InputLimitError,
  type InputLimits,
  type KubeObject,
  MalformedTextError,
  ObjectValidationError,
  ParseError,
  parseKubernetesObjects,
  type SkippedObject,
} from '@schedlab/k8s';
import { packSnapshotItems, type TenantTx } from '@schedlab/data';
import { Prisma } from '@schedlab/db';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { ApiError } from '../common/api-error';
import { inputLimitApiError, malformedTextApiError } from '../common/body-parsing';
import {
  afterCreatedAtCursor,
  createdAtCursorOf,
  NEWEST_FIRST,
  type Page,
  pageOf,
} from '../common/pagination';
import { TenantData } from '../common/tenant-data';
import { type SnapshotView, toSnapshotView } from './snapshot.model';

/** Every column but the content: listings and lookups never load the (large) dump. */
export const SNAPSHOT_SUMMARY = {
  id: true,
  tenantId: true,
  name: true,
  labels: true,
  contentHash: true,
  counts: true,
  warnings: true,
  sizeBytes: true,
  deletedAt: true,
  createdAt: true,
} as const;

export interface ImportInput {
  name: string;
  labels: Record<string, string>;
}

function warningsFor(skipped: readonly SkippedObject[]) {
  return Object.entries(countBy(skipped, (s) => s.kind)).map(([kind, count]) => ({
    kind,
    count,
    message: `${count} ${kind} object(s) skipped: not a kind the scheduler reads`,
  }));
}

/** Parses a dump once; syntax and validation errors become 400s naming line/column or object/field. */
export function parseDump(
  text: string,
  limits?: InputLimits,
): { objects: KubeObject[]; skipped: SkippedObject[] } {
  try {
    return parseKubernetesObjects(text, { limits });
  } catch (error) {
    if (error instanceof InputLimitError) throw inputLimitApiError(error);
    if (error instanceof MalformedTextError) throw malformedTextApiError(error);
    if (error instanceof ParseError) {
      throw ApiError.badRequest('malformed_body', error.message, { line: error.line, column: error.column });
    }
    if (error instanceof ObjectValidationError) {
      throw ApiError.badRequest('invalid_object', error.message, {
        kind: error.kind,
        namespace: error.namespace,
        name: error.name || undefined,
        field: error.field,
        problem: error.detail,
      });
    }
    throw error;
  }
}

@Injectable()
export class SnapshotsService {
  constructor(
    private readonly data: TenantData,
    @InjectAppConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Stores a dump, or finds identical content already stored (answered as a duplicate, and
   * restored if it had been soft-deleted). Nothing is written when the dump is invalid.
   */
  async import(
    tenantId: string,
    input: ImportInput,
    text: string,
  ): Promise<{ snapshot: SnapshotView; duplicate: boolean }> {
    const { objects, skipped } = parseDump(text, this.config.inputLimits);
    text = ''; // memory bound: the dump's text is garbage once parsed
    if (objects.length === 0) {
      throw ApiError.badRequest(
        'empty_snapshot',
        'The dump contains no object of a kind the scheduler reads',
        {
          skipped: skipped.length,
        },
      );
    }
    const packed = packSnapshotItems(objects);
    const counts = countBy(objects, (o) => o.kind);
    const warnings = warningsFor(skipped);
    try {
      return await this.data.run(tenantId, async (tx) => {
        const existing = await this.findByHash(tx, tenantId, packed.contentHash);
        if (existing) return { snapshot: existing, duplicate: true };
        const row = await tx.snapshot.create({
          data: {
            tenantId,
            name: input.name,
            labels: input.labels,
            contentHash: packed.contentHash,
            counts,
            warnings,
            sizeBytes: packed.sizeBytes,
            content: packed.content,
          },
          select: SNAPSHOT_SUMMARY,
        });
        return { snapshot: toSnapshotView(row), duplicate: false };
      });
    } catch (error) {
      // The same content imported concurrently: the other request stored it first.
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        const existing = await this.data.run(tenantId, (tx) =>
          this.findByHash(tx, tenantId, packed.contentHash),
        );
        if (existing) return { snapshot: existing, duplicate: true };
      }
      throw error;
    }
  }

  private async findByHash(
    tx: TenantTx,
    tenantId: string,
    contentHash: string,
  ): Promise<SnapshotView | null> {
    const row = await tx.snapshot.findUnique({
      where: { tenantId_contentHash: { tenantId, contentHash } },
      select: SNAPSHOT_SUMMARY,
    });
    if (!row) return null;
    if (row.deletedAt) {
      await tx.snapshot.update({ where: { id: row.id }, data: { deletedAt: null } });
    }
    return toSnapshotView(row);
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<Page<SnapshotView>> {
    const rows = await this.data.run(tenantId, (tx) =>
      tx.snapshot.findMany({
        where: {
          tenantId,
          deletedAt: null,
          ...afterCreatedAtCursor(cursor),
        },
        orderBy: NEWEST_FIRST,
        take: limit + 1,
        select: SNAPSHOT_SUMMARY,
      }),
    );
    return pageOf(rows, limit, toSnapshotView, createdAtCursorOf);
  }

  async get(tenantId: string, id: string): Promise<SnapshotView> {
    return toSnapshotView(await this.data.run(tenantId, (tx) => requireSnapshot(tx, tenantId, id)));
  }

  async getMany(tenantId: string, ids: readonly string[]): Promise<SnapshotView[]> {
    const rows = await this.data.run(tenantId, (tx) =>
      tx.snapshot.findMany({ where: { tenantId, id: { in: [...ids] } }, select: SNAPSHOT_SUMMARY }),
    );
    return rows.map(toSnapshotView);
  }

  /** Soft delete hides the snapshot; hard delete removes it, refused while runs or scenarios use it. */
  async delete(tenantId: string, id: string, hard: boolean): Promise<void> {
    await this.data.run(tenantId, async (tx) => {
      await requireSnapshot(tx, tenantId, id, { includeDeleted: hard });
      if (!hard) {
        await tx.snapshot.update({ where: { id }, data: { deletedAt: new Date() } });
        return;
      }
      const [runs, scenarios] = await Promise.all([
        tx.simulationRun.count({ where: { snapshotId: id } }),
        tx.scenario.count({ where: { snapshotId: id } }),
      ]);
      if (runs + scenarios > 0) {
        throw ApiError.conflict(
          'snapshot_in_use',
          `Snapshot ${id} is used by ${runs} run(s) and ${scenarios} scenario(s); delete those first or soft-delete the snapshot`,
          { runs, scenarios },
        );
      }
      await tx.snapshot.delete({ where: { id } });
    });
  }
}

/** The tenant's live snapshot or 404 (also for another tenant's id and for soft-deleted ones). */
export async function requireSnapshot(
  tx: TenantTx,
  tenantId: string,
  id: string,
  options: { includeDeleted?: boolean } = {},
) {
  const row = await tx.snapshot.findFirst({
    where: { id, tenantId, ...(options.includeDeleted ? {} : { deletedAt: null }) },
    select: SNAPSHOT_SUMMARY,
  });
  if (!row) throw ApiError.notFound('Snapshot', id);
  return row;
}
