import crypto, { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  signWebhookPayload,
  verifyWebhookSignature,
  WebhookVerificationError,
  type VerifyWebhookOptions,
} from './webhooks';

const secret = 'whsec_test_4f8a0c2e';
const rotated = 'whsec_test_new_91b7';
const rawBody = '{"id":"evt_1","type":"limit.exceeded","data":{"policy":"api","identifier":"zoë"}}';
const timestamp = 1_767_225_600; // 2026-01-01T00:00:00Z
const now = new Date(timestamp * 1000);

/** The vector computed independently of the code under test. */
const hex = (key: string, body: string | Buffer = rawBody, at = timestamp) =>
  createHmac('sha256', key).update(`${at}.`).update(body).digest('hex');

const headersFor = (signature: string) => ({
  'sluice-event-id': 'evt_1',
  'sluice-timestamp': String(timestamp),
  'sluice-signature': signature,
});

const options = (
  signature: string,
  over: Partial<VerifyWebhookOptions> = {},
): VerifyWebhookOptions => ({ secret, rawBody, now, headers: headersFor(signature), ...over });

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  throw new Error('verified');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('verifyWebhookSignature', () => {
  it('accepts the known vector, from Node headers, fetch Headers, a string or a Buffer', () => {
    const signature = `v1=${hex(secret)}`;
    const headers = headersFor(signature);

    expect(verifyWebhookSignature(options(signature))).toBe(true);
    expect(verifyWebhookSignature(options(signature, { headers: new Headers(headers) }))).toBe(
      true,
    );
    expect(verifyWebhookSignature(options(signature, { rawBody: Buffer.from(rawBody) }))).toBe(
      true,
    );
    // header names in any case, and a signature header Node delivered as several values
    expect(
      verifyWebhookSignature(
        options('', {
          headers: {
            'Sluice-Timestamp': String(timestamp),
            'Sluice-Signature': ['v1=00', signature],
          },
        }),
      ),
    ).toBe(true);
  });

  it('signs what it verifies (signWebhookPayload is the same HMAC)', () => {
    expect(signWebhookPayload({ secret, timestamp, rawBody })).toBe(`v1=${hex(secret)}`);
  });

  it('accepts either secret during a rotation (two v1 entries), and skips other schemes', () => {
    const both = `v1=${hex(rotated)}, v1=${hex(secret)}`;

    expect(verifyWebhookSignature(options(both))).toBe(true);
    expect(verifyWebhookSignature(options(both, { secret: rotated }))).toBe(true);
    expect(verifyWebhookSignature(options(`v2=abc,v1=${hex(secret)}`))).toBe(true);
    expect(failure(() => verifyWebhookSignature(options(both, { secret: 'whsec_old' })))).toBe(
      'signature-mismatch',
    );
  });

  it('refuses a tampered body, a tampered timestamp and a wrong secret', () => {
    const signature = `v1=${hex(secret)}`;
    const tampered = rawBody.replace('"api"', '"admin"');
    const laterHeaders = {
      ...headersFor(signature),
      'sluice-timestamp': String(timestamp + 1),
    };

    expect(failure(() => verifyWebhookSignature(options(signature, { rawBody: tampered })))).toBe(
      'signature-mismatch',
    );
    // one byte more: a trailing newline a parser would not show
    expect(
      failure(() => verifyWebhookSignature(options(signature, { rawBody: `${rawBody}\n` }))),
    ).toBe('signature-mismatch');
    expect(
      failure(() => verifyWebhookSignature(options(signature, { headers: laterHeaders }))),
    ).toBe('signature-mismatch');
    expect(failure(() => verifyWebhookSignature(options(`v1=${hex('whsec_other')}`)))).toBe(
      'signature-mismatch',
    );
  });

  it('holds the timestamp to the tolerance window, both ways, inclusive', () => {
    const signature = `v1=${hex(secret)}`;
    const at = (offsetSec: number, toleranceSec?: number) =>
      options(signature, {
        now: new Date((timestamp + offsetSec) * 1000),
        ...(toleranceSec === undefined ? {} : { toleranceSec }),
      });

    expect(verifyWebhookSignature(at(300))).toBe(true);
    expect(verifyWebhookSignature(at(-300))).toBe(true);
    expect(failure(() => verifyWebhookSignature(at(301)))).toBe('timestamp-outside-tolerance');
    expect(failure(() => verifyWebhookSignature(at(-301)))).toBe('timestamp-outside-tolerance');
    expect(verifyWebhookSignature(at(3600, 3600))).toBe(true);
    expect(failure(() => verifyWebhookSignature(at(11, 10)))).toBe('timestamp-outside-tolerance');
  });

  it('names missing and malformed headers', () => {
    const signature = `v1=${hex(secret)}`;
    const headers = headersFor(signature);
    const without = (name: string) =>
      Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));

    expect(
      failure(() =>
        verifyWebhookSignature(options(signature, { headers: without('sluice-timestamp') })),
      ),
    ).toBe('missing-header');
    expect(
      failure(() =>
        verifyWebhookSignature(options(signature, { headers: without('sluice-signature') })),
      ),
    ).toBe('missing-header');
    for (const bad of ['', '17e8', '-1', '1767225600.5', 'now']) {
      const malformed = { ...headers, 'sluice-timestamp': bad };
      expect(
        failure(() => verifyWebhookSignature(options(signature, { headers: malformed }))),
      ).toBe('malformed-header');
    }
    expect(failure(() => verifyWebhookSignature(options(hex(secret))))).toBe('malformed-header');
  });

  it('compares in constant time, and refuses entries of the wrong length or not hex', () => {
    const compare = vi.spyOn(crypto, 'timingSafeEqual');
    const good = hex(secret);
    const flipped = `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`;

    expect(failure(() => verifyWebhookSignature(options(`v1=${flipped}`)))).toBe(
      'signature-mismatch',
    );
    expect(compare).toHaveBeenCalledTimes(1);
    // neither reaches the comparison (timingSafeEqual would throw on a length mismatch)
    for (const entry of [good.slice(0, 62), `${good}00`, `${good.slice(0, 63)}g`]) {
      expect(failure(() => verifyWebhookSignature(options(`v1=${entry}`)))).toBe(
        'signature-mismatch',
      );
    }
    expect(compare).toHaveBeenCalledTimes(1);
    expect(verifyWebhookSignature(options(`v1=${good.toUpperCase()}`))).toBe(true);
    expect(compare).toHaveBeenCalledTimes(2);
  });

  it('refuses a parsed body and bad options with clear messages', () => {
    const signature = `v1=${hex(secret)}`;
    const parsed = JSON.parse(rawBody) as string;

    expect(() => verifyWebhookSignature(options(signature, { rawBody: parsed }))).toThrow(
      /rawBody must be the body as received/,
    );
    expect(() => verifyWebhookSignature(options(signature, { secret: '' }))).toThrow(
      /secret must not be empty/,
    );
    expect(() => verifyWebhookSignature(options(signature, { toleranceSec: Number.NaN }))).toThrow(
      /toleranceSec/,
    );
  });
});
