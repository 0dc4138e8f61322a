/**
 * Records a sweep: the parent run and one child per (profile, seed), in one transaction, all
 * `queued`. The caller enqueues the flow afterwards (enqueueSweep); if that fails the reconciler
 * still finds the rows.
 */
import type { Prisma } from '@schedlab/db';
import { z } from 'zod';

export const sweepRequestSchema = z
  .object({
    snapshotId: z.string().uuid(),
    scenarioId: z.string().uuid().optional(),
    /** Profiles as "name" (latest) or "name@version"; default the built-in default profile. */
    profiles: z
      .array(z.string().regex(/^[A-Za-z0-9._-]+(@[1-9][0-9]*)?$/, 'must be "name" or "name@version"'))
      .min(1)
      .max(20)
      .default(['default']),
    seeds: z.array(z.number().int().min(0).max(2 ** 31 - 1)).min(1).max(20).default([0]),
    options: z
      .object({
        explain: z.enum(['full', 'summary']).optional(),
        tieBreak: z.enum(['random', 'lowest-node-name']).optional(),
        preemption: z.boolean().optional(),
        compatibilityVersion: z.string().optional(),
      })
      .strict()
      .default({}),
  })
  .strict()
  .refine((r) => r.profiles.length * r.seeds.length <= 50, { message: 'at most 50 child runs (profiles × seeds)', path: ['seeds'] })
  .refine((r) => r.profiles.length * r.seeds.length >= 2, { message: 'a sweep needs at least two runs (profiles × seeds)', path: ['profiles'] });
export type SweepRequest = z.infer<typeof sweepRequestSchema>;

/** A reference the tenant cannot see or that does not exist; the field names which one. */
export class SweepReferenceError extends Error {
  constructor(
    readonly field: string,
    readonly value: string,
  ) {
    super(`${field}: ${value} not found`);
    this.name = 'SweepReferenceError';
  }
}

async function resolveProfile(tx: Prisma.TransactionClient, tenantId: string, ref: string, field: string) {
  const [name, version] = ref.split('@') as [string, string | undefined];
  const profile = await tx.schedulerProfile.findFirst({
    where: {
      name,
      ...(version ? { version: Number(version) } : {}),
      OR: [{ tenantId }, { tenantId: null }, { shared: true }],
    },
    // The tenant's own profile wins over a built-in or shared one of the same name.
    orderBy: [{ tenantId: { sort: 'asc', nulls: 'last' } }, { version: 'desc' }],
    select: { id: true, name: true, version: true },
  });
  if (!profile) throw new SweepReferenceError(field, ref);
  return profile;
}

export async function createSweepRuns(tx: Prisma.TransactionClient, tenantId: string, request: SweepRequest) {
  const snapshot = await tx.snapshot.findFirst({ where: { id: request.snapshotId, tenantId, deletedAt: null }, select: { id: true } });
  if (!snapshot) throw new SweepReferenceError('snapshotId', request.snapshotId);
  if (request.scenarioId) {
    const scenario = await tx.scenario.findFirst({ where: { id: request.scenarioId, tenantId }, select: { id: true } });
    if (!scenario) throw new SweepReferenceError('scenarioId', request.scenarioId);
  }
  const profiles = [];
  for (const [i, ref] of request.profiles.entries()) profiles.push(await resolveProfile(tx, tenantId, ref, `profiles[${i}]`));
  const base = { tenantId, snapshotId: snapshot.id, scenarioId: request.scenarioId ?? null };
  const parent = await tx.simulationRun.create({
    data: {
      ...base,
      type: 'compare',
      profileId: profiles[0]!.id,
      profileName: profiles[0]!.name,
      profileVersion: profiles[0]!.version,
      options: { sweep: { profiles: request.profiles, seeds: request.seeds }, ...request.options },
      phase: 'waiting for children',
    },
    select: { id: true },
  });
  const children = [];
  for (const profile of profiles) {
    for (const seed of request.seeds) {
      children.push(
        await tx.simulationRun.create({
          data: {
            ...base,
            type: 'simulate',
            parentId: parent.id,
            profileId: profile.id,
            profileName: profile.name,
            profileVersion: profile.version,
            seed,
            options: request.options,
          },
          select: { id: true, profileName: true, profileVersion: true, seed: true },
        }),
      );
    }
  }
  return { parentId: parent.id, children };
}
