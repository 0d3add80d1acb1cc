export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (default 5). */
  failureThreshold?: number;
  /** How long it stays open before one probe may try again (default 500 ms). */
  openMs?: number;
  clock?: () => number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Keeps a dead or stalled Redis from costing every check its full timeout: after
 * `failureThreshold` consecutive failures, calls are skipped (the fail mode answers at once)
 * for `openMs`; then a single probe goes through, and its success closes the circuit again.
 */
export class CircuitBreaker {
  private readonly failureThreshold: number;
  private readonly openMs: number;
  private readonly clock: () => number;
  private failures = 0;
  private openUntil = 0;
  private probing = false;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? 5;
    this.openMs = options.openMs ?? 500;
    this.clock = options.clock ?? Date.now;
    if (!Number.isInteger(this.failureThreshold) || this.failureThreshold < 1) {
      throw new RangeError(
        `failureThreshold must be an integer >= 1, got ${this.failureThreshold}`,
      );
    }
    if (!(this.openMs > 0)) throw new RangeError(`openMs must be above 0, got ${this.openMs}`);
  }

  get state(): CircuitState {
    if (this.failures < this.failureThreshold) return 'closed';
    return this.clock() < this.openUntil || this.probing ? 'open' : 'half-open';
  }

  /** Whether a call may go to Redis now (in half-open, only the first asker: the probe). */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open') return false;
    this.probing = true;
    return true;
  }

  success(): void {
    this.failures = 0;
    this.probing = false;
  }

  failure(): void {
    this.failures += 1;
    this.probing = false;
    if (this.failures >= this.failureThreshold) this.openUntil = this.clock() + this.openMs;
  }
}
