export { DbModule } from './db.module';
export { PrismaService, createPrismaClient } from './prisma.service';
export { JobStatus, Prisma, type PingJob, type Tenant } from './generated/prisma/client';
