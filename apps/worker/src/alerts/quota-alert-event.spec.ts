import { describe, expect, it } from 'vitest';
import { quotaAlertEvent } from './quota-alert-event';

const alert = {
  id: 'Ab3_-cdefghijklmnopqrst',
  tenantId: 'tnt_a',
  policy: 'api',
  rule: 'daily',
  identifier: 'user 42 {x}',
  threshold: 80 as const,
  limit: 10_000,
  used: 8000,
  windowStart: Date.parse('2026-12-03T00:00:00Z'),
  windowEnd: Date.parse('2026-12-04T00:00:00Z'),
  at: Date.parse('2026-12-03T15:04:05.678Z'),
};

describe('the sluice.quota.threshold event of an alert', () => {
  it('carries the alert with its times as ISO 8601, the identifier as given', () => {
    expect(quotaAlertEvent(alert)).toEqual({
      type: 'sluice.quota.threshold',
      payload: {
        tenantId: 'tnt_a',
        policy: 'api',
        rule: 'daily',
        identifier: 'user 42 {x}',
        threshold: 80,
        limit: 10_000,
        used: 8000,
        windowStart: '2026-12-03T00:00:00.000Z',
        windowEnd: '2026-12-04T00:00:00.000Z',
        at: '2026-12-03T15:04:05.678Z',
      },
      idempotencyKey: 'sluice.quota.threshold/Ab3_-cdefghijklmnopqrst',
    });
  });

  it('is the same event for the same alert, whichever data plane saw it and when', () => {
    const seen = quotaAlertEvent(alert).idempotencyKey;
    // another data plane saw the same crossing a moment later: same alert id, same event
    expect(quotaAlertEvent({ ...alert, at: alert.at + 3 }).idempotencyKey).toBe(seen);
    expect(quotaAlertEvent({ ...alert, id: 'Zz3_-cdefghijklmnopqrst' }).idempotencyKey).not.toBe(
      seen,
    );
  });
});
