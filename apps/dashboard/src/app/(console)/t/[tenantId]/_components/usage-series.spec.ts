import { describe, expect, it } from 'vitest';
import {
  combineSeconds,
  LIVE_SECONDS,
  mergeSeconds,
  minuteRates,
  newestSecond,
  RANGE_SPECS,
  RANGES,
  secondsUpTo,
  sumCounts,
  topRule,
  type UsageBucket,
} from './usage-series';

const T0 = Date.parse('2026-12-07T10:00:00Z') / 1000;
const bucket = (second: number, denied: number, allowed = 0): UsageBucket => ({
  at: new Date(second * 1000).toISOString(),
  allowed,
  denied,
  shadowDenied: 0,
  candidateDenied: 0,
});

describe('the live series', () => {
  it('replaces a second that was still counting with its later figure', () => {
    const first = mergeSeconds(new Map(), [bucket(T0, 1), bucket(T0 + 1, 2)]);
    const second = mergeSeconds(first, [bucket(T0 + 1, 5), bucket(T0 + 2, 1)]);
    expect(secondsUpTo(second, T0 + 2, 3).map((s) => s.denied)).toEqual([1, 5, 1]);
    expect(newestSecond(second)).toBe(T0 + 2);
  });

  it('keeps only the newest 15 minutes', () => {
    const old = mergeSeconds(new Map(), [bucket(T0, 7)]);
    const later = mergeSeconds(old, [bucket(T0 + LIVE_SECONDS, 1)]);
    expect(later.has(T0)).toBe(false);
    expect([...later.keys()]).toEqual([T0 + LIVE_SECONDS]);
  });

  it('keeps fewer seconds when asked (a card’s minute)', () => {
    const buckets = Array.from({ length: 90 }, (_, i) => bucket(T0 + i, 1));
    expect(mergeSeconds(new Map(), buckets, 60).size).toBe(60);
  });

  it('fills the seconds nothing was counted in with zeros, oldest first', () => {
    const series = mergeSeconds(new Map(), [bucket(T0 + 3, 4, 2)]);
    const window = secondsUpTo(series, T0 + 4, 5);
    expect(window.map((s) => s.second)).toEqual([T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4]);
    expect(window.map((s) => s.denied)).toEqual([0, 0, 0, 4, 0]);
    expect(sumCounts(window)).toEqual({
      allowed: 2,
      denied: 4,
      shadowDenied: 0,
      candidateDenied: 0,
    });
  });

  it('combines a query’s series and the live feed by the newer (larger) reading of each second', () => {
    const queried = mergeSeconds(new Map(), [bucket(T0, 3, 1), bucket(T0 + 1, 2)]);
    const live = mergeSeconds(new Map(), [bucket(T0, 1, 1), bucket(T0 + 2, 4)]);
    const combined = combineSeconds(queried, live);
    expect(secondsUpTo(combined, T0 + 2, 3).map((s) => s.denied)).toEqual([3, 2, 4]);
    expect(combineSeconds(live, queried)).toEqual(combined);
  });

  it('leaves a series alone when a snapshot brings nothing', () => {
    const series = mergeSeconds(new Map(), [bucket(T0, 1)]);
    expect(mergeSeconds(series, [])).toBe(series);
  });
});

describe('the ranges', () => {
  it('keep every chart to at most 900 points', () => {
    const seconds = { SECOND: 1, MINUTE: 60, HOUR: 3600, DAY: 86_400 };
    for (const range of RANGES) {
      const spec = RANGE_SPECS[range];
      expect(spec.seconds / seconds[spec.resolution]).toBeLessThanOrEqual(900);
    }
  });

  it('are live only for the last 15 minutes', () => {
    expect(RANGES.filter((range) => RANGE_SPECS[range].live)).toEqual(['15m']);
  });
});

describe('a card’s figures', () => {
  it('read checks per second and the denial rate over the last minute', () => {
    expect(minuteRates({ allowed: 90, denied: 30, shadowDenied: 4, candidateDenied: 0 })).toEqual({
      checksPerSecond: 2,
      denialRate: 0.25,
    });
    expect(minuteRates({ allowed: 0, denied: 0, shadowDenied: 0, candidateDenied: 0 })).toEqual({
      checksPerSecond: 0,
      denialRate: null,
    });
  });

  it('name the rule that denied most, and none when none denied', () => {
    expect(
      topRule([
        { rule: 'daily', count: 3 },
        { rule: 'burst', count: 12 },
      ]),
    ).toEqual({ rule: 'burst', count: 12 });
    expect(topRule([{ rule: 'burst', count: 0 }])).toBeUndefined();
  });
});
