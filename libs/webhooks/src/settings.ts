import { fieldIssues, NAME_PATTERN } from '@sluice/policy';
import { z } from 'zod';
import { WebhookInputError } from './errors';

/** Bounds of an endpoint's settings (a full queue drains in at most 10^7 s, under 366 days). */
export const WEBHOOK_LIMITS = {
  maxUrlLength: 2048,
  /** Deliveries per second: 0.01 (one every 100 s) .. 1000. */
  minLeakRatePerSec: 0.01,
  maxLeakRatePerSec: 1000,
  maxQueueCapacity: 100_000,
  maxAttempts: 25,
  /** Endpoints one tenant may have. */
  maxEndpointsPerTenant: 50,
} as const;

const integer = (min: number, max: number) =>
  z
    .int({ error: `must be an integer from ${min} to ${max}` })
    .min(min, { error: `must be an integer from ${min} to ${max}` })
    .max(max, { error: `must be an integer from ${min} to ${max}` });

/**
 * An absolute http(s) URL without credentials or fragment. Where it resolves to is checked
 * apart (`resolveDestination`), since that needs DNS.
 */
export const webhookUrlSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'is required' })
  .max(WEBHOOK_LIMITS.maxUrlLength, {
    error: `must be at most ${WEBHOOK_LIMITS.maxUrlLength} characters`,
  })
  .superRefine((value, context) => {
    const problem = urlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Why `value` is not a URL webhooks may use, or undefined. */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'must be an http:// or https:// URL';
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not carry credentials (user:password@); authenticate with the signature';
  }
  if (url.hash !== '') return 'must not have a #fragment (it is never sent)';
  if (url.hostname === '') return 'must name a host';
  return undefined;
}

/** Every field of an endpoint's settings, as a form or an API validates them. */
export const webhookEndpointFields = {
  /** Unique in its tenant; also how intake may name the endpoint. */
  name: z
    .string({ error: 'must be a string' })
    .regex(NAME_PATTERN, { error: `must match ${NAME_PATTERN.source}` }),
  url: webhookUrlSchema,
  leakRatePerSec: z
    .number({ error: 'must be a number of deliveries per second' })
    .min(WEBHOOK_LIMITS.minLeakRatePerSec, {
      error: `must be from ${WEBHOOK_LIMITS.minLeakRatePerSec} to ${WEBHOOK_LIMITS.maxLeakRatePerSec} per second`,
    })
    .max(WEBHOOK_LIMITS.maxLeakRatePerSec, {
      error: `must be from ${WEBHOOK_LIMITS.minLeakRatePerSec} to ${WEBHOOK_LIMITS.maxLeakRatePerSec} per second`,
    }),
  queueCapacity: integer(1, WEBHOOK_LIMITS.maxQueueCapacity),
  maxAttempts: integer(1, WEBHOOK_LIMITS.maxAttempts),
  enabled: z.boolean({ error: 'must be a boolean' }),
};

export const webhookEndpointSettingsSchema = z.strictObject(webhookEndpointFields, {
  error: 'must be an object',
});

export type WebhookEndpointSettings = z.infer<typeof webhookEndpointSettingsSchema>;

/** The settings, validated; `WebhookInputError` names every rejected field. */
export function parseWebhookEndpointSettings(input: unknown): WebhookEndpointSettings {
  const parsed = webhookEndpointSettingsSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new WebhookInputError(fieldIssues(parsed.error));
}
