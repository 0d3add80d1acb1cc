import type { CheckResult } from '@sluice/engine';
import type { RuleInput } from '@sluice/policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bucket,
  check,
  expectInvalid,
  expectProblem,
  policy,
  post,
  PROBLEM,
  publish,
  release,
  request,
  settle,
  startApp,
  type TestApp,
} from './support';

// The settle and release routes' contract: ids, tenants, keys, input, metrics. The settle
// semantics per algorithm are in settle.spec.ts, leases under load in leases.spec.ts.

const inflight: RuleInput = {
  name: 'inflight',
  algorithm: 'concurrency',
  limit: 1,
  leaseTtlMs: 60_000,
};

let app: TestApp;
let secret: string;
let theirs: string;
let identifiers = 0;
const who = () => `caller-${(identifiers += 1)}`;

beforeAll(async () => {
  app = await startApp();
  await publish(app.t, 'tnt_a', [
    policy('llm', {
      id: 'pol_llm',
      reservations: {},
      redisTimeoutMs: 1000,
      rules: [bucket('tokens', 1000), inflight],
    }),
    policy('plain', { id: 'pol_plain', rules: [bucket('tokens', 1000)] }),
  ]);
  // the same policy id in another tenant (a plan template compiled into both)
  await publish(app.t, 'tnt_b', [
    policy('llm', {
      id: 'pol_llm',
      reservations: {},
      redisTimeoutMs: 1000,
      rules: [bucket('tokens', 1000), inflight],
    }),
  ]);
  secret = await apiKey(app.t, 'tnt_a');
  theirs = await apiKey(app.t, 'tnt_b');
});
afterAll(async () => {
  await app.close();
});

async function held(key: string, identifier = who()): Promise<Required<CheckResult>> {
  const answer = await check(app.url, key, { policy: 'llm', identifier, cost: 100 });
  expect(answer.status).toBe(200);
  const result = answer.body as Required<CheckResult>;
  expect(result).toMatchObject({ allowed: true, reservationId: expect.any(String) });
  return result;
}

/** Of the right shape, never handed out. */
const madeUp = (version: 'r1' | 'l1', tenantId: string, policyId: string) =>
  `${version}.${tenantId}.${policyId}.${'A'.repeat(22)}.${'a'.repeat(16)}`;

describe('POST /v1/settle and /v1/release', () => {
  it('answer a settle and a release as the contract says', async () => {
    const check = await held(secret);
    const settled = await settle(app.url, secret, {
      reservationId: check.reservationId,
      actualCost: 40,
    });
    expect(settled.status).toBe(200);
    expect(settled.contentType).toMatch(/^application\/json/);
    // the concurrency rule holds a lease, not a receipt: only the rate rule is settled
    expect(settled.body).toEqual({
      reservationId: check.reservationId,
      settled: true,
      alreadySettled: false,
      estimate: 100,
      actualCost: 40,
      rules: [
        {
          name: 'tokens',
          algorithm: 'token_bucket',
          charged: -60,
          allowed: true,
          limit: 1000,
          remaining: 960,
          resetAt: expect.any(Number),
          retryAfterMs: 0,
        },
      ],
    });
    const released = await release(app.url, secret, { leaseId: check.leaseId });
    expect(released.status).toBe(200);
    expect(released.body).toEqual({ leaseId: check.leaseId, released: true });
  });

  it('another tenant’s ids are not found, and stay intact', async () => {
    const foreign = await held(theirs);
    for (const reservationId of [
      foreign.reservationId,
      // the same parts under the caller's own tenant: no such reservation either
      foreign.reservationId.replace('tnt_b', 'tnt_a'),
    ]) {
      expectProblem(
        await settle(app.url, secret, { reservationId, actualCost: 0 }),
        404,
        `${PROBLEM}reservation-not-found`,
      );
    }
    expectProblem(
      await release(app.url, secret, { leaseId: foreign.leaseId }),
      404,
      `${PROBLEM}lease-not-found`,
    );
    // their reservation and lease were untouched
    const settled = await settle(app.url, theirs, {
      reservationId: foreign.reservationId,
      actualCost: 50,
    });
    expect(settled.body).toMatchObject({ alreadySettled: false, rules: [{ charged: -50 }] });
    expect((await release(app.url, theirs, { leaseId: foreign.leaseId })).body).toMatchObject({
      released: true,
    });
  });

  it('not found: malformed, made-up, of a policy that is gone; 409 without reservations', async () => {
    const settleOf = (reservationId: string) =>
      settle(app.url, secret, { reservationId, actualCost: 1 });
    for (const reservationId of [
      'nope',
      madeUp('r1', 'tnt_a', 'pol_llm'),
      madeUp('r1', 'tnt_a', 'pol_gone'),
      madeUp('l1', 'tnt_a', 'pol_llm'),
    ]) {
      expectProblem(await settleOf(reservationId), 404, `${PROBLEM}reservation-not-found`);
    }
    expectProblem(
      await settleOf(madeUp('r1', 'tnt_a', 'pol_plain')),
      409,
      `${PROBLEM}reservations-disabled`,
    );
    for (const leaseId of [
      'nope',
      madeUp('l1', 'tnt_a', 'pol_gone'),
      madeUp('r1', 'tnt_a', 'pol_llm'),
    ]) {
      expectProblem(await release(app.url, secret, { leaseId }), 404, `${PROBLEM}lease-not-found`);
    }
    // a well-formed lease of a policy without concurrency rules holds nothing: harmless
    expect(
      (await release(app.url, secret, { leaseId: madeUp('l1', 'tnt_a', 'pol_plain') })).body,
    ).toMatchObject({ released: false });
  });

  it('need a key: 401 before the body is read; 403 for a key not allowed on the policy', async () => {
    const check = await held(secret);
    for (const path of ['/v1/settle', '/v1/release']) {
      const answer = await post(app.url, path, undefined, { junk: true });
      expectProblem(answer, 401, `${PROBLEM}unauthorized`);
    }
    const narrow = await apiKey(app.t, 'tnt_a', { policies: ['plain'] });
    expectProblem(
      await settle(app.url, narrow, { reservationId: check.reservationId, actualCost: 1 }),
      403,
      `${PROBLEM}forbidden`,
    );
    expectProblem(
      await release(app.url, narrow, { leaseId: check.leaseId }),
      403,
      `${PROBLEM}forbidden`,
    );
  });

  it('refuse bad input, naming every field', async () => {
    const { reservationId } = await held(secret);
    expectInvalid(await settle(app.url, secret, {}), [
      { field: 'reservationId', message: 'is required' },
      { field: 'actualCost', message: 'is required' },
    ]);
    for (const actualCost of [-1, 1.5, 1_000_000_001, '5', null]) {
      expectInvalid(await settle(app.url, secret, { reservationId, actualCost }), [
        { field: 'actualCost', message: 'must be an integer from 0 to 1000000000' },
      ]);
    }
    for (const bad of ['', 'x'.repeat(257), 42]) {
      expectInvalid(await settle(app.url, secret, { reservationId: bad, actualCost: 1 }), [
        { field: 'reservationId', message: 'must be a string of 1 to 256 characters' },
      ]);
      expectInvalid(await release(app.url, secret, { leaseId: bad }), [
        { field: 'leaseId', message: 'must be a string of 1 to 256 characters' },
      ]);
    }
    expectInvalid(await settle(app.url, secret, { reservationId, actualCost: 1, cost: 2 }), [
      { field: 'cost', message: 'unknown field' },
    ]);
    expectInvalid(await release(app.url, secret, []), [
      { field: 'body', message: 'must be a JSON object' },
    ]);
    expectInvalid(await release(app.url, secret, '{"leaseId":'), [{ field: 'body' }]);
    const text = await post(app.url, '/v1/settle', secret, 'x', {
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(text, 415, 'about:blank');
    // nothing was settled by any of it
    const settled = await settle(app.url, secret, { reservationId, actualCost: 100 });
    expect(settled.body).toMatchObject({ alreadySettled: false });
  });

  it('counts settles and releases by outcome, and how far settles were from estimates', async () => {
    const metric = async (line: string) => {
      const text = (await request(app.url, '/metrics')).body as string;
      return Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${line} `))
          ?.split(' ')[1],
      );
    };
    const names = [
      'sluice_settles_total{outcome="settled"}',
      'sluice_settles_total{outcome="already_settled"}',
      'sluice_settles_total{outcome="not_found"}',
      'sluice_settle_delta_units_total{direction="overrun"}',
      'sluice_settle_delta_units_total{direction="refund"}',
      'sluice_releases_total{outcome="released"}',
      'sluice_releases_total{outcome="not_held"}',
      'sluice_releases_total{outcome="not_found"}',
    ];
    const read = () => Promise.all(names.map(metric));
    const before = await read();

    const over = await held(secret);
    const under = await held(secret);
    await settle(app.url, secret, { reservationId: over.reservationId, actualCost: 130 });
    await settle(app.url, secret, { reservationId: under.reservationId, actualCost: 90 });
    await settle(app.url, secret, { reservationId: under.reservationId, actualCost: 90 });
    await settle(app.url, secret, {
      reservationId: madeUp('r1', 'tnt_a', 'pol_llm'),
      actualCost: 1,
    });
    await release(app.url, secret, { leaseId: over.leaseId });
    await release(app.url, secret, { leaseId: over.leaseId });
    await release(app.url, secret, { leaseId: 'nope' });

    const after = await read();
    expect(after.map((value, i) => value - before[i]!)).toEqual([2, 1, 1, 30, 10, 1, 1, 1]);
  });
});
