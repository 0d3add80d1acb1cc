import { parseList, type Item } from 'structured-headers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bucket,
  check,
  daily,
  policy,
  publish,
  startApp,
  until,
  type Answer,
  type TestApp,
} from './support';

let app: TestApp;
let secret: string;
let identifiers = 0;
/** A fresh identifier per test: the state of one never leaks into another. */
const who = () => `user-${(identifiers += 1)}`;

beforeAll(async () => {
  app = await startApp();
  await publish(app.t, 'tnt_a', [
    policy('api', { rules: [bucket('burst', 2)] }),
    policy('multi', { rules: [bucket('burst', 5), daily(2)] }),
    policy('minute', {
      rules: [{ name: 'per-minute', algorithm: 'fixed_window', limit: 100, windowMs: 60_000 }],
    }),
    policy('shadowed', { mode: 'shadow', rules: [bucket('burst', 1)] }),
    policy('trial', {
      rules: [bucket('burst', 3)],
      candidateRules: [bucket('stricter', 1)],
    }),
    policy('vip', {
      rules: [bucket('burst', 1)],
      overrides: [
        {
          id: 'ovr_gone',
          match: 'exact',
          identifier: 'expired-vip',
          rules: { burst: { capacity: 50 } },
          expiresAt: Date.now() - 1000,
          reason: 'ended',
        },
        {
          id: 'ovr_vip',
          match: 'prefix',
          identifier: 'premium_*',
          rules: { burst: { capacity: 3 } },
          expiresAt: Date.now() + 3_600_000,
          reason: 'paying',
        },
      ],
    }),
  ]);
  secret = await apiKey(app.t, 'tnt_a');
});
afterAll(async () => {
  await app.close();
});

/** Inner list items by name: `[[name, params], …]` → `{ name: params }`. */
function items(field: string | null): Record<string, Record<string, unknown>> {
  expect(field).not.toBeNull();
  return Object.fromEntries(
    parseList(field!).map((member) => {
      const [name, params] = member as Item;
      return [String(name), Object.fromEntries(params)];
    }),
  );
}

const nowSeconds = () => Math.ceil(Date.now() / 1000);

async function checks(policyName: string, identifier: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += 1) {
    answers.push(await check(app.url, secret, { policy: policyName, identifier }));
  }
  return answers;
}

describe('POST /v1/check', () => {
  it('answers allowed then denied results as 200, with the headers on each', async () => {
    const identifier = who();
    const [first, second, third] = await checks('api', identifier, 3);

    expect(first).toMatchObject({
      status: 200,
      contentType: expect.stringMatching(/^application\/json/),
    });
    expect(first!.body).toMatchObject({
      allowed: true,
      policy: 'api',
      identifier,
      limit: 2,
      remaining: 1,
      reason: 'allowed',
      retryAfterMs: 0,
      rules: [{ name: 'burst', algorithm: 'token_bucket', allowed: true, limit: 2, remaining: 1 }],
    });
    expect(first!.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first!.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(first!.headers.get('retry-after')).toBeNull();
    expect(second!.body).toMatchObject({ allowed: true, remaining: 0 });

    expect(third!.status).toBe(200);
    expect(third!.body).toMatchObject({
      allowed: false,
      reason: 'rule',
      deniedBy: 'burst',
      remaining: 0,
      retryAfterMs: expect.any(Number),
    });
    expect(third!.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(third!.headers.get('retry-after'));
    expect(retryAfter).toBe(
      Math.ceil((third!.body as { retryAfterMs: number }).retryAfterMs / 1000),
    );
    expect(retryAfter).toBeGreaterThan(0);
  });

  it('serializes the X-RateLimit and draft-11 fields so an RFC 8941 parser reads them back', async () => {
    const { headers } = await check(app.url, secret, { policy: 'multi', identifier: who() });

    expect(headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const reset = Number(headers.get('x-ratelimit-reset'));
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(nowSeconds());
    // capacity 5 at 0.001/s refills in 5000 s; the daily window is 86400 s
    expect(items(headers.get('ratelimit-policy'))).toEqual({
      burst: { q: 5, w: 5000 },
      daily: { q: 2, w: 86_400 },
    });
    const state = items(headers.get('ratelimit'));
    expect(state).toEqual({
      burst: { r: 4, t: expect.any(Number) },
      daily: { r: 1, t: expect.any(Number) },
    });
    // the headline rule is the one with the least remaining share: daily (1 of 2)
    expect(headers.get('x-ratelimit-limit')).toBe('2');
    expect(headers.get('x-ratelimit-remaining')).toBe('1');
  });

  describe('gateway mode', () => {
    async function denyAfterLimit(
      identifier: string,
      options: { headers?: Record<string, string>; query?: string },
    ): Promise<Answer> {
      await check(app.url, secret, { policy: 'api', identifier }, options);
      await check(app.url, secret, { policy: 'api', identifier }, options);
      return check(app.url, secret, { policy: 'api', identifier }, options);
    }

    it('answers a denial with Prefer: gateway as a 429 problem+json (RFC 9457)', async () => {
      const answer = await denyAfterLimit(who(), { headers: { prefer: 'respond-async, gateway' } });

      expect(answer.status).toBe(429);
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      expect(answer.headers.get('preference-applied')).toBe('gateway');
      expect(answer.body).toEqual({
        type: 'https://sluice.dev/problems/rate-limited',
        title: 'Too Many Requests',
        status: 429,
        detail: expect.stringMatching(
          /^Rate limit of 2 requests per 2000 seconds exceeded\. Retry after \d+ seconds?\.$/,
        ),
        instance: '/v1/check',
        'violated-policies': ['burst'],
      });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.headers.get('x-ratelimit-remaining')).toBe('0');
    });

    it('words the detail from the denying rule: "per minute"', async () => {
      const identifier = who();
      // the window is the clock's minute: both checks in the same one, even after a stall of
      // seconds between them
      await until(() => Date.now() % 60_000 < 50_000, 100);
      const all = await check(app.url, secret, { policy: 'minute', identifier, cost: 100 });
      expect(all.body).toMatchObject({ allowed: true, remaining: 0 });
      const answer = await check(
        app.url,
        secret,
        { policy: 'minute', identifier },
        {
          query: '?mode=gateway',
        },
      );

      expect(answer.status).toBe(429);
      expect(answer.headers.get('preference-applied')).toBeNull();
      expect((answer.body as { detail: string }).detail).toMatch(
        /^Rate limit of 100 requests per minute exceeded\. Retry after \d+ seconds?\.$/,
      );
    });

    it('leaves allowed answers as 200 results, and honours the preference among parameters', async () => {
      const answer = await check(
        app.url,
        secret,
        { policy: 'api', identifier: who() },
        {
          headers: { prefer: 'wait=10, GATEWAY;strict' },
        },
      );

      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ allowed: true });
      expect(answer.headers.get('preference-applied')).toBe('gateway');
    });

    it('ignores a gateway token inside another preference’s quoted value', async () => {
      const identifier = who();
      const answer = await denyAfterLimit(identifier, {
        headers: { prefer: 'note="a, gateway"' },
      });

      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ allowed: false, reason: 'rule' });
      expect(answer.headers.get('preference-applied')).toBeNull();
    });
  });

  it('is all-or-nothing over several rules: a denial by the daily window consumes no burst token', async () => {
    const identifier = who();
    const answers = await checks('multi', identifier, 3);

    expect(answers.map((a) => (a.body as { allowed: boolean }).allowed)).toEqual([
      true,
      true,
      false,
    ]);
    expect(answers[2]!.body).toMatchObject({
      deniedBy: 'daily',
      rules: [
        { name: 'burst', allowed: true, remaining: 3 },
        { name: 'daily', allowed: false, remaining: 0 },
      ],
    });
    const peek = await check(app.url, secret, { policy: 'multi', identifier, cost: 0 });
    // two tokens taken by the two allowed checks, none by the denied one
    expect(peek.body).toMatchObject({
      rules: [{ name: 'burst', remaining: 3 }, { name: 'daily' }],
    });
  });

  it('peeks at cost 0 and consumes nothing on a dry run', async () => {
    const identifier = who();
    const dry = await check(app.url, secret, { policy: 'api', identifier, cost: 2, dryRun: true });
    const peek = await check(app.url, secret, { policy: 'api', identifier, cost: 0 });

    expect(dry.body).toMatchObject({ allowed: true, remaining: 0 });
    expect(peek.body).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('applies a live prefix override and ignores an expired one', async () => {
    const premium = await checks('vip', `premium_${who()}`, 4);
    const expired = await checks('vip', 'expired-vip', 2);

    expect(premium.map((a) => (a.body as { allowed: boolean }).allowed)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(premium[0]!.body).toMatchObject({ overrideId: 'ovr_vip', limit: 3 });
    expect(premium[0]!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(expired[0]!.body).not.toHaveProperty('overrideId');
    expect(expired.map((a) => (a.body as { allowed: boolean }).allowed)).toEqual([true, false]);
  });

  it('shadow mode: allowed with shadowDenied and the would-be denier', async () => {
    const [first, second] = await checks('shadowed', who(), 2);

    expect(first!.body).toMatchObject({ allowed: true, reason: 'allowed', shadowDenied: false });
    expect(second!.status).toBe(200);
    expect(second!.body).toMatchObject({
      allowed: true,
      reason: 'shadow',
      shadowDenied: true,
      deniedBy: 'burst',
    });
    expect(second!.headers.get('retry-after')).toBeNull();
  });

  it('candidate rules are decided beside the live ones on their own counters and never deny', async () => {
    const identifier = who();
    const [first, second] = await checks('trial', identifier, 2);

    expect(first!.body).toMatchObject({
      allowed: true,
      candidates: [{ name: 'stricter', allowed: true, remaining: 0 }],
    });
    expect(second!.body).toMatchObject({
      allowed: true,
      rules: [{ name: 'burst', remaining: 1 }],
      candidates: [{ name: 'stricter', allowed: false }],
    });
    // only live rules are in the headers
    expect(Object.keys(items(second!.headers.get('ratelimit-policy')))).toEqual(['burst']);
  });

  it('denies every check of a suspended tenant: 200 reason suspended, 403 problem in gateway mode', async () => {
    await publish(app.t, 'tnt_frozen', [policy('api')], { status: 'suspended' });
    const frozen = await apiKey(app.t, 'tnt_frozen');
    const plain = await check(app.url, frozen, { policy: 'api', identifier: who() });
    const gateway = await check(
      app.url,
      frozen,
      { policy: 'api', identifier: who() },
      {
        headers: { prefer: 'gateway' },
      },
    );

    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ allowed: false, reason: 'suspended', rules: [] });
    expect(plain.headers.get('retry-after')).toBeNull();
    expect(gateway.status).toBe(403);
    expect(gateway.body).toMatchObject({
      type: 'https://sluice.dev/problems/tenant-suspended',
      status: 403,
    });
  });

  it("isolates tenants: another tenant's policy is 404, and the same names count apart", async () => {
    await publish(app.t, 'tnt_b', [
      policy('api', { rules: [bucket('burst', 1)] }),
      policy('only-b'),
    ]);
    const other = await apiKey(app.t, 'tnt_b');
    const identifier = who();

    const notFound = await check(app.url, secret, { policy: 'only-b', identifier });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ type: 'https://sluice.dev/problems/policy-not-found' });

    const [a1, a2] = await checks('api', identifier, 2);
    const b1 = await check(app.url, other, { policy: 'api', identifier });
    expect([a1, a2, b1].map((a) => (a!.body as { allowed: boolean }).allowed)).toEqual([
      true,
      true,
      true,
    ]);
    expect(b1.body).toMatchObject({ limit: 1, remaining: 0 });
  });
});
