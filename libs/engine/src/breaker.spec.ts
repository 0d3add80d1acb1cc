import { describe, expect, it } from 'vitest';
import { CircuitBreaker, CircuitBreakers } from './breaker';

describe('CircuitBreaker', () => {
  it('opens after the threshold of consecutive failures, then lets one probe through', () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 3, openMs: 100, clock: () => now });
    breaker.failure();
    breaker.failure();
    breaker.success();
    breaker.failure();
    breaker.failure();
    expect(breaker.tryAcquire()).toBe(true);
    breaker.failure();
    expect(breaker.state).toBe('open');
    expect(breaker.tryAcquire()).toBe(false);
    now = 100;
    expect(breaker.state).toBe('half-open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.failure();
    expect(breaker.state).toBe('open');
    now = 200;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.success();
    expect(breaker.state).toBe('closed');
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('refuses nonsense settings', () => {
    expect(() => new CircuitBreaker({ failureThreshold: 0 })).toThrow(RangeError);
    expect(() => new CircuitBreaker({ openMs: 0 })).toThrow(RangeError);
  });
});

describe('CircuitBreakers', () => {
  it('keeps one circuit per key: failures of one neither open nor count against another', () => {
    const breakers = new CircuitBreakers({ failureThreshold: 2, openMs: 100, clock: () => 0 });
    breakers.failure('a');
    breakers.failure('b');
    breakers.success('b');
    breakers.failure('a');
    expect(breakers.state('a')).toBe('open');
    expect(breakers.tryAcquire('a')).toBe(false);
    expect(breakers.state('b')).toBe('closed');
    expect(breakers.tryAcquire('b')).toBe(true);
    expect(breakers.tryAcquire('never-failed')).toBe(true);
    expect(breakers.stats()).toEqual({ open: 1, openings: 1, held: 1 });
  });

  it('counts openings from closed, not failed probes, and drops a circuit when a call succeeds', () => {
    let now = 0;
    const breakers = new CircuitBreakers({ failureThreshold: 1, openMs: 100, clock: () => now });
    breakers.failure('a');
    expect(breakers.stats()).toEqual({ open: 1, openings: 1, held: 1 });
    now = 100;
    // half-open: the next call may probe
    expect(breakers.stats()).toEqual({ open: 0, openings: 1, held: 1 });
    expect(breakers.tryAcquire('a')).toBe(true);
    breakers.failure('a');
    expect(breakers.stats()).toEqual({ open: 1, openings: 1, held: 1 });
    now = 200;
    expect(breakers.tryAcquire('a')).toBe(true);
    breakers.success('a');
    expect(breakers.stats()).toEqual({ open: 0, openings: 1, held: 0 });
    breakers.failure('a');
    expect(breakers.stats()).toEqual({ open: 1, openings: 2, held: 1 });
  });

  it('holds at most maxCircuits, dropping the least recently failed', () => {
    const breakers = new CircuitBreakers({
      failureThreshold: 1,
      openMs: 100,
      maxCircuits: 3,
      clock: () => 0,
    });
    for (const key of ['a', 'b', 'c']) breakers.failure(key);
    // a failed again: b is now the least recently failed
    breakers.failure('a');
    breakers.failure('d');
    expect(breakers.stats()).toMatchObject({ open: 3, held: 3 });
    expect(['a', 'b', 'c', 'd'].map((key) => breakers.state(key))).toEqual([
      'open',
      'closed',
      'open',
      'open',
    ]);
    for (let i = 0; i < 1000; i += 1) breakers.failure(`policy-${i}`);
    expect(breakers.stats()).toMatchObject({ open: 3, held: 3 });
  });

  it('refuses nonsense settings', () => {
    expect(() => new CircuitBreakers({ maxCircuits: 0 })).toThrow(RangeError);
    expect(() => new CircuitBreakers({ failureThreshold: 0 })).toThrow(RangeError);
  });
});
