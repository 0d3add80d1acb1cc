import { isTimeZone } from './calendar';
import { AlgorithmInputError } from './errors';
import { validateNonce } from './ids';
import { emissionIntervalUs } from './models/virtual-schedule';
import type { AnyRuleSpec, RuleCheck, RuleSpec } from './rule-spec';

export const MAX_COST = 1_000_000_000;
export const MAX_CAPACITY = 1_000_000_000;
export const MIN_WINDOW_MS = 1_000;
export const MAX_WINDOW_MS = 31 * 86_400_000;
/** Longest a bucket may take to refill or drain completely: bounds every key's TTL. */
export const MAX_DRAIN_MS = 366 * 86_400_000;
/** Highest leak/GCRA rate: one unit per microsecond, the scripts' time unit. */
export const MAX_RATE_PER_SECOND = 1_000_000;
export const MAX_RULES = 32;
/** Most leases a concurrency rule keeps in flight. */
export const MAX_LEASES = 1_000_000;
export const MIN_LEASE_TTL_MS = 1_000;
export const MAX_LEASE_TTL_MS = 86_400_000;
/** A reservation record lives 1 s .. 24 h (unsettled, it counts at its estimate). */
export const MIN_RESERVATION_TTL_MS = 1_000;
export const MAX_RESERVATION_TTL_MS = 86_400_000;
const MAX_KEY_BYTES = 512;
/** Keeps now in microseconds exactly representable (2^53 us is the year 2255). */
const MAX_NOW_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/** A validated check (rule defaults filled in), ready for a script or a model. */
export interface PreparedCheck {
  key: string;
  rule: AnyRuleSpec;
  cost: number;
  candidate: boolean;
  /** The rule's name in its set (a reservation's receipts are kept by name). */
  name?: string;
  /** The nonce of the lease a concurrency rule takes (cost > 0). */
  lease?: string;
}

export function validateCost(cost: unknown, field = 'cost'): number {
  if (cost === undefined) return 1;
  return validateInteger(field, cost, 0, MAX_COST);
}

/** An injected `now` (optional): see `toMicros`. */
export function validateNow(now: unknown, field = 'now'): number | undefined {
  return now === undefined ? undefined : toMicros(now, field);
}

/** A ms epoch time (fractional allowed) as integer microseconds, rounded to the nearest. */
export function toMicros(now: unknown, field = 'now'): number {
  if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > MAX_NOW_MS) {
    throw new AlgorithmInputError(field, `must be a time in ms since the epoch, got ${show(now)}`);
  }
  return Math.round(now * 1000);
}

export function validateKey(key: unknown, field = 'key'): string {
  if (typeof key !== 'string' || key.length === 0 || Buffer.byteLength(key) > MAX_KEY_BYTES) {
    throw new AlgorithmInputError(field, `must be a string of 1 to ${MAX_KEY_BYTES} bytes`);
  }
  return key;
}

/** `validateRule`, concurrency rules included. */
export function validateAnyRule(rule: unknown, field = 'rule'): AnyRuleSpec {
  if ((rule as { algorithm?: unknown } | null)?.algorithm !== 'concurrency') {
    return validateRule(rule, field);
  }
  const spec = rule as AnyRuleSpec & { algorithm: 'concurrency' };
  return {
    algorithm: 'concurrency',
    limit: validateInteger(`${field}.limit`, spec.limit, 1, MAX_LEASES),
    leaseTtlMs: validateInteger(
      `${field}.leaseTtlMs`,
      spec.leaseTtlMs,
      MIN_LEASE_TTL_MS,
      MAX_LEASE_TTL_MS,
    ),
  };
}

/**
 * Checks every parameter of a rate rule; returns the rule with defaults filled in (GCRA burst).
 * Concurrency rules are `validateAnyRule`'s.
 */
export function validateRule(rule: unknown, field = 'rule'): RuleSpec {
  if (typeof rule !== 'object' || rule === null) {
    throw new AlgorithmInputError(field, 'must be a rule object');
  }
  const spec = rule as RuleSpec;
  switch (spec.algorithm) {
    case 'token_bucket': {
      const capacity = validateInteger(`${field}.capacity`, spec.capacity, 1, MAX_CAPACITY);
      const rate = positive(`${field}.refillPerSecond`, spec.refillPerSecond, Infinity);
      drainTime(`${field}.refillPerSecond`, (capacity / rate) * 1000);
      return { algorithm: spec.algorithm, capacity, refillPerSecond: rate };
    }
    case 'leaky_bucket': {
      const capacity = validateInteger(`${field}.capacity`, spec.capacity, 1, MAX_CAPACITY);
      const rate = positive(`${field}.leakPerSecond`, spec.leakPerSecond, MAX_RATE_PER_SECOND);
      drainTime(`${field}.leakPerSecond`, (capacity * emissionIntervalUs(1e6, rate)) / 1000);
      return { algorithm: spec.algorithm, capacity, leakPerSecond: rate };
    }
    case 'fixed_window': {
      const limit = validateInteger(`${field}.limit`, spec.limit, 1, MAX_CAPACITY);
      if (spec.calendar === undefined) {
        return { algorithm: spec.algorithm, limit, windowMs: windowMs(field, spec.windowMs) };
      }
      if (spec.windowMs !== undefined) {
        throw new AlgorithmInputError(field, 'give either windowMs or calendar, not both');
      }
      const calendar: unknown = spec.calendar;
      if (typeof calendar !== 'object' || calendar === null) {
        throw new AlgorithmInputError(`${field}.calendar`, 'must be { unit, timeZone }');
      }
      const { unit, timeZone } = calendar as Record<string, unknown>;
      if (unit !== 'day' && unit !== 'month') {
        throw new AlgorithmInputError(
          `${field}.calendar.unit`,
          `must be day or month, got ${show(unit)}`,
        );
      }
      if (typeof timeZone !== 'string' || !isTimeZone(timeZone)) {
        throw new AlgorithmInputError(
          `${field}.calendar.timeZone`,
          `must be an IANA time zone such as Europe/Paris, got ${show(timeZone)}`,
        );
      }
      return { algorithm: spec.algorithm, limit, calendar: { unit, timeZone } };
    }
    case 'sliding_window_log':
    case 'sliding_window_counter': {
      const limit = validateInteger(`${field}.limit`, spec.limit, 1, MAX_CAPACITY);
      return { algorithm: spec.algorithm, limit, windowMs: windowMs(field, spec.windowMs) };
    }
    case 'gcra': {
      const limit = validateInteger(`${field}.limit`, spec.limit, 1, MAX_CAPACITY);
      const periodMs = validateInteger(
        `${field}.periodMs`,
        spec.periodMs,
        MIN_WINDOW_MS,
        MAX_WINDOW_MS,
      );
      if (limit / (periodMs / 1000) > MAX_RATE_PER_SECOND) {
        throw new AlgorithmInputError(
          `${field}.limit`,
          `must not exceed ${MAX_RATE_PER_SECOND} per second of periodMs`,
        );
      }
      const burst = validateInteger(`${field}.burst`, spec.burst ?? limit, 1, MAX_CAPACITY);
      drainTime(`${field}.burst`, (burst * emissionIntervalUs(periodMs * 1000, limit)) / 1000);
      return { algorithm: spec.algorithm, limit, periodMs, burst };
    }
    default: {
      const algorithm = (rule as { algorithm?: unknown }).algorithm;
      throw new AlgorithmInputError(
        `${field}.algorithm`,
        algorithm === 'concurrency'
          ? 'concurrency is not a rate rule (validateAnyRule takes it)'
          : `unknown algorithm ${show(algorithm)}`,
      );
    }
  }
}

/** Validates a single-rule check (fields named `key`, `rule.*`, `cost`, `lease`). */
export function prepareCheck(
  key: unknown,
  rule: unknown,
  cost: unknown,
  lease?: unknown,
): PreparedCheck {
  const check: PreparedCheck = {
    key: validateKey(key),
    rule: validateAnyRule(rule),
    cost: validateCost(cost),
    candidate: false,
  };
  if (check.rule.algorithm === 'concurrency' && check.cost > 0) {
    if (lease === undefined) {
      throw new AlgorithmInputError('lease', 'a concurrency check needs the nonce of its lease');
    }
    check.lease = validateNonce(lease, 'lease');
  }
  return check;
}

/** A concurrency rule cannot be a candidate: its lease would outlive a denied request. */
export function checkCandidate(rule: AnyRuleSpec, candidate: unknown, field: string): boolean {
  if (candidate !== undefined && typeof candidate !== 'boolean') {
    throw new AlgorithmInputError(field, 'must be a boolean');
  }
  if (candidate === true && rule.algorithm === 'concurrency') {
    throw new AlgorithmInputError(
      field,
      'a concurrency rule cannot be a candidate (its lease would outlive a denied request)',
    );
  }
  return candidate === true;
}

/** Validates a composite check: 1..MAX_RULES rules with distinct keys. */
export function prepareChecks(checks: unknown, field = 'rules'): PreparedCheck[] {
  if (!Array.isArray(checks) || checks.length === 0 || checks.length > MAX_RULES) {
    throw new AlgorithmInputError(field, `must be an array of 1 to ${MAX_RULES} rules`);
  }
  const seen = new Set<string>();
  return checks.map((check: RuleCheck, i): PreparedCheck => {
    const at = `${field}[${i}]`;
    if (typeof check !== 'object' || check === null) {
      throw new AlgorithmInputError(at, 'must be { key, rule, cost?, candidate? }');
    }
    const key = validateKey(check.key, `${at}.key`);
    if (seen.has(key)) throw new AlgorithmInputError(`${at}.key`, `repeats ${key}`);
    seen.add(key);
    const rule = validateAnyRule(check.rule, `${at}.rule`);
    return {
      key,
      rule,
      cost: validateCost(check.cost, `${at}.cost`),
      candidate: checkCandidate(rule, check.candidate, `${at}.candidate`),
    };
  });
}

export function validateInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new AlgorithmInputError(
      field,
      `must be an integer from ${min} to ${max}, got ${show(value)}`,
    );
  }
  return value;
}

function positive(field: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    const range = max === Infinity ? '' : ` up to ${max}`;
    throw new AlgorithmInputError(
      field,
      `must be a finite number above 0${range}, got ${show(value)}`,
    );
  }
  return value;
}

function windowMs(field: string, value: unknown): number {
  return validateInteger(`${field}.windowMs`, value, MIN_WINDOW_MS, MAX_WINDOW_MS);
}

function drainTime(field: string, ms: number): void {
  if (ms > MAX_DRAIN_MS) {
    throw new AlgorithmInputError(
      field,
      `too slow: a full bucket would take ${Math.round(ms / 86_400_000)} days (at most 366)`,
    );
  }
}

function show(value: unknown): string {
  return typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}
