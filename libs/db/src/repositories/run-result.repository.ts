import { Injectable } from '@nestjs/common';
import type { Db } from '../database';
import type { PlacementStatus, Prisma } from '../generated/prisma/client';

/** Rows per INSERT when a result still carries its rows (no engine thread wrote them). */
const INSERT_CHUNK = 2000;

export interface PlacementFilter {
  status?: PlacementStatus;
  node?: string;
  namespace?: string;
  ownerKind?: string;
  ownerName?: string;
}

export interface NewPlacement {
  ordinal: number;
  podKey: string;
  namespace: string;
  name: string;
  ownerKind: string | null;
  ownerName: string | null;
  node: string | null;
  zone: string | null;
  status: PlacementStatus;
  priority: number;
  message: string | null;
  nominatedNode: string | null;
  victims: string[] | null;
}

export interface NewRunResult {
  summary: unknown;
  analysis?: unknown;
  storageSummary?: unknown;
  placements: readonly NewPlacement[];
  explanations: readonly { namespace: string; name: string; explanation: unknown }[];
}

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) out.push(rows.slice(i, i + INSERT_CHUNK));
  return out;
}

/**
 * A run's outcome: run_results (one row), placements and pod_explanations (one row per pod,
 * tagged with the attempt that wrote them; readers pass the attempt that finished the run).
 */
@Injectable()
export class RunResultRepository {
  findResult(db: Db, runId: string) {
    return db.runResult.findUnique({ where: { runId } });
  }

  /** One page of placements in engine order, `take` rows after `afterOrdinal`. */
  placements(
    db: Db,
    runId: string,
    attempt: number,
    filter: PlacementFilter,
    take: number,
    afterOrdinal?: number,
  ) {
    return db.placement.findMany({
      where: {
        runId,
        attempt,
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.node ? { node: filter.node } : {}),
        ...(filter.namespace ? { namespace: filter.namespace } : {}),
        ...(filter.ownerKind ? { ownerKind: filter.ownerKind } : {}),
        ...(filter.ownerName ? { ownerName: filter.ownerName } : {}),
        ...(afterOrdinal !== undefined ? { ordinal: { gt: afterOrdinal } } : {}),
      },
      orderBy: { ordinal: 'asc' },
      take,
    });
  }

  allPlacements(db: Db, runId: string, attempt: number) {
    return db.placement.findMany({ where: { runId, attempt }, orderBy: { ordinal: 'asc' } });
  }

  /** Pods that did not schedule, in engine order. */
  notScheduled(db: Db, runId: string, attempt: number) {
    return db.placement.findMany({
      where: { runId, attempt, status: { not: 'scheduled' } },
      select: { podKey: true, message: true, status: true },
      orderBy: { ordinal: 'asc' },
    });
  }

  /** Pod key → node (null when not placed), for comparing runs. */
  async nodesByPod(db: Db, runId: string, attempt: number): Promise<Map<string, string | null>> {
    const rows = await db.placement.findMany({
      where: { runId, attempt },
      select: { podKey: true, node: true },
    });
    return new Map(rows.map((p) => [p.podKey, p.node]));
  }

  async hasPlacement(
    db: Db,
    runId: string,
    attempt: number,
    namespace: string,
    name: string,
  ): Promise<boolean> {
    const row = await db.placement.findFirst({
      where: { runId, attempt, namespace, name },
      select: { ordinal: true },
    });
    return row !== null;
  }

  /** The pod's position in the run (its ordinal), or null when the run did not place it. */
  async placementOrdinal(
    db: Db,
    runId: string,
    attempt: number,
    namespace: string,
    name: string,
  ): Promise<number | null> {
    const row = await db.placement.findFirst({
      where: { runId, attempt, namespace, name },
      select: { ordinal: true },
    });
    return row?.ordinal ?? null;
  }

  /** The effects of every scheduling cycle up to `ordinal`, in order (a replay fast-forwards with them). */
  placementsUpTo(db: Db, runId: string, attempt: number, ordinal: number) {
    return db.placement.findMany({
      where: { runId, attempt, ordinal: { lte: ordinal } },
      select: { podKey: true, node: true, nominatedNode: true, victims: true, status: true },
      orderBy: { ordinal: 'asc' },
    });
  }

  /**
   * The DRA claims (claim → "request driver/pool/device" lines) of the given pods, read from
   * their stored explanations; pods whose explanation has none are left out. Only a snapshot with
   * DRA objects (by its kind counts) can give a pod claims: any other run answers after that
   * check alone (0.6 ms, where sending a 1,000-row page's keys took 5 ms), and a DRA run's page
   * takes one more statement, by primary key.
   */
  async claimsOfPods(
    db: Db,
    runId: string,
    attempt: number,
    pods: readonly { namespace: string; name: string }[],
  ): Promise<Map<string, Record<string, string[]>>> {
    if (pods.length === 0) return new Map();
    const [dra] = await db.$queryRaw<{ found: boolean }[]>`
      SELECT s.counts ?| array['DeviceClass', 'ResourceClaim', 'ResourceClaimTemplate'] AS found
      FROM simulation_runs r JOIN snapshots s ON s.id = r.snapshot_id WHERE r.id = ${runId}::uuid`;
    if (!dra?.found) return new Map();
    const rows = await db.$queryRaw<{ namespace: string; name: string; claims: Record<string, string[]> }[]>`
      SELECT e.namespace, e.name, e.explanation->'claims' AS claims
      FROM pod_explanations e
      JOIN unnest(${pods.map((p) => p.namespace)}::text[], ${pods.map((p) => p.name)}::text[]) AS k(namespace, name)
        ON e.namespace = k.namespace AND e.name = k.name
      WHERE e.run_id = ${runId}::uuid AND e.attempt = ${attempt} AND e.explanation->'claims' IS NOT NULL`;
    return new Map(rows.map((r) => [`${r.namespace}/${r.name}`, r.claims]));
  }

  findExplanation(db: Db, runId: string, attempt: number, namespace: string, name: string) {
    return db.podExplanation.findFirst({ where: { runId, attempt, namespace, name } });
  }

  allExplanations(db: Db, runId: string, attempt: number) {
    return db.podExplanation.findMany({ where: { runId, attempt } });
  }

  /** Deletes the run's placement and explanation rows, except those of `keepAttempt` if given. */
  async deleteRows(db: Db, runId: string, keepAttempt: number | null): Promise<void> {
    const kept = keepAttempt === null ? {} : { attempt: { not: keepAttempt } };
    await db.placement.deleteMany({ where: { runId, ...kept } });
    await db.podExplanation.deleteMany({ where: { runId, ...kept } });
  }

  /** The result row, and the placement and explanation rows when the result still carries them. */
  async insert(db: Db, runId: string, attempt: number, result: NewRunResult): Promise<void> {
    // Raw SQL with the JSON already serialised: a summary carries per-node utilization (~1 MB at
    // 5,000 nodes), and Prisma's own JSON handling of it held the event loop for hundreds of ms.
    const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
    await db.$executeRaw`INSERT INTO run_results (run_id, summary, analysis, storage_summary)
      VALUES (${runId}::uuid, ${json(result.summary)}::jsonb, ${json(result.analysis)}::jsonb, ${json(result.storageSummary)}::jsonb)`;
    for (const rows of chunks(result.placements)) {
      await db.placement.createMany({
        data: rows.map((p) => ({ ...p, runId, attempt, victims: p.victims ?? undefined })),
      });
    }
    for (const rows of chunks(result.explanations)) {
      await db.podExplanation.createMany({
        data: rows.map((e) => ({
          runId,
          attempt,
          namespace: e.namespace,
          name: e.name,
          explanation: e.explanation as Prisma.InputJsonValue,
        })),
      });
    }
  }
}
