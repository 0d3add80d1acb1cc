import type { CheckResult, ReleaseResult } from '@sluice/engine';
import type { RuleInput } from '@sluice/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bearer,
  bucket,
  check,
  policy,
  publish,
  release,
  request,
  startApp,
  until,
  type TestApp,
} from './support';

const inflight = (limit: number, leaseTtlMs = 60_000): RuleInput => ({
  name: 'inflight',
  algorithm: 'concurrency',
  limit,
  leaseTtlMs,
});

const LIMIT = 5;

let app: TestApp;
let secret: string;
let identifiers = 0;
const who = () => `caller-${(identifiers += 1)}`;

beforeAll(async () => {
  app = await startApp();
  const settings = { redisTimeoutMs: 1000 };
  await publish(app.t, 'tnt_a', [
    policy('calls', { ...settings, rules: [inflight(LIMIT)] }),
    policy('llm', {
      ...settings,
      reservations: {},
      rules: [bucket('tokens', 1000), inflight(1)],
    }),
    // long enough that the lease is still held at the next check on a stalled machine
    policy('short', { ...settings, rules: [inflight(1, 5000)] }),
  ]);
  secret = await apiKey(app.t, 'tnt_a');
});
afterAll(async () => {
  await app.close();
});

async function checked(policyName: string, identifier: string, cost = 1): Promise<CheckResult> {
  const answer = await check(app.url, secret, { policy: policyName, identifier, cost });
  expect(answer.status).toBe(200);
  return answer.body as CheckResult;
}

async function released(leaseId: string): Promise<ReleaseResult> {
  const answer = await release(app.url, secret, { leaseId });
  expect(answer.status).toBe(200);
  return answer.body as ReleaseResult;
}

const inFlight = async (policyName: string, identifier: string) => {
  const answer = await request(app.url, `/v1/limits/${policyName}/${identifier}`, {
    headers: bearer(secret),
  });
  const state = answer.body as CheckResult;
  const rule = state.rules.find((r) => r.name === 'inflight');
  return rule!.limit - rule!.remaining;
};

describe('concurrency leases over HTTP', () => {
  it(`200 concurrent callers never hold more than ${LIMIT} leases`, async () => {
    const identifier = who();
    // all at once, nobody releasing: exactly the limit is granted
    const round = await Promise.all(
      Array.from({ length: 200 }, () => checked('calls', identifier)),
    );
    const granted = round.filter((result) => result.allowed);
    expect(granted).toHaveLength(LIMIT);
    expect(new Set(granted.map((result) => result.leaseId)).size).toBe(LIMIT);
    expect(round.filter((result) => !result.allowed).every((r) => r.deniedBy === 'inflight')).toBe(
      true,
    );
    for (const { leaseId } of granted)
      expect(await released(leaseId!)).toMatchObject({ released: true });

    // then with churn: each caller that gets a slot holds it a moment and releases it
    let holding = 0;
    let most = 0;
    let served = 0;
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        const result = await checked('calls', identifier);
        if (!result.allowed) return;
        holding += 1;
        most = Math.max(most, holding);
        served += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        // counted out before the release is sent: the server frees the slot only afterwards
        holding -= 1;
        expect(await released(result.leaseId!)).toMatchObject({ released: true });
      }),
    );
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(served).toBeGreaterThanOrEqual(LIMIT);
    expect(await inFlight('calls', identifier)).toBe(0);
  });

  it('answers a concurrency denial with its own wording and headers in gateway mode', async () => {
    const identifier = who();
    const held = await checked('llm', identifier, 100);
    expect(held).toMatchObject({ allowed: true, leaseId: expect.any(String) });

    const denied = await check(
      app.url,
      secret,
      { policy: 'llm', identifier, cost: 100 },
      { headers: { prefer: 'gateway' } },
    );
    expect(denied.status).toBe(429);
    expect(denied.body).toMatchObject({
      type: 'https://sluice.dev/problems/rate-limited',
      detail: expect.stringMatching(
        /^Limit of 1 request in flight reached\. Retry after \d+ seconds\.$/,
      ),
      'violated-policies': ['inflight'],
    });
    expect(denied.headers.get('ratelimit-policy')).toBe(
      '"tokens";q=1000;w=1000000, "inflight";q=1;qu="concurrent-requests"',
    );
    expect(denied.headers.get('ratelimit')).toMatch(/^"tokens";r=900;t=\d+, "inflight";r=0;t=\d+$/);
    expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0);
    // the denial took neither a lease nor tokens
    expect(await released(held.leaseId!)).toMatchObject({ released: true });
    expect(await checked('llm', identifier, 0)).toMatchObject({
      rules: [
        { name: 'tokens', remaining: 900 },
        { name: 'inflight', remaining: 1 },
      ],
    });
  });

  it('a lease frees itself at expiry; a release afterwards is harmless', async () => {
    const identifier = who();
    const held = await checked('short', identifier);
    expect((await checked('short', identifier)).allowed).toBe(false);
    await until(() => Date.now() > held.leaseExpiresAt! + 50, 50);

    expect(await released(held.leaseId!)).toEqual({ leaseId: held.leaseId, released: false });
    expect((await checked('short', identifier)).allowed).toBe(true);
  });

  it('a reset frees the identifier’s leases', async () => {
    const identifier = who();
    const admin = await apiKey(app.t, 'tnt_a', { scopes: ['admin'] });
    await checked('llm', identifier, 10);
    expect(await inFlight('llm', identifier)).toBe(1);

    const reset = await request(app.url, `/v1/limits/llm/${identifier}`, {
      method: 'DELETE',
      headers: bearer(admin),
    });
    expect(reset.status).toBe(204);
    expect(await inFlight('llm', identifier)).toBe(0);
  });
});
