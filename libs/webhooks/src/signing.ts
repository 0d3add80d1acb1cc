import { signWebhookPayload, WEBHOOK_HEADERS } from '@sluice/sdk';

/**
 * The `Sluice-Signature` value: one `v1=` entry per secret (the current one first, then the
 * previous one while a rotation's grace lasts), as the SDK's `verifyWebhookSignature` accepts.
 */
export function signatureHeader(
  secrets: readonly string[],
  timestamp: number,
  rawBody: string,
): string {
  return secrets.map((secret) => signWebhookPayload({ secret, timestamp, rawBody })).join(',');
}

/** The three headers of one delivery attempt, signed now (`Sluice-Timestamp` in unix seconds). */
export function signedHeaders(options: {
  eventId: string;
  secrets: readonly string[];
  rawBody: string;
  now?: number;
}): Record<string, string> {
  const timestamp = Math.floor((options.now ?? Date.now()) / 1000);
  return {
    [WEBHOOK_HEADERS.eventId]: options.eventId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signatureHeader(options.secrets, timestamp, options.rawBody),
  };
}
