import { createTestRedis, type TestRedis } from '@sluice/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  addUsage,
  decisionLogKey,
  emptyUsage,
  keyLastUsedKey,
  readActiveMinutes,
  readActivePolicies,
  readDecisionLog,
  readKeyLastUsed,
  readSeconds,
  readTopCost,
  readTopDenied,
  topCostKey,
  topDeniedKey,
  usageActiveKey,
  UsageRecorder,
  usageSecondKey,
  type DecisionEvent,
  type UsageRecorderOptions,
} from '../src/index';
import { BASE_MS, BASE_SECOND, decision, denial, dumpKeys, sequence } from './support';

let t: TestRedis;

beforeEach(() => {
  t = createTestRedis('usage');
});

afterEach(async () => {
  await t.cleanup();
});

function recorder(options: Partial<UsageRecorderOptions> = {}): UsageRecorder {
  return new UsageRecorder({ redis: t.redis, prefix: t.prefix, allowSampleRate: 0, ...options });
}

/** A mixed stream over five seconds: allows, two denial reasons, shadow and candidate denials. */
function mixedEvents(count: number): DecisionEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const at = BASE_MS + (i % 5) * 1000 + (i % 7) * 100;
    const candidates = i % 12 === 0 ? ['cand-a', 'cand-b'] : ['cand-a'];
    const common = {
      at,
      cost: i % 4,
      candidateDenied: i % 6 === 0,
      candidatesDeniedBy: i % 6 === 0 ? candidates : undefined,
      identifier: `user-${i % 9}`,
    };
    if (i % 3 === 0)
      return denial({ ...common, deniedBy: i % 2 === 0 ? 'per-second' : 'in-flight' });
    if (i % 10 === 1) return denial({ ...common, reason: 'suspended', deniedBy: undefined });
    if (i % 4 === 2) {
      return decision({ ...common, reason: 'shadow', shadowDenied: true, deniedBy: 'per-day' });
    }
    if (i % 11 === 5) return decision({ ...common, reason: 'fail-open' });
    return decision(common);
  });
}

const settle = { tenantId: 'tnt_a', policy: 'api', keyId: 'key_a' };

/** The Redis clock in ms, as Redis dates the expiries it sets. */
async function redisNowMs(): Promise<number> {
  const [seconds, micros] = await t.redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

function recordAll(target: UsageRecorder, events: readonly DecisionEvent[]): void {
  for (const event of events) target.record(event);
}

describe('per-second counters', () => {
  it('add up exactly across several flushes and seconds, zero seconds filled', async () => {
    const events = mixedEvents(600);
    const usage = recorder();
    for (let chunk = 0; chunk < 4; chunk += 1) {
      recordAll(usage, events.slice(chunk * 150, (chunk + 1) * 150));
      await usage.flush();
    }

    const rows = await readSeconds(t.redis, t.prefix, 'tnt_a', 'api', BASE_SECOND, BASE_SECOND + 5);
    const expected = [0, 1, 2, 3, 4, 5].map((offset) => {
      const inSecond = events.filter((e) => Math.floor(e.at / 1000) === BASE_SECOND + offset);
      const denied = inSecond.filter((e) => !e.allowed);
      const tally = (names: (string | undefined)[]) => {
        const counts: Record<string, number> = {};
        for (const name of names) if (name !== undefined) counts[name] = (counts[name] ?? 0) + 1;
        return counts;
      };
      const shadow = inSecond.filter((e) => e.shadowDenied);
      return {
        second: BASE_SECOND + offset,
        allowed: inSecond.length - denied.length,
        denied: denied.length,
        deniedByReason: tally(denied.map((e) => e.reason)),
        deniedByRule: tally(denied.map((e) => e.deniedBy)),
        shadowDenied: shadow.length,
        shadowDeniedByRule: tally(shadow.map((e) => e.deniedBy)),
        candidateDenied: inSecond.filter((e) => e.candidateDenied).length,
        candidateDeniedByRule: tally(inSecond.flatMap((e) => e.candidatesDeniedBy ?? [])),
        failOpen: inSecond.filter((e) => e.reason === 'fail-open').length,
        cost: inSecond.filter((e) => e.allowed).reduce((sum, e) => sum + e.cost, 0),
      };
    });
    expect(rows).toEqual(expected);
    // the stream exercises every reason and rule (suspended only in the second second)
    expect(expected[1]!.deniedByReason).toEqual({ rule: 40, suspended: 40 });
    const all = expected.reduce((sum, row) => addUsage(sum, row), emptyUsage());
    expect(Object.keys(all.deniedByRule).sort()).toEqual(['in-flight', 'per-second']);
    expect(all.shadowDeniedByRule).toEqual({ 'per-day': all.shadowDenied });
    expect(all.candidateDeniedByRule['cand-a']).toBe(all.candidateDenied);
    expect(all.candidateDeniedByRule['cand-b']).toBeGreaterThan(0);
    expect(all.failOpen).toBeGreaterThan(0);
    expect(usage.stats()).toMatchObject({ eventsRecorded: 600, flushes: 4, flushFailures: 0 });
  });

  it("moves a settled reservation's cost from the estimate to the actual cost", async () => {
    const usage = recorder();
    usage.record(decision({ at: BASE_MS, cost: 1000 }));
    await usage.flush();
    // an overrun settled in the same second, a refund two seconds later
    usage.recordSettle({ ...settle, at: BASE_MS + 10, estimate: 1000, actualCost: 1300 });
    usage.recordSettle({ ...settle, at: BASE_MS + 2000, estimate: 500, actualCost: 200 });
    usage.recordSettle({ ...settle, at: BASE_MS + 3000, estimate: 7, actualCost: 7 });
    await usage.flush();

    const rows = await readSeconds(t.redis, t.prefix, 'tnt_a', 'api', BASE_SECOND, BASE_SECOND + 2);
    expect(rows.map((row) => row.cost)).toEqual([1300, 0, -300]);
    // a settle is no decision: it counts nothing as allowed or denied
    expect(rows.map((row) => row.allowed)).toEqual([1, 0, 0]);
    expect(usage.stats()).toMatchObject({ eventsRecorded: 1, settlesRecorded: 3 });
  });

  it('ignores a malformed settle event without throwing', () => {
    const usage = recorder();
    usage.recordSettle({ ...settle, at: BASE_MS, estimate: -1, actualCost: 2 });
    usage.recordSettle({
      ...settle,
      tenantId: 'no {braces}',
      at: BASE_MS,
      estimate: 1,
      actualCost: 2,
    });
    expect(usage.stats()).toMatchObject({ settlesRecorded: 0, eventsInvalid: 2 });
  });

  it('keeps tenants and policies apart', async () => {
    const usage = recorder();
    usage.record(decision({ tenantId: 'tnt_a', policy: 'api' }));
    usage.record(decision({ tenantId: 'tnt_a', policy: 'login' }));
    usage.record(decision({ tenantId: 'tnt_a', policy: 'login' }));
    usage.record(denial({ tenantId: 'tnt_b', policy: 'api' }));
    await usage.flush();

    const allowed = async (tenantId: string, policy: string) =>
      (await readSeconds(t.redis, t.prefix, tenantId, policy, BASE_SECOND, BASE_SECOND))[0];
    expect(await allowed('tnt_a', 'api')).toMatchObject({ allowed: 1, denied: 0 });
    expect(await allowed('tnt_a', 'login')).toMatchObject({ allowed: 2, denied: 0 });
    expect(await allowed('tnt_b', 'api')).toMatchObject({ allowed: 0, denied: 1 });
  });
});

describe('flushing', () => {
  it('leaves the same Redis state whether the stream is flushed once or many times', async () => {
    const other = createTestRedis('usage');
    try {
      const events = mixedEvents(400).map((event, i) => ({
        ...event,
        keyId: `key_${i % 3}`,
        at: event.at + (i % 11),
      }));
      const options = { allowSampleRate: 0.5, random: sequence([0.2, 0.7, 0.4, 0.9, 0.1]) };
      const once = recorder(options);
      recordAll(once, events);
      await once.flush();

      const many = new UsageRecorder({
        redis: other.redis,
        prefix: other.prefix,
        ...options,
        random: sequence([0.2, 0.7, 0.4, 0.9, 0.1]),
      });
      for (let i = 0; i < events.length; i += 7) {
        recordAll(many, events.slice(i, i + 7));
        await many.flush();
      }

      const state = await dumpKeys(t.redis, t.prefix);
      // five seconds, one top-denied and one top-cost minute, the log, last-used, the minute's
      // active set
      expect(Object.keys(state)).toHaveLength(10);
      expect(await dumpKeys(other.redis, other.prefix)).toEqual(state);
    } finally {
      await other.cleanup();
    }
  });

  it('retries only the commands that failed when Redis refuses some of a pipeline', async () => {
    const blocked = usageSecondKey(t.prefix, 'tnt_a', 'api', BASE_SECOND + 1);
    await t.redis.set(blocked, 'not a hash'); // HINCRBY on it fails with WRONGTYPE
    const usage = recorder();
    for (let i = 0; i < 6; i += 1) usage.record(decision({ at: BASE_MS + (i % 2) * 1000 }));
    await expect(usage.flush()).rejects.toThrow(/WRONGTYPE/);

    await t.redis.del(blocked);
    usage.record(decision());
    await usage.flush();
    const rows = await readSeconds(t.redis, t.prefix, 'tnt_a', 'api', BASE_SECOND, BASE_SECOND + 1);
    expect(rows.map((row) => [row.allowed, row.cost])).toEqual([
      [4, 4],
      [3, 3],
    ]);
    expect(await t.redis.expiretime(blocked)).toBe(BASE_SECOND + 2 + 900);
  });

  it('sends no command when nothing (valid) was recorded', async () => {
    const pipeline = vi.spyOn(t.redis, 'pipeline');
    const usage = recorder();
    await usage.flush();
    usage.record(decision({ tenantId: 'not a valid id' }));
    await usage.flush();
    expect(pipeline).not.toHaveBeenCalled();
    expect(usage.stats()).toMatchObject({ commandsSent: 0, flushes: 0, eventsInvalid: 1 });

    usage.record(decision());
    await usage.flush();
    await usage.flush();
    expect(pipeline).toHaveBeenCalledTimes(1);
  });

  it('never overlaps flushes, and stop() flushes what is left', async () => {
    // instrument the real pipelines to see how many are in flight at once
    let inFlight = 0;
    let mostInFlight = 0;
    const pipeline = t.redis.pipeline.bind(t.redis);
    vi.spyOn(t.redis, 'pipeline').mockImplementation(() => {
      const real = pipeline();
      const exec = real.exec.bind(real);
      return Object.assign(real, {
        exec: async () => {
          inFlight += 1;
          mostInFlight = Math.max(mostInFlight, inFlight);
          await new Promise((resolve) => setImmediate(resolve));
          try {
            return await exec();
          } finally {
            inFlight -= 1;
          }
        },
      });
    });
    const usage = recorder();
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 5; i += 1) {
      usage.record(decision());
      flushes.push(usage.flush());
    }
    await Promise.all(flushes);
    usage.record(decision());
    usage.start();
    await usage.stop();

    expect(mostInFlight).toBe(1);
    const [row] = await readSeconds(t.redis, t.prefix, 'tnt_a', 'api', BASE_SECOND, BASE_SECOND);
    expect(row?.allowed).toBe(6);
    expect(usage.stats()).toMatchObject({ pendingEntries: 0, flushFailures: 0 });
  });

  it('sets the retention TTLs: window end + retention, the log after its last write', async () => {
    const usage = recorder({ retentionSeconds: 600, allowSampleRate: 1 });
    usage.record(decision({ at: BASE_MS + 2500 }));
    usage.record(denial({ at: BASE_MS + 2600 }));
    // the log's expiry is relative to its write: bounded by the Redis clock around the flush
    const flushStarted = await redisNowMs();
    await usage.flush();
    const flushEnded = await redisNowMs();

    const minute = BASE_MS / 60_000;
    const secondKey = usageSecondKey(t.prefix, 'tnt_a', 'api', BASE_SECOND + 2);
    expect(await t.redis.expiretime(secondKey)).toBe(BASE_SECOND + 3 + 600);
    const topKey = topDeniedKey(t.prefix, 'tnt_a', 'api', minute);
    expect(await t.redis.expiretime(topKey)).toBe((minute + 1) * 60 + 600);
    const logExpireAt = await t.redis.pexpiretime(decisionLogKey(t.prefix, 'tnt_a', 'api'));
    expect(logExpireAt).toBeGreaterThanOrEqual(flushStarted + 600_000);
    expect(logExpireAt).toBeLessThanOrEqual(flushEnded + 600_000);
    // last-used times are kept as long as the key exists
    expect(await t.redis.ttl(keyLastUsedKey(t.prefix, 'tnt_a'))).toBe(-1);
    // the active set outlives every second it points at
    expect(await t.redis.expiretime(usageActiveKey(t.prefix, minute))).toBe(
      (minute + 1) * 60 + 600,
    );
  });
});

describe('active sets', () => {
  it('list every (tenant, policy) with usage per minute, across flushes, with its expiry', async () => {
    const usage = recorder({ retentionSeconds: 600 });
    const minute = BASE_MS / 60_000;
    usage.record(decision({ tenantId: 'tnt_a', policy: 'api' }));
    usage.record(denial({ tenantId: 'tnt_b', policy: 'api', at: BASE_MS + 59_999 }));
    await usage.flush();
    usage.record(decision({ tenantId: 'tnt_a', policy: 'login', at: BASE_MS + 60_000 }));
    usage.record(decision({ tenantId: 'tnt_a', policy: 'api', at: BASE_MS + 1000 }));
    // a settle moves cost: its minute counts as active too
    usage.recordSettle({
      ...settle,
      policy: 'llm',
      at: BASE_MS + 2000,
      estimate: 5,
      actualCost: 9,
    });
    await usage.flush();

    expect(await readActivePolicies(t.redis, t.prefix, minute)).toEqual({
      minute,
      active: [
        { tenantId: 'tnt_a', policy: 'api' },
        { tenantId: 'tnt_a', policy: 'llm' },
        { tenantId: 'tnt_b', policy: 'api' },
      ],
      // the minute's first second expires at its end + 1 + retention
      secondsExpireAt: minute * 60 + 1 + 600,
    });
    expect(await readActivePolicies(t.redis, t.prefix, minute + 1)).toMatchObject({
      active: [{ tenantId: 'tnt_a', policy: 'login' }],
    });
    expect(await readActivePolicies(t.redis, t.prefix, minute + 2)).toEqual({
      minute: minute + 2,
      active: [],
      secondsExpireAt: undefined,
    });
    expect(
      await readActiveMinutes(
        t.redis,
        t.prefix,
        'tnt_a',
        ['api', 'login', 'none'],
        minute,
        minute + 2,
      ),
    ).toEqual(
      new Map([
        ['api', [minute]],
        ['login', [minute + 1]],
        ['none', []],
      ]),
    );
    // one active set per minute, whatever the number of tenants and flushes
    const keys = Object.keys(await dumpKeys(t.redis, t.prefix));
    expect(keys.filter((key) => key.startsWith('usage-active:'))).toEqual([
      usageActiveKey('', minute),
      usageActiveKey('', minute + 1),
    ]);
  });

  it('are retried when their SADD fails, while the counters are written once', async () => {
    const minute = BASE_MS / 60_000;
    const blocked = usageActiveKey(t.prefix, minute);
    await t.redis.set(blocked, 'not a set'); // SADD on it fails with WRONGTYPE
    const usage = recorder();
    usage.record(decision({ at: BASE_MS + 3000 }));
    await expect(usage.flush()).rejects.toThrow(/WRONGTYPE/);

    await t.redis.del(blocked);
    await usage.flush();
    expect(await readActivePolicies(t.redis, t.prefix, minute)).toMatchObject({
      active: [{ tenantId: 'tnt_a', policy: 'api' }],
    });
    const [row] = await readSeconds(
      t.redis,
      t.prefix,
      'tnt_a',
      'api',
      BASE_SECOND + 3,
      BASE_SECOND + 3,
    );
    expect(row).toMatchObject({ allowed: 1, cost: 1 });
  });
});

describe('top denied identifiers', () => {
  it('stay bounded to topK, ordered by denials, across flushes and minutes', async () => {
    const usage = recorder({ topK: 3 });
    const perFlush: Record<string, number> = { a: 4, b: 3, c: 2, d: 1, e: 1 };
    for (let flush = 0; flush < 3; flush += 1) {
      for (const [identifier, times] of Object.entries(perFlush)) {
        for (let i = 0; i < times; i += 1) usage.record(denial({ identifier }));
      }
      // allowed decisions never enter the top-K
      usage.record(decision({ identifier: 'z' }));
      await usage.flush();
    }
    const minute = BASE_MS / 60_000;
    expect(await t.redis.zcard(topDeniedKey(t.prefix, 'tnt_a', 'api', minute))).toBe(3);
    expect(await readTopDenied(t.redis, t.prefix, 'tnt_a', 'api', minute, minute, 10)).toEqual([
      { identifier: 'a', denied: 12 },
      { identifier: 'b', denied: 9 },
      { identifier: 'c', denied: 6 },
    ]);

    for (let i = 0; i < 10; i += 1) usage.record(denial({ identifier: 'y', at: BASE_MS + 60_000 }));
    await usage.flush();
    expect(await readTopDenied(t.redis, t.prefix, 'tnt_a', 'api', minute, minute + 1, 2)).toEqual([
      { identifier: 'a', denied: 12 },
      { identifier: 'y', denied: 10 },
    ]);
  });
});

describe('heavy hitters by cost', () => {
  it('sum what allowed checks charged per minute, bounded to topK, costliest first', async () => {
    const usage = recorder({ topK: 3 });
    const perFlush: Record<string, number> = { a: 40, b: 30, c: 20, d: 5, e: 1 };
    for (let flush = 0; flush < 3; flush += 1) {
      for (const [identifier, cost] of Object.entries(perFlush)) {
        usage.record(decision({ identifier, cost }));
      }
      // a denial charges nothing, nor does a check of cost 0
      usage.record(denial({ identifier: 'z', cost: 1000 }));
      usage.record(decision({ identifier: 'y', cost: 0 }));
      await usage.flush();
    }
    const minute = BASE_MS / 60_000;
    const key = topCostKey(t.prefix, 'tnt_a', 'api', minute);
    expect(await t.redis.zcard(key)).toBe(3);
    expect(await t.redis.expiretime(key)).toBe((minute + 1) * 60 + 900);
    expect(await readTopCost(t.redis, t.prefix, 'tnt_a', 'api', minute, minute, 2)).toEqual([
      { identifier: 'a', cost: 120 },
      { identifier: 'b', cost: 90 },
    ]);
  });

  it('keep a flush’s heavy hitter among many one-off identifiers, pruning the cheapest', async () => {
    // topK 100: a flush holds 1,000 charged identifiers per minute, pruned at 2,000
    const usage = recorder({ topK: 100 });
    for (let i = 0; i < 5000; i += 1) {
      usage.record(decision({ identifier: `once-${i}`, cost: 1 }));
      if (i % 100 === 0) usage.record(decision({ identifier: 'heavy', cost: 10 }));
    }
    await usage.flush();
    const minute = BASE_MS / 60_000;
    const [first] = await readTopCost(t.redis, t.prefix, 'tnt_a', 'api', minute, minute, 1);
    expect(first).toEqual({ identifier: 'heavy', cost: 500 });
    expect(await t.redis.zcard(topCostKey(t.prefix, 'tnt_a', 'api', minute))).toBe(100);
    expect(usage.stats().prunedTopCost).toBeGreaterThan(0);
    expect(usage.stats().pendingEntries).toBe(0);
  });
});

describe('decision log', () => {
  it('holds every denial and shadow denial, and exactly the sampled allows, newest first', async () => {
    // plain allows draw 0.1, 0.3, 0.5, 0.2 in turn: the 1st and 4th of every four are sampled
    const usage = recorder({ allowSampleRate: 0.25, random: sequence([0.1, 0.3, 0.5, 0.2]) });
    const events: DecisionEvent[] = [];
    for (let i = 0; i < 40; i += 1) {
      const at = BASE_MS + i * 10;
      if (i % 5 === 0) events.push(denial({ at, identifier: `d-${i}`, overrideId: 'ovr_1' }));
      else if (i % 7 === 0) events.push(decision({ at, reason: 'shadow', shadowDenied: true }));
      else events.push(decision({ at, identifier: `a-${i}` }));
    }
    recordAll(usage, events.slice(0, 20));
    await usage.flush();
    recordAll(usage, events.slice(20));
    await usage.flush();

    let allowIndex = 0;
    const expected = events.filter((event) => {
      if (!event.allowed || event.shadowDenied) return true;
      return [0, 3].includes(allowIndex++ % 4);
    });
    const pages: string[][] = [];
    let before: string | undefined;
    do {
      const page = await readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', {
        count: 4,
        ...(before === undefined ? {} : { before }),
      });
      pages.push(page.entries.map((entry) => entry.id));
      for (const entry of page.entries) expect(typeof entry.id).toBe('string');
      before = page.next;
    } while (before !== undefined);

    const { entries } = await readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', { count: 1000 });
    expect(pages.flat()).toEqual(entries.map((entry) => entry.id));
    expect(entries.map(({ id: _id, ...rest }) => rest)).toEqual(
      expected.reverse().map((event) => ({
        at: event.at,
        identifier: event.identifier,
        outcome: event.allowed ? 'allowed' : 'denied',
        reason: event.reason,
        ...(event.deniedBy === undefined ? {} : { deniedBy: event.deniedBy }),
        ...(event.overrideId === undefined ? {} : { overrideId: event.overrideId }),
        cost: event.cost,
        shadowDenied: event.shadowDenied,
        candidatesDeniedBy: [],
        rules: [],
      })),
    );
    expect(entries.filter((entry) => entry.outcome === 'denied')).toHaveLength(8);
  });

  it("keeps a decision's figures: the answer's headline, each rule's, the candidates that denied", async () => {
    const usage = recorder();
    const rule = {
      name: 'burst',
      algorithm: 'token_bucket',
      allowed: false,
      limit: 5,
      remaining: 0,
      resetAt: BASE_MS + 5000,
      retryAfterMs: 1000,
      quota: 5,
      windowMs: 5000,
      // the engine's objects hold more than the log keeps
      delayMs: 3,
    };
    const answer = { limit: 5, remaining: 0, resetAt: BASE_MS + 5000, retryAfterMs: 1000 };
    usage.record(
      denial({
        candidateDenied: true,
        candidatesDeniedBy: ['next', 'later'],
        rules: [rule],
        answer: { ...answer, identifier: 'user-1', policy: 'api' } as typeof answer,
      }),
    );
    usage.record(decision({ at: BASE_MS + 5000, reason: 'shadow', shadowDenied: true }));
    await usage.flush();

    const { entries } = await readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', { count: 10 });
    const { delayMs: _kept, ...logged } = rule;
    expect(entries.map(({ id: _id, ...rest }) => rest)).toEqual([
      expect.objectContaining({ shadowDenied: true, rules: [], candidatesDeniedBy: [] }),
      expect.objectContaining({
        shadowDenied: false,
        candidatesDeniedBy: ['next', 'later'],
        answer,
        rules: [logged],
      }),
    ]);
    // an entry is written after its decision: `notBefore` bounds the read by the stream ids
    const none = await readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', {
      count: 10,
      notBefore: Date.now() + 60_000,
    });
    expect(none.entries).toEqual([]);
    const recent = await readDecisionLog(t.redis, t.prefix, 'tnt_a', 'api', {
      count: 10,
      notBefore: Date.now() - 60_000,
    });
    expect(recent.entries).toHaveLength(2);
  });

  it('is capped: one flush sends only the newest decisionLogMaxLen entries, MAXLEN ~ trims', async () => {
    const usage = recorder({ decisionLogMaxLen: 150 });
    const key = decisionLogKey(t.prefix, 'tnt_a', 'api');
    recordAll(
      usage,
      Array.from({ length: 400 }, (_, i) => denial({ identifier: `d-${i}` })),
    );
    await usage.flush();
    expect(await t.redis.xlen(key)).toBe(150);
    const [newest] = await t.redis.xrevrange(key, '+', '-', 'COUNT', 1);
    expect(newest?.[1]).toContain('d-399');

    for (let flush = 0; flush < 12; flush += 1) {
      recordAll(
        usage,
        Array.from({ length: 150 }, () => denial()),
      );
      await usage.flush();
    }
    // `~` trims whole stream nodes only, so the length stays within one node above the cap
    const [, nodeSize] = (await t.redis.config('GET', 'stream-node-max-entries')) as string[];
    const length = await t.redis.xlen(key);
    expect(length).toBeGreaterThanOrEqual(150);
    expect(length).toBeLessThan(150 + Number(nodeSize));
  });
});

describe('key last-used', () => {
  it('never goes backwards, within a flush, across flushes and across recorders', async () => {
    const usage = recorder();
    const other = recorder();
    const use = (target: UsageRecorder, keyId: string, offset: number) =>
      target.record(decision({ keyId, at: BASE_MS + offset }));

    use(usage, 'key_1', 5000);
    use(usage, 'key_1', 1000);
    use(usage, 'key_2', 2000);
    await usage.flush();
    use(usage, 'key_1', 2000);
    await usage.flush();
    use(other, 'key_1', 3000);
    use(other, 'key_2', 4000);
    await other.flush();

    expect(await readKeyLastUsed(t.redis, t.prefix, 'tnt_a')).toEqual([
      { keyId: 'key_1', lastUsedAt: BASE_MS + 5000 },
      { keyId: 'key_2', lastUsedAt: BASE_MS + 4000 },
    ]);
    use(other, 'key_1', 9000);
    await other.flush();
    expect((await readKeyLastUsed(t.redis, t.prefix, 'tnt_a'))[0]).toEqual({
      keyId: 'key_1',
      lastUsedAt: BASE_MS + 9000,
    });
  });
});

describe('record', () => {
  it('never throws: malformed events are counted and write nothing', async () => {
    const hostile = {
      ...decision(),
      get tenantId(): string {
        throw new Error('boom');
      },
    };
    const bad: unknown[] = [
      null,
      {},
      hostile,
      decision({ tenantId: 'a{b}' }),
      decision({ policy: 'API' }),
      decision({ keyId: '' }),
      decision({ reason: 'not ok' }),
      decision({ cost: -1 }),
      decision({ cost: 1.5 }),
      decision({ at: Number.NaN }),
      decision({ identifier: '' }),
      decision({ identifier: 'x'.repeat(257) }),
      denial({ deniedBy: 'a:b' }),
      decision({ overrideId: 'bad id' }),
      { ...decision(), tenantId: undefined },
    ];
    const usage = recorder();
    for (const event of bad) expect(() => usage.record(event as DecisionEvent)).not.toThrow();

    const throwingRandom = recorder({
      allowSampleRate: 0.5,
      random: () => {
        throw new Error('no entropy');
      },
    });
    expect(() => throwingRandom.record(decision())).not.toThrow();

    await usage.flush();
    await throwingRandom.flush();
    expect(usage.stats()).toMatchObject({ eventsInvalid: bad.length, eventsRecorded: 0 });
    expect(throwingRandom.stats()).toMatchObject({ eventsInvalid: 1, pendingEntries: 0 });
    expect(await dumpKeys(t.redis, t.prefix)).toEqual({});
  });

  it('refuses bad options with clear messages', () => {
    expect(() => recorder({ prefix: 'a{b}:' })).toThrow(/prefix/);
    expect(() => recorder({ allowSampleRate: 2 })).toThrow(/allowSampleRate/);
    expect(() => recorder({ topK: 0 })).toThrow(/topK: expected an integer from 1/);
    expect(() => recorder({ retentionSeconds: 1.5 })).toThrow(/retentionSeconds/);
  });
});
