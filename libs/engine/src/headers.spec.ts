import { RETRY_NEVER } from '@sluice/algorithms';
import { parseItem, parseList, serializeList } from 'structured-headers';
import { describe, expect, it } from 'vitest';
import { problemForDenial, rateLimitHeaders } from './headers';
import type { CheckResult, RuleResult } from './types';

const at = 1_700_000_000_000;

const rule = (over: Partial<RuleResult> = {}): RuleResult => ({
  name: 'per-minute',
  algorithm: 'fixed_window',
  allowed: true,
  limit: 100,
  remaining: 40,
  resetAt: at + 30_000,
  retryAfterMs: 0,
  quota: 100,
  windowMs: 60_000,
  ...over,
});

const result = (over: Partial<CheckResult> = {}): CheckResult => {
  const rules = over.rules ?? [rule()];
  const top = rules[0];
  return {
    allowed: true,
    policy: 'api',
    identifier: 'u',
    limit: top?.limit ?? 0,
    remaining: top?.remaining ?? 0,
    resetAt: top?.resetAt ?? at,
    retryAfterMs: 0,
    rules,
    reason: 'allowed',
    at,
    ...over,
  };
};

const denied = (over: Partial<RuleResult> = {}, extra: Partial<CheckResult> = {}) => {
  const rules = [rule({ allowed: false, remaining: 0, retryAfterMs: 30_000, ...over })];
  return result({
    allowed: false,
    reason: 'rule',
    deniedBy: rules[0]!.name,
    retryAfterMs: rules[0]!.retryAfterMs,
    rules,
    ...extra,
  });
};

/** A list header parsed back (RFC 8941) into [name, parameters] pairs. */
const parsed = (value: string | undefined) =>
  parseList(value ?? '').map(([item, params]) => [item, Object.fromEntries(params)]);

describe('rateLimitHeaders', () => {
  it('gives the headline rule as X-RateLimit-* and every live rule as RateLimit fields', () => {
    const headers = rateLimitHeaders(
      result({
        rules: [
          rule({
            name: 'burst',
            algorithm: 'token_bucket',
            limit: 20,
            remaining: 3,
            quota: 20,
            windowMs: 2000,
            resetAt: at + 1700,
          }),
          rule({
            name: 'daily',
            limit: 10_000,
            remaining: 9_000,
            quota: 10_000,
            windowMs: 86_400_000,
            resetAt: at + 3_600_000,
          }),
        ],
      }),
    );
    expect(headers).toEqual({
      'X-RateLimit-Limit': '20',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': String(Math.ceil((at + 1700) / 1000)),
      'RateLimit-Policy': expect.any(String),
      RateLimit: expect.any(String),
    });
    expect(parsed(headers['RateLimit-Policy'])).toEqual([
      ['burst', { q: 20, w: 2 }],
      ['daily', { q: 10_000, w: 86_400 }],
    ]);
    expect(parsed(headers['RateLimit'])).toEqual([
      ['burst', { r: 3, t: 2 }],
      ['daily', { r: 9_000, t: 3600 }],
    ]);
    expect(headers['RateLimit-Policy']).toBe('"burst";q=20;w=2, "daily";q=10000;w=86400');
  });

  it('rounds windows, resets and waits up to whole seconds, and never shows a negative count', () => {
    const headers = rateLimitHeaders(
      denied({ remaining: -3, windowMs: 3334, resetAt: at + 1, retryAfterMs: 1001 }),
    );
    expect(headers['X-RateLimit-Remaining']).toBe('0');
    expect(headers['X-RateLimit-Reset']).toBe(String(at / 1000 + 1));
    expect(headers['Retry-After']).toBe('2');
    expect(parsed(headers['RateLimit-Policy'])).toEqual([['per-minute', { q: 100, w: 4 }]]);
    expect(parsed(headers['RateLimit'])).toEqual([['per-minute', { r: 0, t: 1 }]]);
    expect(Number(parseItem(headers['Retry-After']!)[0])).toBe(2);
  });

  it('serializes exactly as the RFC 8941 library does, a fractional quota and quoting included', () => {
    const rules = [
      rule({ name: 'burst', quota: 2.5, windowMs: 1000 }),
      rule({ name: 'quote"d', quota: 100, windowMs: 60_000, remaining: 7 }),
    ];
    const headers = rateLimitHeaders(result({ rules }));
    const byLibrary = (a: string, b: string, values: (r: RuleResult) => [number, number]) =>
      serializeList(
        rules.map((r) => {
          const [x, y] = values(r);
          return [
            r.name,
            new Map([
              [a, x],
              [b, y],
            ]),
          ];
        }),
      );
    expect(headers['RateLimit-Policy']).toBe(
      byLibrary('q', 'w', (r) => [r.quota, Math.ceil(r.windowMs / 1000)]),
    );
    expect(headers['RateLimit-Policy']).toBe('"burst";q=2.5;w=1, "quote\\"d";q=100;w=60');
    expect(headers['RateLimit']).toBe(
      byLibrary('r', 't', (r) => [r.remaining, Math.ceil((r.resetAt - at) / 1000)]),
    );
  });

  it('states a concurrency rule as requests in flight: qu="concurrent-requests", no window', () => {
    const headers = rateLimitHeaders(
      result({
        rules: [
          rule({ name: 'tokens', quota: 1000, windowMs: 60_000, remaining: 900 }),
          rule({
            name: 'inflight',
            algorithm: 'concurrency',
            limit: 5,
            remaining: 2,
            quota: 5,
            windowMs: 60_000,
            resetAt: at + 12_500,
          }),
        ],
      }),
    );
    expect(headers['RateLimit-Policy']).toBe(
      '"tokens";q=1000;w=60, "inflight";q=5;qu="concurrent-requests"',
    );
    expect(parsed(headers['RateLimit-Policy'])).toEqual([
      ['tokens', { q: 1000, w: 60 }],
      ['inflight', { q: 5, qu: 'concurrent-requests' }],
    ]);
    expect(parsed(headers['RateLimit'])).toEqual([
      ['tokens', { r: 900, t: 30 }],
      ['inflight', { r: 2, t: 13 }],
    ]);
  });

  it('gives Retry-After only when denied and a retry can pass', () => {
    expect(rateLimitHeaders(result())).not.toHaveProperty('Retry-After');
    expect(rateLimitHeaders(denied())['Retry-After']).toBe('30');
    expect(rateLimitHeaders(denied({ retryAfterMs: RETRY_NEVER }))).not.toHaveProperty(
      'Retry-After',
    );
    const shadow = result({
      reason: 'shadow',
      shadowDenied: true,
      rules: [rule({ allowed: false })],
    });
    expect(rateLimitHeaders(shadow)).not.toHaveProperty('Retry-After');
  });

  it('has no rule fields without rule figures; fail-closed says when to come back', () => {
    expect(rateLimitHeaders(result({ rules: [], reason: 'fail-open' }))).toEqual({});
    expect(
      rateLimitHeaders(
        result({ rules: [], allowed: false, reason: 'fail-closed', retryAfterMs: 1000 }),
      ),
    ).toEqual({ 'Retry-After': '1' });
    expect(
      rateLimitHeaders(
        result({ rules: [], allowed: false, reason: 'suspended', retryAfterMs: RETRY_NEVER }),
      ),
    ).toEqual({});
  });
});

describe('problemForDenial', () => {
  it('words a denial as the seed does', () => {
    expect(problemForDenial(denied(), '/v1/check')).toEqual({
      type: 'https://sluice.dev/problems/rate-limited',
      title: 'Too Many Requests',
      status: 429,
      detail: 'Rate limit of 100 requests per minute exceeded. Retry after 30 seconds.',
      instance: '/v1/check',
      'violated-policies': ['per-minute'],
    });
  });

  it.each([
    [
      { quota: 1, windowMs: 1000, retryAfterMs: 1000 },
      'Rate limit of 1 request per second exceeded. Retry after 1 second.',
    ],
    [
      { quota: 5000, windowMs: 3_600_000, retryAfterMs: 61_001 },
      'Rate limit of 5000 requests per hour exceeded. Retry after 62 seconds.',
    ],
    [
      { quota: 7, windowMs: 86_400_000 },
      'Rate limit of 7 requests per day exceeded. Retry after 30 seconds.',
    ],
    [
      { quota: 10, windowMs: 90_000 },
      'Rate limit of 10 requests per 90 seconds exceeded. Retry after 30 seconds.',
    ],
    [
      { quota: 3, windowMs: 1500 },
      'Rate limit of 3 requests per 1.5 seconds exceeded. Retry after 30 seconds.',
    ],
    [
      { quota: 2, windowMs: 82_800_000, calendarUnit: 'day' as const },
      'Rate limit of 2 requests per calendar day exceeded. Retry after 30 seconds.',
    ],
    [
      { retryAfterMs: RETRY_NEVER },
      'Rate limit of 100 requests per minute exceeded. This request costs more than the limit allows, so retrying cannot succeed.',
    ],
  ])('words %j', (over, detail) => {
    expect(problemForDenial(denied(over), '/v1/check').detail).toBe(detail);
  });

  it('words a concurrency denial as requests in flight', () => {
    const body = problemForDenial(
      denied({ name: 'inflight', algorithm: 'concurrency', quota: 5, retryAfterMs: 59_001 }),
      '/v1/check',
    );
    expect(body).toMatchObject({
      status: 429,
      detail: 'Limit of 5 requests in flight reached. Retry after 60 seconds.',
      'violated-policies': ['inflight'],
    });
  });

  it('names every denied live rule and words the local fail mode the same', () => {
    const rules = [
      rule({ name: 'burst', allowed: false, retryAfterMs: 2000 }),
      rule({ name: 'daily', allowed: false, retryAfterMs: 30_000 }),
      rule({ name: 'monthly', allowed: true }),
    ];
    const body = problemForDenial(
      result({ allowed: false, reason: 'local', deniedBy: 'daily', retryAfterMs: 30_000, rules }),
      '/v1/authorize',
    );
    expect(body).toMatchObject({ status: 429, 'violated-policies': ['burst', 'daily'] });
  });

  it('is a 503 temporary-reduced-capacity for fail-closed and a 403 for a suspended tenant', () => {
    const closed = result({ rules: [], allowed: false, reason: 'fail-closed', retryAfterMs: 1000 });
    expect(problemForDenial(closed, '/v1/check')).toEqual({
      type: 'https://sluice.dev/problems/temporary-reduced-capacity',
      title: 'Service Unavailable',
      status: 503,
      detail:
        'Rate limits cannot be checked right now, so requests are refused. Retry after 1 second.',
      instance: '/v1/check',
    });
    const suspended = result({ rules: [], allowed: false, reason: 'suspended', retryAfterMs: -1 });
    expect(problemForDenial(suspended, '/v1/check')).toMatchObject({
      type: 'https://sluice.dev/problems/tenant-suspended',
      status: 403,
    });
  });

  it('refuses an allowed result', () => {
    expect(() => problemForDenial(result(), '/v1/check')).toThrow(TypeError);
  });
});
