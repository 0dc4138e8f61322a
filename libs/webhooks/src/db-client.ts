import type { createPrismaClient } from '@schedlab/db';

/** The Prisma client (PrismaService in Nest apps, createPrismaClient in scripts and tests). */
export type DbClient = ReturnType<typeof createPrismaClient>;
