import { Inject, Injectable, Logger } from '@nestjs/common';
import { RedisService } from '@sluice/nest-kit';
import {
  bookSendSlot,
  decryptSecret,
  deliveryJobSchema,
  DestinationError,
  readEndpointRuntime,
  readWebhookEndpoint,
  recordOutcome,
  releaseInFlightLease,
  resolveDestination,
  signedHeaders,
  takeInFlightLease,
  type AttemptOutcome,
  type DeliveryJob,
  type PublishedEndpoint,
} from '@sluice/webhooks';
import { DelayedError, type Job, UnrecoverableError } from 'bullmq';
import { ENV, type Env } from '../env';
import { retryDelayMs } from './backoff';
import { WebhookDeliveryRecorder } from './webhook-delivery.recorder';
import { WebhookMetrics } from './webhook.metrics';
import { WebhookSender, type SendResult } from './webhook-sender';

/** What an attempt came to: a result to record, or a wait for the send slot. */
type Step = { result: SendResult; dead: boolean } | { data: DeliveryJob; waitUntil: number };

/** A disabled endpoint's events wait; they look again this often. */
const DISABLED_RECHECK_MS = 30_000;
/** An in-flight lease outlives the attempt's timeout by this, then frees itself (a dead worker). */
const LEASE_MARGIN_MS = 5_000;
/** Sends may come this much before their slot on the dispatch schedule (timer jitter). */
const MAX_EARLY_MS = 250;
/** The worker stopped this often while the event was being sent: it goes to the dead letters. */
export const MAX_STALLS = 5;

/**
 * Delivers one event (a `deliver` job), at most once per run of the steps below; every "later"
 * moves the job back to BullMQ's delayed set and frees the worker slot at once, so nothing that
 * waits — a pause, a slow endpoint's schedule, a retry — ever holds a slot another endpoint
 * could use:
 *
 * 1. the endpoint is read from Redis (gone: the event is dropped; disabled: later);
 * 2. a pause (the receiver's Retry-After, repeated failures, the control plane) → later, at its
 *    end, where FIFO order is kept (BullMQ orders jobs due in the same ms by insertion);
 * 3. one of the endpoint's in-flight slots (at most WORKER_WEBHOOK_MAX_IN_FLIGHT: a slow
 *    receiver holds no more of the worker's concurrency than that) → else later;
 * 4. the destination checked again and pinned (DNS rebinding), the secret decrypted;
 * 5. a send slot on the endpoint's dispatch schedule — the leaky bucket again, at the
 *    endpoint's rate — unless one is booked: if it is further off than half an emission
 *    interval, the job waits for it. Admission already spaced departures; this spaces the sends
 *    themselves, whatever made jobs arrive together (a restart, a pause ending, retries,
 *    replays), so a receiver never gets more than its rate. Then the signed POST, with one
 *    deadline for the whole exchange, body included (`WebhookSender`);
 * 6. its row, its bookkeeping (counters, failures in a row and the pause they earn, pending /
 *    dead letters), then done, retried later (backoff with jitter, at least the Retry-After), or
 *    failed into BullMQ's failed set: the dead letters, replayable with their event id.
 *
 * A worker killed during the POST loses the job's lock; another worker's stalled check puts the
 * job back and the attempt runs again with the same number and event id (at least once).
 */
@Injectable()
export class WebhookDispatcher {
  private readonly logger = new Logger('WebhookDispatcher');

  constructor(
    @Inject(ENV) private readonly env: Env,
    private readonly redis: RedisService,
    private readonly sender: WebhookSender,
    private readonly recorder: WebhookDeliveryRecorder,
    private readonly metrics: WebhookMetrics,
  ) {}

  async deliver(job: Job): Promise<void> {
    const parsed = deliveryJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('not a webhook delivery job');
    const data = parsed.data;
    const redis = this.redis.client;
    const prefix = this.env.SLUICE_KEY_PREFIX;
    const endpoint = await readWebhookEndpoint(redis, prefix, data.tenantId, data.endpointId);
    if (!endpoint || endpoint.id !== data.endpointId) {
      this.metrics.droppedEvent();
      this.logger.warn(`endpoint ${data.endpointId} is gone: event ${data.eventId} dropped`);
      return;
    }
    const { slotAt: _booked, ...unbooked } = data;
    const now = Date.now();
    if (!endpoint.enabled) return this.later(job, unbooked, now + DISABLED_RECHECK_MS);
    const runtime = await readEndpointRuntime(redis, prefix, data.tenantId, endpoint.id);
    const pausedUntil = Math.max(runtime.pausedUntil, endpoint.pausedUntil ?? 0);
    if (pausedUntil > now) return this.later(job, unbooked, pausedUntil);

    const lease = await takeInFlightLease(
      redis,
      prefix,
      data.tenantId,
      endpoint.id,
      this.env.WORKER_WEBHOOK_MAX_IN_FLIGHT,
      this.env.WORKER_WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS,
    );
    if (!lease) return this.later(job, unbooked, now + busyWaitMs(endpoint));
    let step: Step;
    try {
      // an attempt that ended while this one waited for its slot may have earned a pause (a
      // 429's Retry-After): read it again, so a send never starts after a pause was recorded
      const { pausedUntil: pausedNow } = await readEndpointRuntime(
        redis,
        prefix,
        data.tenantId,
        endpoint.id,
      );
      if (pausedNow <= Date.now()) step = await this.attempt(job, endpoint, data);
      else step = { data: unbooked, waitUntil: pausedNow };
      // the outcome (and the pause it may earn) is recorded while the slot is still held
      if (!('waitUntil' in step)) {
        await this.conclude(job, endpoint, data, step.result, step.dead);
        return;
      }
    } finally {
      await releaseInFlightLease(redis, prefix, data.tenantId, endpoint.id, lease).catch(
        (error: unknown) => this.logger.warn(`in-flight slot not released: ${String(error)}`),
      );
    }
    return this.later(job, step.data, step.waitUntil);
  }

  /**
   * One attempt: the destination checked again and pinned (DNS rebinding), the send slot (booked
   * here, right before the send, so that what the receiver sees is spaced, not the pick-ups),
   * signed and sent. Never throws for the receiver's faults.
   */
  private async attempt(job: Job, endpoint: PublishedEndpoint, data: DeliveryJob): Promise<Step> {
    if (job.stalledCounter >= MAX_STALLS) {
      return {
        result: failure(
          `the worker stopped ${job.stalledCounter} times while delivering this event`,
        ),
        dead: true,
      };
    }
    let secrets: string[];
    try {
      secrets = this.secretsOf(endpoint);
    } catch (error) {
      return { result: failure(`signing secret: ${(error as Error).message}`), dead: false };
    }
    let address;
    try {
      [address] = await resolveDestination(endpoint.url, this.env.SLUICE_WEBHOOK_ALLOWED_CIDRS);
    } catch (error) {
      if (error instanceof DestinationError) {
        return { result: failure(`refused: ${error.message}`), dead: false };
      }
      throw error;
    }
    if (!address)
      return { result: failure('refused: the host resolves to no address'), dead: false };
    if (data.slotAt === undefined) {
      const slot = await bookSendSlot(
        this.redis.client,
        this.env.SLUICE_KEY_PREFIX,
        data.tenantId,
        endpoint,
      );
      const now = Date.now();
      if (!slot.allowed) return { data, waitUntil: now + Math.max(1, slot.retryAfterMs) };
      if (slot.delayMs > earlyToleranceMs(endpoint)) {
        const slotAt = now + slot.delayMs;
        return { data: { ...data, slotAt }, waitUntil: slotAt };
      }
    }
    const headers = signedHeaders({ eventId: data.eventId, secrets, rawBody: data.body });
    const result = await this.sender.send(
      endpoint,
      address,
      headers,
      data.body,
      this.env.WORKER_WEBHOOK_TIMEOUT_MS,
    );
    return { result, dead: false };
  }

  /** The current secret, and the previous one while its rotation grace lasts. */
  private secretsOf(endpoint: PublishedEndpoint): string[] {
    const key = this.env.SLUICE_SECRETS_KEY;
    if (!key) throw new Error('SLUICE_SECRETS_KEY is not set');
    const owner = { tenantId: endpoint.tenantId, endpointId: endpoint.id };
    const secrets = [decryptSecret(key, Buffer.from(endpoint.secret, 'base64'), owner)];
    const previous = endpoint.previousSecret;
    if (previous && previous.expiresAt > Date.now()) {
      secrets.push(decryptSecret(key, Buffer.from(previous.secret, 'base64'), owner));
    }
    return secrets;
  }

  /** Records the attempt, then completes the job, retries it later, or dead-letters it. */
  private async conclude(
    job: Job,
    endpoint: PublishedEndpoint,
    data: DeliveryJob,
    result: SendResult,
    forceDead: boolean,
  ): Promise<void> {
    const attempt = data.attempts + 1;
    const ofRun = attempt - data.runStart;
    const outcome: AttemptOutcome = result.ok
      ? 'delivered'
      : forceDead || ofRun >= endpoint.maxAttempts
        ? 'dead'
        : 'retry';
    const recorded = await this.recorder.record({
      endpointId: endpoint.id,
      eventId: data.eventId,
      eventType: data.eventType,
      attempt,
      status: outcome === 'retry' ? 'failed' : outcome,
      responseCode: result.status,
      latencyMs: result.latencyMs,
      error: result.error,
    });
    if (!recorded) this.metrics.unrecordedAttempt();
    const retryAfterMs = result.ok ? 0 : (result.retryAfterMs ?? 0);
    await recordOutcome(
      this.redis.client,
      this.env.SLUICE_KEY_PREFIX,
      data.tenantId,
      endpoint.id,
      outcome,
      data.eventId,
      {
        retryAfterMs,
        failureThreshold: this.env.WORKER_WEBHOOK_FAILURE_THRESHOLD,
        failurePauseMs: this.env.WORKER_WEBHOOK_BACKOFF_BASE_MS,
        maxPauseMs: this.env.WORKER_WEBHOOK_BACKOFF_MAX_MS,
        deadLetterRetentionMs: this.env.WORKER_WEBHOOK_DEAD_LETTER_DAYS * 86_400_000,
      },
    );
    this.metrics.attempt(outcome === 'retry' ? 'failed' : outcome, result.latencyMs);
    const { slotAt: _booked, ...next } = { ...data, attempts: attempt };
    if (outcome === 'delivered') return;
    if (outcome === 'retry') {
      const backoff = retryDelayMs(
        ofRun,
        this.env.WORKER_WEBHOOK_BACKOFF_BASE_MS,
        this.env.WORKER_WEBHOOK_BACKOFF_MAX_MS,
      );
      const wait = Math.max(
        backoff,
        Math.min(retryAfterMs, this.env.WORKER_WEBHOOK_BACKOFF_MAX_MS),
      );
      return this.later(job, next, Date.now() + wait);
    }
    await job.updateData(next);
    throw new UnrecoverableError(
      `dead after ${ofRun} attempt${ofRun === 1 ? '' : 's'}: ${result.error ?? 'failed'}`,
    );
  }

  /** Back to the delayed set until `at` (data saved first when it changed); frees the slot. */
  private async later(job: Job, data: DeliveryJob, at: number): Promise<never> {
    if (JSON.stringify(data) !== JSON.stringify(job.data)) await job.updateData(data);
    await job.moveToDelayed(Math.round(at), job.token);
    throw new DelayedError();
  }
}

function failure(error: string): SendResult {
  return { ok: false, status: undefined, latencyMs: 0, error, retryAfterMs: undefined };
}

function intervalMs(endpoint: PublishedEndpoint): number {
  return 1000 / endpoint.leakRatePerSec;
}

/** How early a send may go against its slot: half an interval, at most MAX_EARLY_MS. */
function earlyToleranceMs(endpoint: PublishedEndpoint): number {
  return Math.min(intervalMs(endpoint) / 2, MAX_EARLY_MS);
}

/** Every in-flight slot is taken: look again after about an interval (0.1 to 1 s). */
function busyWaitMs(endpoint: PublishedEndpoint): number {
  return Math.min(1000, Math.max(100, intervalMs(endpoint)));
}
