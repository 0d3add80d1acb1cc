import { randomBase62 } from '@sluice/algorithms';
import { z } from 'zod';

/** Most bytes of an event's payload as JSON: it waits in Redis until delivered. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;
export const EVENT_TYPE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** Printable ASCII without spaces, like Stripe's and the IETF draft's `Idempotency-Key`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const EVENT_ID_PATTERN = /^evt_[0-9A-Za-z]{22}$/;

/** `evt_` + 22 base62 characters from the CSPRNG (about 130 bits): the same on every retry. */
export function newEventId(): string {
  return `evt_${randomBase62(22)}`;
}

export function isEventId(value: unknown): value is string {
  return typeof value === 'string' && EVENT_ID_PATTERN.test(value);
}

/** What an event carries besides its endpoint, as intake and internal senders validate it. */
export const webhookEventFields = {
  type: z
    .string({ error: 'must be an event type such as invoice.paid' })
    .regex(EVENT_TYPE_PATTERN, {
      error: `must be an event type such as invoice.paid (${EVENT_TYPE_PATTERN.source})`,
    }),
  payload: z.unknown().superRefine((value, context) => {
    const bytes = jsonBytes(value);
    if (bytes === undefined) {
      context.addIssue({
        code: 'custom',
        message:
          value === undefined
            ? 'is required (any JSON value; null for none)'
            : 'must be JSON (an object, array, string, number, boolean or null)',
      });
    } else if (bytes > MAX_PAYLOAD_BYTES) {
      context.addIssue({
        code: 'custom',
        message: `must be at most ${MAX_PAYLOAD_BYTES} bytes as JSON, got ${bytes}`,
      });
    }
  }),
  idempotencyKey: z.string({ error: 'must be a string' }).regex(IDEMPOTENCY_KEY_PATTERN, {
    error: 'must be 1 to 255 printable ASCII characters without spaces',
  }),
};

/** Bytes of `value` as JSON; undefined when it is not JSON (undefined, a function, a BigInt…). */
function jsonBytes(value: unknown): number | undefined {
  try {
    const json = JSON.stringify(value) as string | undefined;
    return json === undefined ? undefined : Buffer.byteLength(json, 'utf8');
  } catch {
    return undefined;
  }
}

export interface WebhookEvent {
  eventId: string;
  type: string;
  /** Ms epoch when Sluice took the event. */
  createdAt: number;
  payload: unknown;
}

/**
 * The delivery body: `{ id, type, createdAt, data }` as JSON. Built once at intake and stored,
 * so every attempt sends (and signs) the same bytes.
 */
export function eventBody(event: WebhookEvent): string {
  return JSON.stringify({
    id: event.eventId,
    type: event.type,
    createdAt: new Date(event.createdAt).toISOString(),
    data: event.payload,
  });
}
