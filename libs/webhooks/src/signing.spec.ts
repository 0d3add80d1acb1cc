import { verifyWebhookSignature, WebhookVerificationError } from '@sluice/sdk';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret } from './secrets';
import { signedHeaders } from './signing';

describe('delivery signatures', () => {
  const rawBody = JSON.stringify({ id: 'evt_1', type: 'a.b', data: { x: 1 } });

  it('verify with the SDK’s helper, under the current or the previous secret', () => {
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const headers = signedHeaders({ eventId: 'evt_1', secrets: [current, previous], rawBody });

    expect(headers['sluice-event-id']).toBe('evt_1');
    expect(headers['sluice-signature']?.split(',')).toHaveLength(2);
    expect(verifyWebhookSignature({ secret: current, headers, rawBody })).toBe(true);
    expect(verifyWebhookSignature({ secret: previous, headers, rawBody })).toBe(true);
  });

  it('fail for another secret or another body', () => {
    const secret = generateSigningSecret();
    const headers = signedHeaders({ eventId: 'evt_1', secrets: [secret], rawBody });
    expect(() =>
      verifyWebhookSignature({ secret: generateSigningSecret(), headers, rawBody }),
    ).toThrow(WebhookVerificationError);
    expect(() =>
      verifyWebhookSignature({ secret, headers, rawBody: rawBody.replace('1}', '2}') }),
    ).toThrow(WebhookVerificationError);
  });
});
