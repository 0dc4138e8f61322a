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
import { isUniqueViolation, SnapshotRepository, type TenantTx, packSnapshotItems } from '@schedlab/db';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { ApiError } from '../common/api-error';
import { inputLimitApiError, malformedTextApiError } from '../common/body-parsing';
import { createdAtCursorOf, decodeCreatedAtCursor, type Page, pageOf } from '../common/pagination';
import { TenantData } from '../common/tenant-data';
import { type SnapshotView, toSnapshotView } from './snapshot.model';

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
    private readonly snapshots: SnapshotRepository,
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
        const row = await this.snapshots.create(tx, {
          tenantId,
          name: input.name,
          labels: input.labels,
          contentHash: packed.contentHash,
          counts,
          warnings,
          sizeBytes: packed.sizeBytes,
          content: packed.content,
        });
        return { snapshot: toSnapshotView(row), duplicate: false };
      });
    } catch (error) {
      // The same content imported concurrently: the other request stored it first.
      if (isUniqueViolation(error)) {
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
    const row = await this.snapshots.findByHash(tx, tenantId, contentHash);
    if (!row) return null;
    if (row.deletedAt) await this.snapshots.restore(tx, row.id);
    return toSnapshotView(row);
  }

  async list(tenantId: string, limit: number, cursor?: string): Promise<Page<SnapshotView>> {
    const after = decodeCreatedAtCursor(cursor);
    const rows = await this.data.run(tenantId, (tx) => this.snapshots.list(tx, tenantId, limit + 1, after));
    return pageOf(rows, limit, toSnapshotView, createdAtCursorOf);
  }

  async get(tenantId: string, id: string): Promise<SnapshotView> {
    return toSnapshotView(await this.data.run(tenantId, (tx) => this.require(tx, tenantId, id)));
  }

  async getMany(tenantId: string, ids: readonly string[]): Promise<SnapshotView[]> {
    const rows = await this.data.run(tenantId, (tx) => this.snapshots.findMany(tx, tenantId, ids));
    return rows.map(toSnapshotView);
  }

  /** Soft delete hides the snapshot; hard delete removes it, refused while runs or scenarios use it. */
  async delete(tenantId: string, id: string, hard: boolean): Promise<void> {
    await this.data.run(tenantId, async (tx) => {
      await this.require(tx, tenantId, id, { includeDeleted: hard });
      if (!hard) {
        await this.snapshots.softDelete(tx, id);
        return;
      }
      const { runs, scenarios } = await this.snapshots.uses(tx, id);
      if (runs + scenarios > 0) {
        throw ApiError.conflict(
          'snapshot_in_use',
          `Snapshot ${id} is used by ${runs} run(s) and ${scenarios} scenario(s); delete those first or soft-delete the snapshot`,
          { runs, scenarios },
        );
      }
      await this.snapshots.delete(tx, id);
    });
  }

  /**
   * The tenant's live snapshot or 404 (also for another tenant's id and for soft-deleted ones),
   * inside the caller's tenant transaction (runs and scenarios check theirs this way).
   */
  async require(tx: TenantTx, tenantId: string, id: string, options: { includeDeleted?: boolean } = {}) {
    const row = await this.snapshots.find(tx, tenantId, id, options);
    if (!row) throw ApiError.notFound('Snapshot', id);
    return row;
  }
}
