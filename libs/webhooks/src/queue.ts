import { Queue, type ConnectionOptions } from 'bullmq';
import { z } from 'zod';
import { EVENT_TYPE_PATTERN, isEventId } from './event';

/** The one BullMQ queue of every endpoint's deliveries (see docs/worker.md for why one). */
export const WEBHOOK_QUEUE = 'sluice-webhooks';
export const DELIVER_JOB = 'deliver';

/** BullMQ keys of the deployment: `<SLUICE_KEY_PREFIX>bull:<queue>:…`, as the worker's. */
export function bullPrefix(keyPrefix: string): string {
  return `${keyPrefix}bull`;
}

const msEpoch = z.int().min(0).max(8.64e15);
const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const deliveryJobSchema = z.strictObject({
  eventId: z.string().refine(isEventId, { error: 'must be an event id' }),
  tenantId: id,
  endpointId: id,
  eventType: z.string().regex(EVENT_TYPE_PATTERN),
  /** The exact bytes every attempt sends (`eventBody`). */
  body: z.string(),
  admittedAt: msEpoch,
  /** When the admission schedule lets it leave (ms epoch, Redis clock). */
  departureAt: msEpoch,
  /** Attempts made so far, over every run (WebhookDelivery rows are numbered by it). */
  attempts: z.int().min(0),
  /** `attempts` when the current run began: a replay from the dead letters starts a new run. */
  runStart: z.int().min(0),
  /** A send slot already booked on the endpoint's dispatch schedule (ms epoch). */
  slotAt: msEpoch.optional(),
});

/** One event's delivery job; its BullMQ job id is the event id. */
export type DeliveryJob = z.infer<typeof deliveryJobSchema>;

/** A queue handle for adding and replaying deliveries (the worker has its own Worker). */
export function createWebhookQueue(
  connection: ConnectionOptions,
  keyPrefix: string,
): Queue<DeliveryJob> {
  return new Queue<DeliveryJob>(WEBHOOK_QUEUE, { connection, prefix: bullPrefix(keyPrefix) });
}
