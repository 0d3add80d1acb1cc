import type { RedisLike } from '@sluice/algorithms';
import type { Queue } from 'bullmq';
import { admitWebhookEvent, type AdmissionResult } from './admission';
import type { DeliveryJob } from './queue';
import { listTenantEndpoints } from './store';

/** An identifier of the tenant crossed 80 % or 100 % of a quota window (payload: docs/worker.md). */
export const QUOTA_THRESHOLD_EVENT = 'sluice.quota.threshold';
/** A new version of the tenant's policies is live in Redis. */
export const POLICY_PUBLISHED_EVENT = 'sluice.policy.published';

export interface OwnEventInput {
  type: string;
  payload: unknown;
  /**
   * Names the event itself (`sluice.policy.published/<tenantId>/<version>`); each endpoint's
   * admission is idempotent under `<idempotencyKey>/<endpointId>`.
   */
  idempotencyKey: string;
}

export interface OwnEventAdmission {
  endpointId: string;
  result: AdmissionResult;
}

/**
 * Offers one of Sluice's own events to every enabled endpoint of the tenant through the same
 * admission as intake: each endpoint's leaky-bucket FIFO gives it a departure, or refuses it
 * when full (that endpoint simply misses it; `queue-full` says so). Offering the same event again
 * (a redelivered alert, a repeated publish) enqueues nothing twice within IDEMPOTENCY_WINDOW_MS:
 * the endpoints that took it answer `replayed`. A tenant without endpoints costs one HGETALL of a
 * missing key. Every endpoint is tried; the first error (Redis, the queue) is thrown afterwards.
 */
export async function admitOwnEvent(
  redis: RedisLike,
  queue: Queue<DeliveryJob>,
  prefix: string,
  tenantId: string,
  event: OwnEventInput,
): Promise<OwnEventAdmission[]> {
  const endpoints = await listTenantEndpoints(redis, prefix, tenantId);
  const admissions: OwnEventAdmission[] = [];
  let firstError: unknown;
  for (const endpoint of endpoints) {
    if (!endpoint.enabled) continue;
    try {
      const result = await admitWebhookEvent(redis, queue, prefix, tenantId, endpoint, {
        type: event.type,
        payload: event.payload,
        idempotencyKey: `${event.idempotencyKey}/${endpoint.id}`,
      });
      admissions.push({ endpointId: endpoint.id, result });
    } catch (error) {
      firstError ??= error;
    }
  }
  if (firstError !== undefined) throw firstError;
  return admissions;
}
