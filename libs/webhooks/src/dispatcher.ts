/**
 * Delivers due WebhookDelivery rows. Any number of worker processes may run a dispatcher: rows are
 * claimed with FOR UPDATE SKIP LOCKED and leased (status `delivering`, next_attempt_at = lease end),
 * so a dispatcher that dies mid-attempt leaves a row that another picks up once the lease ends.
 */
import { inTransaction, WebhookRepository } from '@schedlab/db';
import type { DbClient } from './db-client';
import { type AttemptOutcome, postWebhook } from './http-attempt';
import { type AttemptVerdict, judgeAttempt, retryDelayMs } from './retry-policy';
import { signWebhook } from './signing';
import {
  type AddressPolicy,
  type Resolver,
  resolveWebhookTarget,
  systemResolver,
  UnsafeWebhookUrlError,
} from './ssrf-guard';

export interface DispatcherSettings extends AddressPolicy {
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  disableAfterFailures: number;
  pollIntervalMs: number;
}

export interface DispatcherLogger {
  log(message: object): void;
  warn(message: object): void;
}

/** Claims at most this many rows per poll, so one process does not hoard a backlog. */
const CLAIM_BATCH = 20;

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;
  private readonly webhooks = new WebhookRepository();

  constructor(
    private readonly prisma: DbClient,
    private readonly settings: DispatcherSettings,
    private readonly logger: DispatcherLogger,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      this.polling = this.deliverDue()
        .then(() => undefined)
        .catch((error: Error) => this.logger.warn({ msg: 'webhook poll failed', error: error.message }))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.settings.pollIntervalMs);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
  }

  /** Claims and attempts every due delivery (one batch); returns how many were attempted. */
  async deliverDue(): Promise<number> {
    const leaseMs = this.settings.timeoutMs + 30_000;
    const claimed = await this.webhooks.claimDue(this.prisma, CLAIM_BATCH, leaseMs);
    await Promise.all(claimed.map((id) => this.attempt(id)));
    return claimed.length;
  }

  private async attempt(deliveryId: string): Promise<void> {
    const delivery = await this.webhooks.findDeliveryWithEndpoint(this.prisma, deliveryId);
    if (!delivery) return;
    const body = JSON.stringify(delivery.payload);
    let outcome: AttemptOutcome;
    let verdict: AttemptVerdict;
    try {
      // Checked again at every attempt: the name may resolve elsewhere than at registration.
      const { url, target } = await resolveWebhookTarget(delivery.endpoint.url, this.settings, this.resolver);
      outcome = await postWebhook({
        url,
        target,
        headers: { ...signWebhook(delivery.endpoint.secret, delivery.id, body) },
        body,
        timeoutMs: this.settings.timeoutMs,
      });
      verdict = judgeAttempt(outcome);
    } catch (error) {
      if (!(error instanceof UnsafeWebhookUrlError)) throw error;
      outcome = { latencyMs: 0, error: error.message };
      verdict = { kind: 'rejected', reason: error.message };
    }
    await this.record(delivery, outcome, verdict);
  }

  private async record(
    delivery: { id: string; endpointId: string; attemptCount: number; endpoint: { url: string } },
    outcome: AttemptOutcome,
    verdict: AttemptVerdict,
  ): Promise<void> {
    const attemptCount = delivery.attemptCount + 1;
    const exhausted = verdict.kind === 'retry' && attemptCount >= this.settings.maxAttempts;
    const status =
      verdict.kind === 'delivered'
        ? 'succeeded'
        : verdict.kind === 'retry'
          ? exhausted
            ? 'abandoned'
            : 'pending'
          : 'failed';
    const nextAttemptAt =
      status === 'pending'
        ? new Date(
            Date.now() +
              retryDelayMs(
                attemptCount,
                this.settings.retryBaseMs,
                verdict.kind === 'retry' ? verdict.retryAfterMs : undefined,
              ),
          )
        : null;
    await inTransaction(this.prisma, async (tx) => {
      await this.webhooks.recordAttempt(
        tx,
        {
          deliveryId: delivery.id,
          statusCode: outcome.statusCode ?? null,
          latencyMs: outcome.latencyMs,
          responseSnippet: outcome.responseSnippet ?? null,
          error: outcome.error ?? (verdict.kind === 'delivered' ? null : verdict.reason),
        },
        { status, attemptCount, nextAttemptAt },
      );
      if (verdict.kind === 'delivered') {
        await this.webhooks.resetFailures(tx, delivery.endpointId);
        return;
      }
      const endpoint = await this.webhooks.countFailure(tx, delivery.endpointId);
      const disabledReason =
        verdict.kind === 'gone'
          ? `receiver answered 410 Gone to delivery ${delivery.id}`
          : endpoint.consecutiveFailures >= this.settings.disableAfterFailures
            ? `${endpoint.consecutiveFailures} consecutive failed attempts (last: ${verdict.reason})`
            : undefined;
      if (disabledReason && endpoint.enabled) {
        await this.webhooks.disableEndpoint(tx, endpoint.id, disabledReason);
        this.logger.warn({
          msg: 'webhook endpoint disabled',
          endpointId: endpoint.id,
          reason: disabledReason,
        });
      }
    });
    this.logger.log({
      msg: 'webhook attempt',
      deliveryId: delivery.id,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      verdict: verdict.kind,
      status,
    });
  }
}
