import { createTestRedis, type TestRedis } from '@sluice/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkRule,
  ruleKeys,
  slidingWindowLogModel,
  type Decision,
  type SlidingWindowLogEntry,
  type SlidingWindowLogRule,
} from '../src/index';
import { replyDecision } from '../src/script-args';
import { LUA_DIR, resolveIncludes } from '../src/script-loader';
import { snapshot, unique } from './support';

/**
 * The sliding log's single-rule script from the same include, replying with one more integer:
 * how many members its release walk read from the sorted set (`sliding_log_visited`, a counter
 * the include keeps for this reading only).
 */
const PROBE = resolveIncludes(
  [
    '--- @include "includes/sliding-window-log"',
    "local reply = sluice_run_single(sluice_algorithms['sliding_window_log'])",
    'reply[#reply + 1] = sliding_log_visited',
    'return reply',
  ].join('\n'),
  LUA_DIR,
  new Set(),
  ['sliding-log-probe'],
);

/** Members a denial may read beyond the live ones (the walk needs none: it stays among them). */
const EXTRA_READS = 2;
const WINDOW_US = 60_000_000;
const START_US = 1_767_225_600_000_000;

/** Uniform doubles in [0, 1) from a 32-bit seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A double in [0, 1), uniform (fast-check's own doubles crowd at the bounds). */
const uniform = fc.integer().map((seed) => mulberry32(seed)());

/** Member costs: all 1, small, or mostly 1 with rare big ones. */
const COST_MIXES = {
  ones: () => 1,
  small: (random: () => number) => 1 + Math.floor(random() * 4),
  spiky: (random: () => number) => (random() < 0.1 ? 2 + Math.floor(random() * 59) : 1),
};

/** `size` members of one cost mix; a failing case prints as these few numbers, not the log. */
const group = (sizes: number[]) =>
  fc.record({
    size: fc.constantFrom(...sizes),
    mix: fc.constantFrom(...(Object.keys(COST_MIXES) as (keyof typeof COST_MIXES)[])),
    seed: fc.integer(),
  });

/**
 * The group's members from `atUs` on, numbered from `seq`: often several in one microsecond, else
 * mostly a millisecond or more apart, so that a walk stopping one member off changes retryAfter.
 */
function entries(
  { size, mix, seed }: { size: number; mix: keyof typeof COST_MIXES; seed: number },
  atUs: number,
  seq: number,
): SlidingWindowLogEntry[] {
  const random = mulberry32(seed);
  let now = atUs;
  return Array.from({ length: size }, (_, i) => {
    const step = random();
    now += step < 0.4 ? 0 : Math.floor((step < 0.5 ? 1 : 1000) + random() * 2000);
    return { atUs: now, cost: COST_MIXES[mix](random), seq: seq + i };
  });
}

describe('sliding window log: a denial reads only live members', () => {
  let t: TestRedis;
  beforeAll(() => {
    t = createTestRedis('walk');
  });
  afterAll(() => t.cleanup());

  /** Admits every entry through the real script (injected clock), in order. */
  async function fill(key: string, rule: SlidingWindowLogRule, log: SlidingWindowLogEntry[]) {
    const decisions = await Promise.all(
      log.map(({ atUs, cost }) => checkRule(t.redis, key, rule, { cost, now: atUs / 1000 })),
    );
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
  }

  /** The probe's decision and how many members its release walk read. */
  async function probe(
    key: string,
    rule: SlidingWindowLogRule,
    nowUs: number,
    cost: number,
  ): Promise<{ decision: Decision; visited: number }> {
    const reply = (await t.redis.eval(
      PROBE,
      2,
      ...ruleKeys(rule, key),
      String(nowUs),
      String(cost),
      String(rule.limit),
      String(rule.windowMs * 1000),
    )) as number[];
    return { decision: replyDecision(reply, 0), visited: reply[6] ?? Number.NaN };
  }

  it(
    'logs of several sizes, cost mixes and ties: few members read, the model retryAfter, no write',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          group([0, 1, 150]),
          group([1, 2, 99, 100, 101, 257, 1200]),
          fc.integer({ min: 0, max: 3 }),
          // where the window starts at the check: before the recent group or at one of its members
          fc.option(uniform, { nil: undefined }),
          // which denied cost: 0 = the least, 1 = the limit (the whole sum leaves), or between
          fc.oneof(fc.constant(0), fc.constant(1), uniform),
          async (oldGroup, recentGroup, slack, cutAt, share) => {
            const old = entries(oldGroup, START_US, 1);
            const recent = entries(recentGroup, START_US + WINDOW_US / 2, old.length + 1);
            const log = [...old, ...recent];
            const cutoffUs =
              cutAt === undefined
                ? START_US + WINDOW_US / 4
                : (recent[Math.floor(cutAt * recent.length)]?.atUs ?? 0);
            const live = log.filter((entry) => entry.atUs > cutoffUs);
            const liveCost = live.reduce((sum, entry) => sum + entry.cost, 0);
            fc.pre(live.length > 0);
            const limit = log.reduce((sum, entry) => sum + entry.cost, slack);
            const rule: SlidingWindowLogRule = {
              algorithm: 'sliding_window_log',
              limit,
              windowMs: WINDOW_US / 1000,
            };
            const cost =
              limit - liveCost + 1 + Math.min(liveCost - 1, Math.floor(share * liveCost));
            const key = `${t.prefix}${unique('log')}`;
            await fill(key, rule, log);

            const nowUs = cutoffUs + WINDOW_US;
            const before = await snapshot(t.redis, ruleKeys(rule, key));
            const { decision, visited } = await probe(key, rule, nowUs, cost);
            const model = slidingWindowLogModel(
              { algorithm: 'sliding_window_log', entries: log, seq: log.length },
              rule,
              nowUs,
              cost,
            );
            expect(decision.allowed).toBe(false);
            expect(decision).toEqual(model.decision);
            expect(visited).toBeLessThanOrEqual(live.length + EXTRA_READS);
            // from the nearer end: costs are >= 1, so releasing `excess` from the oldest passes
            // at most `excess` members, keeping at most `limit - cost` from the newest one more
            const excess = liveCost + cost - limit;
            expect(visited).toBeLessThanOrEqual(Math.min(excess, limit - cost + 1));
            expect(await snapshot(t.redis, ruleKeys(rule, key))).toEqual(before);
          },
        ),
        { numRuns: 40 },
      );
    },
  );

  it('the worst legal denial (the log full, cost = the limit) reads only the newest member', async () => {
    const log = Array.from({ length: 3000 }, (_, i) => ({
      atUs: START_US + Math.floor(i / 3),
      cost: 1,
      seq: i + 1,
    }));
    const rule: SlidingWindowLogRule = {
      algorithm: 'sliding_window_log',
      limit: log.length,
      windowMs: WINDOW_US / 1000,
    };
    const key = `${t.prefix}${unique('full')}`;
    await fill(key, rule, log);

    const nowUs = START_US + WINDOW_US / 2;
    const { decision, visited } = await probe(key, rule, nowUs, rule.limit);
    const newest = log.at(-1)?.atUs ?? 0;
    expect(decision.retryAfter).toBe(Math.ceil((newest + WINDOW_US - nowUs) / 1000));
    expect(decision).toEqual(
      slidingWindowLogModel(
        { algorithm: 'sliding_window_log', entries: log, seq: log.length },
        rule,
        nowUs,
        rule.limit,
      ).decision,
    );
    expect(visited).toBeLessThanOrEqual(1);
  });
});
