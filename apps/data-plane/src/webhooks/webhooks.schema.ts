import { InputError } from '@sluice/engine';
import { fieldIssues } from '@sluice/policy';
import { MAX_PAYLOAD_BYTES, webhookEventFields } from '@sluice/webhooks';
import { z } from 'zod';
import { requiredOr } from '../check/check.schema';

/** Most bytes of a `POST /v1/webhooks` body: the largest payload and room for the rest. */
export const WEBHOOK_BODY_LIMIT = MAX_PAYLOAD_BYTES + 4096;

const endpointMessage = 'must be an endpoint id or name of 1 to 64 characters';

/** `POST /v1/webhooks`' body. Unknown fields are refused, as on every route. */
export const webhookRequestSchema = z.strictObject(
  {
    endpoint: z
      .string(requiredOr('is required', endpointMessage))
      .min(1, { error: endpointMessage })
      .max(64, { error: endpointMessage })
      .meta({
        description: 'The webhook endpoint’s id (`wh_…`) or name, in the key’s tenant.',
        examples: ['billing'],
      }),
    type: webhookEventFields.type.meta({
      description: 'The event type the receiver dispatches on.',
      examples: ['invoice.paid'],
    }),
    payload: webhookEventFields.payload.meta({
      description: `Any JSON value, at most ${MAX_PAYLOAD_BYTES} bytes as JSON: sent as \`data\` of the delivery body \`{ id, type, createdAt, data }\`.`,
    }),
    idempotencyKey: webhookEventFields.idempotencyKey.optional().meta({
      description:
        'A repeat with the same key within 24 hours answers the first answer (202, same `eventId`) and enqueues nothing; with another endpoint, type or payload it is a 409.',
    }),
  },
  { error: 'must be a JSON object' },
);

export type WebhookRequestBody = z.infer<typeof webhookRequestSchema>;

export const webhookAcceptedSchema = z.object({
  eventId: z.string().meta({
    description: 'Sent as `Sluice-Event-Id` with every attempt: receivers deduplicate on it.',
  }),
  departureAt: z.number().meta({
    description:
      'Ms epoch when the event leaves the endpoint’s FIFO at its constant rate (its first attempt).',
  }),
});

/** The body as a webhook request, or `InputError` (400) naming every rejected field. */
export function parseWebhookBody(body: unknown): WebhookRequestBody {
  const parsed = webhookRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new InputError(fieldIssues(parsed.error, 'body'));
}
