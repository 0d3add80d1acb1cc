export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit (default 5). */
  failureThreshold?: number;
  /** How long it stays open before one probe may try again (default 500 ms). */
  openMs?: number;
  clock?: () => number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Keeps failing calls (a stalled Redis, a broken key) from costing every check its full timeout:
 * after `failureThreshold` consecutive failures, calls are skipped (the fail mode answers at
 * once) for `openMs`; then a single probe goes through, and its success closes the circuit again.
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

  /** Counts a failure; true when it opened a closed circuit (not when a probe failed). */
  failure(): boolean {
    this.failures += 1;
    this.probing = false;
    if (this.failures < this.failureThreshold) return false;
    this.openUntil = this.clock() + this.openMs;
    return this.failures === this.failureThreshold;
  }
}

export interface CircuitBreakersOptions extends CircuitBreakerOptions {
  /** Most circuits held (default 5,000); the least recently failed goes first beyond it. */
  maxCircuits?: number;
}

/** What `CircuitBreakers.stats()` reports, for metrics. */
export interface CircuitStats {
  /** Circuits open now: their calls are skipped (half-open ones let the next call probe). */
  open: number;
  /** Circuits that opened (from closed) since the process started. */
  openings: number;
  /** Circuits held now: those whose last call failed. */
  held: number;
}

/**
 * One `CircuitBreaker` per key (the engine's: a policy, `<tenantId>.<policyId>`), so one broken
 * or slow policy sends only itself to its fail mode. Only circuits whose last call failed are
 * held: a success drops the circuit (a closed one without failures carries nothing), and beyond
 * `maxCircuits` the least recently failed goes first, so memory stays bounded however many
 * policies fail. A healthy policy's check costs a lookup in an (often empty) Map.
 */
export class CircuitBreakers {
  private readonly options: CircuitBreakerOptions;
  private readonly maxCircuits: number;
  /** In order of their latest failure, oldest first. */
  private readonly failing = new Map<string, CircuitBreaker>();
  private openings = 0;

  constructor({ maxCircuits = 5000, ...options }: CircuitBreakersOptions = {}) {
    if (!Number.isInteger(maxCircuits) || maxCircuits < 1) {
      throw new RangeError(`maxCircuits must be an integer >= 1, got ${maxCircuits}`);
    }
    // validates the options now rather than at the first failure
    new CircuitBreaker(options);
    this.options = options;
    this.maxCircuits = maxCircuits;
  }

  state(key: string): CircuitState {
    return this.failing.get(key)?.state ?? 'closed';
  }

  /** Whether a call for `key` may go to Redis now (see `CircuitBreaker.tryAcquire`). */
  tryAcquire(key: string): boolean {
    return this.failing.get(key)?.tryAcquire() ?? true;
  }

  success(key: string): void {
    if (this.failing.size > 0) this.failing.delete(key);
  }

  failure(key: string): void {
    const breaker = this.failing.get(key) ?? new CircuitBreaker(this.options);
    // re-inserted: the Map's order is that of the latest failures
    this.failing.delete(key);
    this.failing.set(key, breaker);
    if (breaker.failure()) this.openings += 1;
    for (const oldest of this.failing.keys()) {
      if (this.failing.size <= this.maxCircuits) break;
      this.failing.delete(oldest);
    }
  }

  /** Walks the held circuits: meant for a scrape, not for every check. */
  stats(): CircuitStats {
    let open = 0;
    for (const breaker of this.failing.values()) if (breaker.state === 'open') open += 1;
    return { open, openings: this.openings, held: this.failing.size };
  }
}
