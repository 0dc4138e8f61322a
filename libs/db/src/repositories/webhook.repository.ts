import { Injectable } from '@nestjs/common';
import type { Db } from '../database';
import type { Prisma, WebhookDeliveryStatus } from '../generated/prisma/client';

const ENDPOINT_COLUMNS = {
  id: true,
  url: true,
  eventTypes: true,
  enabled: true,
  disabledReason: true,
  consecutiveFailures: true,
  createdAt: true,
  updatedAt: true,
} as const;

/**
 * webhook_endpoints, webhook_deliveries (the outbox: one row per event and subscribed endpoint)
 * and webhook_attempts (every HTTP attempt of a delivery).
 */
@Injectable()
export class WebhookRepository {
  // ─── Endpoints ───

  createEndpoint(db: Db, data: { tenantId: string; url: string; eventTypes: string[]; secret: string }) {
    return db.webhookEndpoint.create({ data, select: ENDPOINT_COLUMNS });
  }

  listEndpoints(db: Db, tenantId: string) {
    return db.webhookEndpoint.findMany({
      where: { tenantId },
      select: ENDPOINT_COLUMNS,
      orderBy: { createdAt: 'asc' },
    });
  }

  findEndpoint(db: Db, tenantId: string, id: string) {
    return db.webhookEndpoint.findFirst({ where: { id, tenantId }, select: ENDPOINT_COLUMNS });
  }

  updateEndpoint(
    db: Db,
    id: string,
    data: {
      secret?: string;
      enabled?: boolean;
      disabledReason?: string | null;
      consecutiveFailures?: number;
    },
  ) {
    return db.webhookEndpoint.update({ where: { id }, data, select: ENDPOINT_COLUMNS });
  }

  async deleteEndpoint(db: Db, tenantId: string, id: string): Promise<boolean> {
    const { count } = await db.webhookEndpoint.deleteMany({ where: { id, tenantId } });
    return count > 0;
  }

  /** Enabled endpoints of the tenant subscribed to `eventType`. */
  subscribers(db: Db, tenantId: string, eventType: string) {
    return db.webhookEndpoint.findMany({
      where: { tenantId, enabled: true, eventTypes: { has: eventType } },
      select: { id: true },
    });
  }

  // ─── Deliveries ───

  async createDeliveries(
    db: Db,
    rows: { id: string; endpointId: string; eventType: string; payload: unknown; nextAttemptAt: Date }[],
  ): Promise<void> {
    await db.webhookDelivery.createMany({
      data: rows.map((r) => ({ ...r, payload: r.payload as Prisma.InputJsonValue })),
    });
  }

  /** Newest deliveries of an endpoint first, each with every attempt. */
  listDeliveries(db: Db, endpointId: string, take: number) {
    return db.webhookDelivery.findMany({
      where: { endpointId },
      orderBy: { createdAt: 'desc' },
      take,
      select: {
        id: true,
        eventType: true,
        status: true,
        attemptCount: true,
        nextAttemptAt: true,
        createdAt: true,
        payload: true,
        attempts: {
          orderBy: { createdAt: 'asc' },
          select: {
            id: true,
            statusCode: true,
            latencyMs: true,
            responseSnippet: true,
            error: true,
            createdAt: true,
          },
        },
      },
    });
  }

  /** Back to pending as a fresh series of attempts; false when the tenant has no such delivery. */
  async resetDelivery(db: Db, tenantId: string, id: string, at: Date = new Date()): Promise<boolean> {
    const { count } = await db.webhookDelivery.updateMany({
      where: { id, endpoint: { tenantId } },
      data: { status: 'pending', attemptCount: 0, nextAttemptAt: at },
    });
    return count > 0;
  }

  deliveryState(db: Db, id: string) {
    return db.webhookDelivery.findUniqueOrThrow({
      where: { id },
      select: { id: true, eventType: true, status: true, attemptCount: true, nextAttemptAt: true },
    });
  }

  /**
   * Claims up to `batch` due deliveries of enabled endpoints (SKIP LOCKED: every worker process
   * polls), leasing them for `leaseMs`; returns their ids.
   */
  async claimDue(db: Db, batch: number, leaseMs: number): Promise<string[]> {
    const rows = await db.$queryRaw<{ id: string }[]>`
      UPDATE webhook_deliveries SET status = 'delivering', next_attempt_at = now() + ${leaseMs} * interval '1 millisecond'
      WHERE id IN (
        SELECT d.id FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
        WHERE d.status IN ('pending', 'delivering') AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at
        LIMIT ${batch}
        FOR UPDATE OF d SKIP LOCKED
      )
      RETURNING id`;
    return rows.map((r) => r.id);
  }

  findDeliveryWithEndpoint(db: Db, id: string) {
    return db.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
  }

  // ─── Attempts ───

  async recordAttempt(
    db: Db,
    attempt: {
      deliveryId: string;
      statusCode: number | null;
      latencyMs: number;
      responseSnippet: string | null;
      error: string | null;
    },
    delivery: { status: WebhookDeliveryStatus; attemptCount: number; nextAttemptAt: Date | null },
  ): Promise<void> {
    await db.webhookAttempt.create({ data: attempt });
    await db.webhookDelivery.update({ where: { id: attempt.deliveryId }, data: delivery });
  }

  async resetFailures(db: Db, endpointId: string): Promise<void> {
    await db.webhookEndpoint.update({ where: { id: endpointId }, data: { consecutiveFailures: 0 } });
  }

  /** One more consecutive failure; the endpoint as it is now. */
  countFailure(db: Db, endpointId: string) {
    return db.webhookEndpoint.update({
      where: { id: endpointId },
      data: { consecutiveFailures: { increment: 1 } },
    });
  }

  async disableEndpoint(db: Db, endpointId: string, disabledReason: string): Promise<void> {
    await db.webhookEndpoint.update({ where: { id: endpointId }, data: { enabled: false, disabledReason } });
  }
}
