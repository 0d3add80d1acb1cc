import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from './breaker';

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
