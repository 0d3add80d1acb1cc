import type { Algorithm } from '@sluice/algorithms';
import type { CheckResult, SettleResult } from '@sluice/engine';
import type { RuleInput } from '@sluice/policy';
import { readSeconds } from '@sluice/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bearer,
  check,
  policy,
  publish,
  request,
  settle,
  startApp,
  until,
  type TestApp,
} from './support';

// Reserve → settle end to end, for each algorithm: the check charges the estimate, the settle
// applies actual − estimate where the charge went (docs/algorithms.md, "What a settle does").

interface Case {
  algorithm: Algorithm;
  /** 100 units that nothing moves in test time: exact figures. */
  exact: Record<string, number>;
  /**
   * Debt is paid back, and windows roll over, within a test: 10 units a second, or windows of
   * 3 s, long enough that the steps a test takes in one window stay in it on a loaded machine.
   */
  fast: Record<string, number>;
  /** Windows aligned to the epoch, which a check and its settle must not straddle. */
  alignedMs?: number;
  /** The window a refund can miss: fixed and counter windows, a log entry's time in it. */
  windowed: boolean;
}

const FAST_WINDOW_MS = 3000;

const CASES: Case[] = [
  {
    algorithm: 'token_bucket',
    exact: { capacity: 100, refillPerSecond: 0.001 },
    fast: { capacity: 10, refillPerSecond: 10 },
    windowed: false,
  },
  {
    algorithm: 'leaky_bucket',
    exact: { capacity: 100, leakPerSecond: 0.001 },
    fast: { capacity: 10, leakPerSecond: 10 },
    windowed: false,
  },
  {
    algorithm: 'fixed_window',
    exact: { limit: 100, windowMs: 86_400_000 },
    fast: { limit: 10, windowMs: FAST_WINDOW_MS },
    alignedMs: FAST_WINDOW_MS,
    windowed: true,
  },
  {
    algorithm: 'sliding_window_log',
    exact: { limit: 100, windowMs: 86_400_000 },
    fast: { limit: 10, windowMs: FAST_WINDOW_MS },
    windowed: true,
  },
  {
    algorithm: 'sliding_window_counter',
    exact: { limit: 100, windowMs: 86_400_000 },
    fast: { limit: 10, windowMs: FAST_WINDOW_MS },
    alignedMs: FAST_WINDOW_MS,
    windowed: true,
  },
  {
    algorithm: 'gcra',
    exact: { limit: 100, periodMs: 86_400_000 },
    fast: { limit: 10, periodMs: 1000 },
    windowed: false,
  },
];

const rule = (algorithm: Algorithm, params: Record<string, number>) =>
  ({ name: 'r', algorithm, ...params }) as RuleInput;

let app: TestApp;
let secret: string;
let admin: string;
let identifiers = 0;
const who = () => `caller-${(identifiers += 1)}`;

beforeAll(async () => {
  app = await startApp({ DATA_PLANE_USAGE_FLUSH_MS: '100' });
  // the longest timeout: a loaded machine must not turn an inspect or a settle into a 503
  const settings = { redisTimeoutMs: 1000 };
  await publish(
    app.t,
    'tnt_a',
    CASES.flatMap(({ algorithm, exact, fast }) => [
      policy(`${algorithm}-exact`, {
        ...settings,
        reservations: {},
        rules: [rule(algorithm, exact)],
      }),
      policy(`${algorithm}-fast`, {
        ...settings,
        reservations: {},
        rules: [rule(algorithm, fast)],
      }),
      policy(`${algorithm}-expiring`, {
        ...settings,
        reservations: { ttlMs: 1000 },
        rules: [rule(algorithm, exact)],
      }),
    ]).concat(
      // only the usage test checks it: its counters are that test's alone
      policy('usage', {
        ...settings,
        reservations: {},
        rules: [rule('token_bucket', { capacity: 100, refillPerSecond: 0.001 })],
      }),
    ),
  );
  secret = await apiKey(app.t, 'tnt_a');
  admin = await apiKey(app.t, 'tnt_a', { scopes: ['admin'] });
});
afterAll(async () => {
  await app.close();
});

async function checked(policyName: string, identifier: string, cost: number) {
  const answer = await check(app.url, secret, { policy: policyName, identifier, cost });
  expect(answer.status).toBe(200);
  return answer.body as CheckResult;
}

/** An allowed check with a reservation. */
async function reserve(policyName: string, identifier: string, cost: number) {
  const result = await checked(policyName, identifier, cost);
  expect(result).toMatchObject({ allowed: true, reservationId: expect.any(String) });
  return { ...result, reservationId: result.reservationId! };
}

async function settled(reservationId: string, actualCost: number): Promise<SettleResult> {
  const answer = await settle(app.url, secret, { reservationId, actualCost });
  expect(answer.status).toBe(200);
  return answer.body as SettleResult;
}

/** The identifier's state (GET /v1/limits), consuming nothing. */
async function state(policyName: string, identifier: string): Promise<CheckResult> {
  const answer = await request(app.url, `/v1/limits/${policyName}/${identifier}`, {
    headers: bearer(secret),
  });
  expect(answer.status).toBe(200);
  return answer.body as CheckResult;
}

/** Waits until `Date.now()` is in the first quarter of an epoch-aligned window. */
const earlyInWindow = (windowMs: number | undefined) =>
  windowMs === undefined ? undefined : until(() => Date.now() % windowMs < windowMs / 4, 5);

describe.each(CASES)('$algorithm', ({ algorithm, alignedMs, windowed }) => {
  const exact = `${algorithm}-exact`;
  const fast = `${algorithm}-fast`;

  it('refunds unused cost where it was charged', async () => {
    const identifier = who();
    const { reservationId, remaining } = await reserve(exact, identifier, 50);
    expect(remaining).toBe(50);

    const result = await settled(reservationId, 20);
    expect(result).toMatchObject({
      reservationId,
      settled: true,
      alreadySettled: false,
      estimate: 50,
      actualCost: 20,
      rules: [{ name: 'r', algorithm, charged: -30, allowed: true, limit: 100, remaining: 80 }],
    });
    expect((await state(exact, identifier)).remaining).toBe(80);
  });

  it('charges an overrun into debt: denied until it is paid back', async () => {
    // a debt nothing pays back in test time: the next check is denied, however late it comes
    const owing = who();
    const deep = await reserve(exact, owing, 50);
    const owed = await settled(deep.reservationId, 150);
    expect(owed.rules).toEqual([
      expect.objectContaining({ name: 'r', charged: 100, allowed: false }),
    ]);
    expect(owed.rules[0]!.remaining).toBeLessThan(0);
    expect(await checked(exact, owing, 1)).toMatchObject({
      allowed: false,
      deniedBy: 'r',
      retryAfterMs: expect.any(Number),
    });

    // a debt the fast rule pays back within the test
    const identifier = who();
    await earlyInWindow(alignedMs);
    const { reservationId } = await reserve(fast, identifier, 5);
    const result = await settled(reservationId, 25);
    expect(result.rules).toEqual([
      expect.objectContaining({ name: 'r', charged: 20, allowed: false }),
    ]);
    expect(result.rules[0]!.remaining).toBeLessThan(0);

    // paid back: a whole unit is left again
    await until(async () => (await state(fast, identifier)).remaining >= 1, 50);
    expect((await checked(fast, identifier, 1)).allowed).toBe(true);
  });

  it('a second settle changes nothing and says so', async () => {
    const identifier = who();
    const { reservationId } = await reserve(exact, identifier, 50);
    await settled(reservationId, 20);
    // what a settle moves (a leaky bucket's delay and reset move with the clock alone)
    const figures = async () =>
      (await state(exact, identifier)).rules.map(({ allowed, limit, remaining }) => ({
        allowed,
        limit,
        remaining,
      }));
    const before = await figures();

    expect(await settled(reservationId, 90)).toMatchObject({
      alreadySettled: true,
      estimate: 50,
      actualCost: 20,
      rules: [{ name: 'r', charged: 0, remaining: 80 }],
    });
    expect(await figures()).toEqual(before);
  });

  if (windowed) {
    it('a refund after the window rolled over changes nothing', async () => {
      const identifier = who();
      await earlyInWindow(alignedMs);
      const reserved = await reserve(fast, identifier, 5);
      // Redis charged it by the answer: wait past the charged window (fixed, counter) or the
      // log entry's time in the window; then (early in the next window) a check takes 3
      const answered = Date.now();
      await until(() => Date.now() > answered + FAST_WINDOW_MS + 100, 20);
      const now = await checked(fast, identifier, 3);

      const result = await settled(reserved.reservationId, 0);
      const elapsed = Date.now() - now.at;
      expect(result.rules).toEqual([expect.objectContaining({ name: 'r', charged: 0 })]);
      // the current window keeps its 3: the 5 not refunded into it. A counter's previous window
      // (the 5) only decays meanwhile, by its share of the time since the check
      const decayed = Math.floor((5 * elapsed) / FAST_WINDOW_MS);
      expect(result.rules[0]!.remaining - now.remaining).toBeLessThanOrEqual(1 + decayed);
    });
  } else {
    it('a refund never lifts it above its capacity', async () => {
      const identifier = who();
      const { reservationId } = await reserve(exact, identifier, 50);
      const reset = await request(app.url, `/v1/limits/${exact}/${identifier}`, {
        method: 'DELETE',
        headers: bearer(admin),
      });
      expect(reset.status).toBe(204);

      const result = await settled(reservationId, 0);
      expect(result.rules).toEqual([
        expect.objectContaining({ name: 'r', charged: 0, remaining: 100 }),
      ]);
      expect((await state(exact, identifier)).remaining).toBe(100);
    });
  }
});

describe('unsettled reservations', () => {
  it('expire after the policy’s ttlMs and count at their estimate, for every algorithm', async () => {
    const identifier = who();
    const reserved = await Promise.all(
      CASES.map(({ algorithm }) => reserve(`${algorithm}-expiring`, identifier, 30)),
    );
    // the TTL runs from when Redis ran the check: after its start, before its answer
    const answered = Date.now();
    for (const { at, reservationExpiresAt } of reserved) {
      expect(reservationExpiresAt).toBeGreaterThan(at);
      expect(reservationExpiresAt).toBeLessThanOrEqual(answered + 1000 + 1000);
    }
    const expiresAt = Math.max(...reserved.map((r) => r.reservationExpiresAt!));
    await until(() => Date.now() > expiresAt + 50, 50);

    for (const [i, { algorithm }] of CASES.entries()) {
      const answer = await settle(app.url, secret, {
        reservationId: reserved[i]!.reservationId,
        actualCost: 0,
      });
      expect(answer.status, algorithm).toBe(404);
      expect(answer.body).toMatchObject({
        type: 'https://sluice.dev/problems/reservation-not-found',
        status: 404,
      });
      expect((await state(`${algorithm}-expiring`, identifier)).remaining, algorithm).toBe(70);
    }
  });
});

describe('usage', () => {
  it('counts a settled check at its actual cost, a repeated settle changing nothing', async () => {
    const startedAt = Math.floor(Date.now() / 1000);
    const costOf = async () =>
      (
        await readSeconds(
          app.t.redis,
          app.t.prefix,
          'tnt_a',
          'usage',
          startedAt,
          Math.floor(Date.now() / 1000) + 1,
        )
      ).reduce((sum, row) => sum + row.cost, 0);
    /** Usage recorded in memory and not written yet (a flush in flight included). */
    const pending = async () => {
      const text = (await request(app.url, '/metrics')).body as string;
      const line = text.split('\n').find((l) => l.startsWith('sluice_usage_pending_entries '));
      return Number(line?.split(' ')[1]);
    };

    const { reservationId } = await reserve('usage', who(), 40);
    await until(async () => (await costOf()) === 40);
    await settled(reservationId, 65);
    await settled(reservationId, 1);
    // everything recorded is written: a repeat that moved the cost would show by now
    await until(async () => (await pending()) === 0);
    expect(await costOf()).toBe(65);
  });
});
