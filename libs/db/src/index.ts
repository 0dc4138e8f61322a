export { DbModule } from './db.module';
export { PrismaService, createPrismaClient } from './prisma.service';
export {
  type Db,
  type TenantTx,
  type CreatedAtCursor,
  withTenant,
  inTransaction,
  isUniqueViolation,
} from './database';
export * from './repositories';
export { packSnapshotItems, unpackSnapshotItems, type PackedSnapshot } from './snapshot-content';
export {
  RunStatus,
  PlacementStatus,
  WebhookDeliveryStatus,
  Prisma,
  PrismaClient,
  type Tenant,
  type ApiKey,
  type Snapshot,
  type SchedulerProfile,
  type Scenario,
  type Run,
  type RunResult,
  type Placement,
  type PodExplanation,
  type WebhookEndpoint,
  type WebhookDelivery,
  type WebhookAttempt,
} from './generated/prisma/client';
