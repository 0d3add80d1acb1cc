import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { newNonce, type AnyRuleSpec, type RuleSpec } from '../src/index';

/** Longest time step worth taking for a rule: a few of its windows / refill times. */
export function horizonUs(rule: AnyRuleSpec): number {
  switch (rule.algorithm) {
    case 'token_bucket':
      return Math.ceil((rule.capacity / rule.refillPerSecond) * 1e6);
    case 'leaky_bucket':
      return Math.ceil((rule.capacity / rule.leakPerSecond) * 1e6);
    case 'fixed_window':
      return rule.calendar
        ? (rule.calendar.unit === 'day' ? 26 : 32 * 24) * 3_600_000_000
        : rule.windowMs * 1000;
    case 'sliding_window_log':
    case 'sliding_window_counter':
      return rule.windowMs * 1000;
    case 'gcra':
      return rule.periodMs * 1000;
    case 'concurrency':
      return rule.leaseTtlMs * 1000;
  }
}

/** What a rule admits at once: its capacity, limit or burst (a concurrency rule's leases). */
export function capacityOf(rule: AnyRuleSpec): number {
  switch (rule.algorithm) {
    case 'token_bucket':
    case 'leaky_bucket':
      return rule.capacity;
    case 'gcra':
      return rule.burst ?? rule.limit;
    default:
      return rule.limit;
  }
}

/** A lease nonce for a concurrency rule's check (other rules ignore it). */
export function leaseOf(rule: AnyRuleSpec): string | undefined {
  return rule.algorithm === 'concurrency' ? newNonce() : undefined;
}

const limit = fc.integer({ min: 1, max: 12 });
const windowMs = fc.oneof(fc.constantFrom(1000, 60_000), fc.integer({ min: 1000, max: 120_000 }));
/** Round rates, plus arbitrary doubles whose products rarely come out even. */
const rate = (max: number) =>
  fc.oneof(
    fc.constantFrom(0.5, 1, 3, 10),
    fc.double({ min: 0.05, max, noNaN: true, noDefaultInfinity: true }),
  );

export const tokenBucketRule = fc.record({
  algorithm: fc.constant('token_bucket' as const),
  capacity: limit,
  refillPerSecond: rate(50),
});
export const leakyBucketRule = fc.record({
  algorithm: fc.constant('leaky_bucket' as const),
  capacity: limit,
  leakPerSecond: rate(2000),
});
export const fixedWindowRule = fc.record({
  algorithm: fc.constant('fixed_window' as const),
  limit,
  windowMs,
});
export const calendarWindowRule = fc.record({
  algorithm: fc.constant('fixed_window' as const),
  limit,
  calendar: fc.record({
    unit: fc.constantFrom('day' as const, 'month' as const),
    timeZone: fc.constantFrom(
      'UTC',
      'Europe/Paris',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
    ),
  }),
});
export const slidingLogRule = fc.record({
  algorithm: fc.constant('sliding_window_log' as const),
  limit,
  windowMs,
});
export const slidingCounterRule = fc.record({
  algorithm: fc.constant('sliding_window_counter' as const),
  limit,
  windowMs,
});
export const gcraRule = fc.record(
  {
    algorithm: fc.constant('gcra' as const),
    limit,
    periodMs: windowMs,
    burst: limit,
  },
  { requiredKeys: ['algorithm', 'limit', 'periodMs'] },
);

export const concurrencyRule = fc.record({
  algorithm: fc.constant('concurrency' as const),
  limit,
  leaseTtlMs: windowMs,
});

/** The rate rules, which a reservation charges and settles. */
export const rateRuleArbitraries: Record<string, fc.Arbitrary<RuleSpec>> = {
  token_bucket: tokenBucketRule,
  leaky_bucket: leakyBucketRule,
  fixed_window: fixedWindowRule,
  'fixed-window (calendar)': calendarWindowRule,
  sliding_window_log: slidingLogRule,
  sliding_window_counter: slidingCounterRule,
  gcra: gcraRule,
};
export const ruleArbitraries: Record<string, fc.Arbitrary<AnyRuleSpec>> = {
  ...rateRuleArbitraries,
  concurrency: concurrencyRule,
};
export const anyRule = fc.oneof(...Object.values(ruleArbitraries));

/** Start times: anywhere in 2020..2030, or just before DST changes and month ends. */
export const startUs = fc.oneof(
  fc.integer({ min: 1_577_836_800_000_000, max: 1_893_456_000_000_000 }),
  fc
    .constantFrom(
      Date.UTC(2025, 2, 29, 22), // Europe/Paris springs forward on Mar 30
      Date.UTC(2025, 9, 25, 22), // ... and falls back on Oct 26
      Date.UTC(2025, 2, 8, 23), // America/New_York: Mar 9
      Date.UTC(2025, 3, 5, 10), // Australia/Lord_Howe: 30-minute shift on Apr 6
      Date.UTC(2024, 1, 28, 12), // leap February
    )
    .chain((ms) => fc.integer({ min: 0, max: 7_200_000_000 }).map((us) => ms * 1000 + us)),
);

/** Steps of time (>= 0, often 0 or tiny, sometimes several windows) and costs around the limit. */
export function steps(rule: AnyRuleSpec, maxLength = 40) {
  const horizon = horizonUs(rule);
  const capacity = capacityOf(rule);
  return fc.array(
    fc.record({
      dtUs: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: Math.ceil(horizon / 4) }),
        fc.integer({ min: 0, max: horizon * 3 }),
      ),
      cost: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: capacity + 2 })),
    }),
    { minLength: 1, maxLength },
  );
}

/** Everything a script could change about keys: value (DUMP) and absolute expiry. */
export async function snapshot(redis: Redis, keys: readonly string[]): Promise<unknown[]> {
  return Promise.all(
    keys.flatMap((key) => [redis.dumpBuffer(key), redis.call('PEXPIRETIME', key)]),
  );
}

let counter = 0;
/** A name not used before in this test file. */
export function unique(label: string): string {
  counter += 1;
  return `${label}${counter}`;
}

/** The Redis server's clock in whole ms, as PEXPIRE computes expiry times from it. */
export async function serverMs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * Asserts each key expires exactly `ttlMs` after the script ran (its clock lies between
 * `beforeMs`, read before it, and the server time read here), then removes the TTLs: they run on
 * the server's real clock while these tests inject theirs, so a short TTL must not lapse between
 * two injected instants. Returns false when a key was already gone - legitimately, once its TTL
 * could have run out - after deleting its siblings, so the caller forgets the state too.
 */
export async function checkExpiryAndPersist(
  redis: Redis,
  keys: readonly string[],
  ttlMs: number,
  beforeMs: number,
): Promise<boolean> {
  const transaction = redis.multi();
  for (const key of keys) transaction.call('PEXPIRETIME', key);
  for (const key of keys) transaction.persist(key);
  const replies = (await transaction.exec()) ?? [];
  const afterMs = await serverMs(redis);
  const values = replies.map(([error, value]) => error ?? value);
  const expiries = values.slice(0, keys.length);
  const persisted = values.slice(keys.length);
  for (const expiry of expiries) {
    const gone = expiry === -2 && afterMs >= beforeMs + ttlMs;
    const exact =
      typeof expiry === 'number' && expiry >= beforeMs + ttlMs && expiry <= afterMs + ttlMs;
    if (!gone && !exact) {
      throw new Error(
        `expiry ${String(expiry)} is not ${ttlMs} ms after [${beforeMs}, ${afterMs}]`,
      );
    }
  }
  if (persisted.every((reply) => reply === 1)) return true;
  await redis.del(...keys);
  return false;
}
