import crypto from 'node:crypto';

/** The headers Sluice sends with every webhook delivery (lowercase, as Node gives them). */
export const WEBHOOK_HEADERS = {
  /** Unique per event and the same on every retry of it: deduplicate on it. */
  eventId: 'sluice-event-id',
  /** Unix seconds when the delivery was signed. */
  timestamp: 'sluice-timestamp',
  /** `v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`, comma-separated during rotation. */
  signature: 'sluice-signature',
} as const;

export const DEFAULT_WEBHOOK_TOLERANCE_SEC = 300;

/** A fetch `Headers`, or Node's `IncomingHttpHeaders` (`req.headers` in Express, Fastify, Nest). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The endpoint's signing secret. */
  secret: string | Uint8Array;
  headers: WebhookHeaders;
  /** The body exactly as received: bytes or their UTF-8 string, never re-serialized JSON. */
  rawBody: string | Uint8Array;
  /** How far the timestamp may be from `now`, either way, in seconds; default 300. */
  toleranceSec?: number;
  /** Default the current time. */
  now?: Date;
}

export type WebhookFailure =
  /** A Sluice-Timestamp or Sluice-Signature header is absent. */
  | 'missing-header'
  /** The timestamp is not unix seconds, or the signature header holds no `v1=` entry. */
  | 'malformed-header'
  /** The timestamp is further than `toleranceSec` from now: a replay, or a skewed clock. */
  | 'timestamp-outside-tolerance'
  /** No `v1=` entry is the HMAC of this body and timestamp under this secret. */
  | 'signature-mismatch';

/** The delivery is not a genuine, fresh Sluice webhook; `reason` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  // Node lowercases header names; a hand-made record may not have
  const key = name in headers ? name : Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(',') : value;
}

function hmac(
  secret: string | Uint8Array,
  timestamp: string,
  rawBody: string | Uint8Array,
): Buffer {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

/**
 * The `Sluice-Signature` value for `rawBody` signed at `timestamp` (unix seconds): what the
 * sender puts in the header, and what a test of a webhook handler can sign its fixtures with.
 */
export function signWebhookPayload(options: {
  secret: string | Uint8Array;
  timestamp: number;
  rawBody: string | Uint8Array;
}): string {
  return `v1=${hmac(options.secret, String(options.timestamp), options.rawBody).toString('hex')}`;
}

/**
 * Verifies a webhook delivery: its timestamp is within `toleranceSec` of now and one of the
 * signature header's `v1=` entries (several during a secret rotation) is the HMAC-SHA256 of
 * `<timestamp>.<raw body>` under `secret`, compared in constant time. Returns true, or throws
 * `WebhookVerificationError` saying why not, so an unchecked result cannot let a forgery in.
 */
export function verifyWebhookSignature(options: VerifyWebhookOptions): true {
  const { secret, headers, rawBody } = options;
  const toleranceSec = options.toleranceSec ?? DEFAULT_WEBHOOK_TOLERANCE_SEC;
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      'rawBody must be the body as received (a string or bytes), not parsed JSON',
    );
  }
  if (secret.length === 0) throw new TypeError('secret must not be empty');
  if (!(toleranceSec >= 0)) throw new RangeError('toleranceSec must be a number of seconds >= 0');

  const timestamp = header(headers, WEBHOOK_HEADERS.timestamp)?.trim();
  const signature = header(headers, WEBHOOK_HEADERS.signature);
  if (timestamp === undefined || signature === undefined) {
    throw new WebhookVerificationError(
      'missing-header',
      'The Sluice-Timestamp and Sluice-Signature headers are required.',
    );
  }
  if (!UNIX_SECONDS.test(timestamp)) {
    throw new WebhookVerificationError('malformed-header', 'Sluice-Timestamp is not unix seconds.');
  }
  // other schemes (a future v2=) are skipped, so senders can add them without breaking receivers
  const candidates = signature
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.startsWith('v1='))
    .map((entry) => entry.slice(3));
  if (candidates.length === 0) {
    throw new WebhookVerificationError('malformed-header', 'Sluice-Signature has no v1= entry.');
  }
  const nowSec = (options.now ?? new Date()).getTime() / 1000;
  if (Math.abs(nowSec - Number(timestamp)) > toleranceSec) {
    throw new WebhookVerificationError(
      'timestamp-outside-tolerance',
      `Sluice-Timestamp is more than ${toleranceSec} s from now.`,
    );
  }
  const expected = hmac(secret, timestamp, rawBody);
  const matches = candidates.some(
    (candidate) =>
      SHA256_HEX.test(candidate) && crypto.timingSafeEqual(expected, Buffer.from(candidate, 'hex')),
  );
  if (!matches) {
    throw new WebhookVerificationError(
      'signature-mismatch',
      'No Sluice-Signature v1 entry matches this body and timestamp under this secret.',
    );
  }
  return true;
}
