import {
  checkPrepared,
  emissionIntervalUs,
  MAX_CAPACITY,
  MAX_DRAIN_MS,
  prepareRuleSet,
  settleReservation,
  type PreparedRuleSet,
  type RedisLike,
} from '@sluice/algorithms';
import { fieldIssues } from '@sluice/policy';
import type { Queue } from 'bullmq';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { WebhookInputError } from './errors';
import { eventBody, newEventId, webhookEventFields } from './event';
import {
  endpointKeys,
  endpointScope,
  idempotencyKey,
  QUEUE_ID_HASH,
  QUEUE_IDENTIFIER,
  webhookRulePrefix,
} from './keys';
import { DELIVER_JOB, type DeliveryJob } from './queue';
import type { PublishedEndpoint } from './store';

/** How long an admission can still be refunded (its reservation record lives that long). */
export const ADMISSION_REFUND_WINDOW_MS = 60_000;
/** A repeated idempotency key answers the first answer for this long. */
export const IDEMPOTENCY_WINDOW_MS = 86_400_000;
/** A claimed key whose request died before answering frees itself after this. */
const IDEMPOTENCY_CLAIM_MS = 30_000;

type EndpointShape = Pick<PublishedEndpoint, 'id' | 'leakRatePerSec' | 'queueCapacity'>;

/**
 * The endpoint's FIFO as the algorithms lib's leaky bucket (`leaky-bucket`, virtual scheduling):
 * capacity = queue capacity, leak = the endpoint's rate. An admitted event's delay is its wait
 * in the FIFO, i.e. its departure time at the constant rate; a full queue denies.
 */
export function admissionRuleSet(
  prefix: string,
  tenantId: string,
  endpoint: EndpointShape,
): PreparedRuleSet {
  return prepareRuleSet({
    prefix: webhookRulePrefix(prefix),
    scope: endpointScope(tenantId, endpoint.id),
    rules: [
      {
        name: 'admission',
        rule: {
          algorithm: 'leaky_bucket',
          capacity: endpoint.queueCapacity,
          leakPerSecond: endpoint.leakRatePerSec,
        },
      },
    ],
  });
}

/**
 * The same leaky bucket at pick-up, booking the send slots (see the worker's dispatcher): as
 * large as the lib allows, since it never refuses, it only spaces sends out.
 */
export function dispatchRule(leakRatePerSec: number): { capacity: number; leakPerSecond: number } {
  const intervalMs = emissionIntervalUs(1e6, leakRatePerSec) / 1000;
  return {
    capacity: Math.max(1, Math.min(MAX_CAPACITY, Math.floor(MAX_DRAIN_MS / intervalMs) - 1)),
    leakPerSecond: leakRatePerSec,
  };
}

export interface WebhookEventInput {
  /** e.g. `invoice.paid`. */
  type: string;
  /** Any JSON value, at most MAX_PAYLOAD_BYTES as JSON. */
  payload: unknown;
  /** A repeat within IDEMPOTENCY_WINDOW_MS answers the first answer and enqueues nothing. */
  idempotencyKey?: string | undefined;
}

export type AdmissionResult =
  | {
      status: 'admitted';
      eventId: string;
      /** Ms epoch (Redis clock) when the event leaves the FIFO at the endpoint's rate. */
      departureAt: number;
      /** The answer of an earlier request with the same idempotency key. */
      replayed: boolean;
    }
  /** The FIFO is full; `retryAfterMs` until one event's room has leaked out. */
  | { status: 'queue-full'; retryAfterMs: number }
  | { status: 'disabled' }
  /** The idempotency key is in use by a request still running, or was used for another event. */
  | { status: 'idempotency-conflict'; reason: 'in-progress' | 'mismatch' };

const eventInputSchema = z.strictObject({
  type: webhookEventFields.type,
  payload: webhookEventFields.payload,
  idempotencyKey: webhookEventFields.idempotencyKey.optional(),
});

const idempotencyRecord = z.union([
  z.object({ state: z.literal('pending'), fingerprint: z.string() }),
  z.object({
    state: z.literal('done'),
    fingerprint: z.string(),
    eventId: z.string(),
    departureAt: z.number(),
  }),
]);

/**
 * Takes one event for the endpoint: admission first (the leaky bucket's Lua, atomically: the
 * event gets its departure time, or the full FIFO refuses it), then the delayed job due at that
 * departure. If adding the job fails, the admission is refunded (its reservation settled at 0)
 * and the error is thrown. Intake and Sluice's own events (alerts) both come through here.
 */
export async function admitWebhookEvent(
  redis: RedisLike,
  queue: Queue<DeliveryJob>,
  prefix: string,
  tenantId: string,
  endpoint: PublishedEndpoint,
  input: WebhookEventInput,
): Promise<AdmissionResult> {
  const parsed = eventInputSchema.safeParse(input);
  if (!parsed.success) throw new WebhookInputError(fieldIssues(parsed.error));
  const event = parsed.data;
  if (!endpoint.enabled) return { status: 'disabled' };

  const fingerprint = createHash('sha256')
    .update(JSON.stringify([endpoint.id, event.type, event.payload]))
    .digest('base64url');
  const idemKey =
    event.idempotencyKey === undefined
      ? undefined
      : idempotencyKey(prefix, tenantId, event.idempotencyKey);
  if (idemKey) {
    const claim = JSON.stringify({ state: 'pending', fingerprint });
    const claimed = await redis.set(idemKey, claim, 'PX', IDEMPOTENCY_CLAIM_MS, 'NX');
    if (claimed === null) return earlierAnswer(redis, idemKey, fingerprint);
  }

  try {
    const admitted = await admit(redis, queue, prefix, tenantId, endpoint, event);
    if (idemKey && admitted.status === 'admitted') {
      const record = { state: 'done', fingerprint, ...admitted };
      await redis.set(idemKey, JSON.stringify(record), 'PX', IDEMPOTENCY_WINDOW_MS);
    } else if (idemKey) {
      // a refusal is not remembered: the same key may be tried again once there is room
      await redis.del(idemKey);
    }
    return admitted.status === 'admitted' ? { ...admitted, replayed: false } : admitted;
  } catch (error) {
    if (idemKey) await redis.del(idemKey).catch(() => undefined);
    throw error;
  }
}

async function admit(
  redis: RedisLike,
  queue: Queue<DeliveryJob>,
  prefix: string,
  tenantId: string,
  endpoint: PublishedEndpoint,
  event: { type: string; payload: unknown },
): Promise<
  | { status: 'admitted'; eventId: string; departureAt: number }
  | { status: 'queue-full'; retryAfterMs: number }
> {
  const set = admissionRuleSet(prefix, tenantId, endpoint);
  const decision = await checkPrepared(redis, set, QUEUE_IDENTIFIER, 1, {
    reservation: { ttlMs: ADMISSION_REFUND_WINDOW_MS },
  });
  const [rule] = decision.rules;
  if (!decision.allowed || !rule || !decision.reservation) {
    return { status: 'queue-full', retryAfterMs: Math.max(1, decision.retryAfter) };
  }
  // resetAt is when the FIFO drains after this event (rounded up to the ms): the event leaves
  // one emission interval before that, so departures never drift from the exact schedule
  const intervalMs = emissionIntervalUs(1e6, endpoint.leakRatePerSec) / 1000;
  const departureAt = Math.ceil(rule.resetAt - intervalMs);
  const eventId = newEventId();
  const admittedAt = Date.now();
  const keys = endpointKeys(prefix, tenantId, endpoint.id);
  const job: DeliveryJob = {
    eventId,
    tenantId,
    endpointId: endpoint.id,
    eventType: event.type,
    body: eventBody({ eventId, type: event.type, createdAt: admittedAt, payload: event.payload }),
    admittedAt,
    departureAt,
    attempts: 0,
    runStart: 0,
  };
  try {
    // pending first: a worker that delivers at once must find the entry it removes
    await redis.zadd(keys.pending, admittedAt, eventId);
    const now = Date.now();
    await queue.add(DELIVER_JOB, job, {
      jobId: eventId,
      timestamp: now,
      delay: Math.max(0, departureAt - now),
      attempts: 1,
      removeOnComplete: true,
    });
  } catch (error) {
    await refund(redis, set, decision.reservation.nonce, keys.pending, eventId);
    throw error;
  }
  return { status: 'admitted', eventId, departureAt };
}

/** Gives the event's place in the FIFO back, as far as Redis still answers. */
async function refund(
  redis: RedisLike,
  set: PreparedRuleSet,
  nonce: string,
  pending: string,
  eventId: string,
): Promise<void> {
  await settleReservation(redis, set, { idHash: QUEUE_ID_HASH }, nonce, 0).catch(() => undefined);
  await redis.zrem(pending, eventId).catch(() => undefined);
}

async function earlierAnswer(
  redis: RedisLike,
  key: string,
  fingerprint: string,
): Promise<AdmissionResult> {
  const raw = await redis.get(key);
  const parsed = raw === null ? undefined : idempotencyRecord.safeParse(JSON.parse(raw));
  // gone in between (a refusal, an expiry): the caller may simply try again
  if (!parsed?.success) return { status: 'idempotency-conflict', reason: 'in-progress' };
  const record = parsed.data;
  if (record.fingerprint !== fingerprint) {
    return { status: 'idempotency-conflict', reason: 'mismatch' };
  }
  if (record.state === 'pending') return { status: 'idempotency-conflict', reason: 'in-progress' };
  return {
    status: 'admitted',
    eventId: record.eventId,
    departureAt: record.departureAt,
    replayed: true,
  };
}
