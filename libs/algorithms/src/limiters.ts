import {
  combineDecisions,
  type CompositeDecision,
  type Decision,
  type PreparedDecision,
} from './decision';
import { AlgorithmInputError, DeadlineExceededError } from './errors';
import { leaseId, newNonce, reservationId, validateNonce } from './ids';
import type {
  AnyRuleSpec,
  ConcurrencyRule,
  FixedWindowRule,
  GcraRule,
  LeakyBucketRule,
  RuleCheck,
  SlidingWindowCounterRule,
  SlidingWindowLogRule,
  TokenBucketRule,
} from './rule-spec';
import { hashSlotPart, identifierHash } from './rule-key';
import { preparedSet, requestChecks, reservationKey, type PreparedRuleSet } from './rule-set';
import { timeArg, replyDecision, ruleKeys, ruleParams } from './script-args';
import { runScript, type RedisLike } from './scripts';
import {
  MAX_RESERVATION_TTL_MS,
  MIN_RESERVATION_TTL_MS,
  prepareCheck,
  prepareChecks,
  validateInteger,
  validateNow,
  type PreparedCheck,
} from './validate';

export interface CheckOptions {
  /** Integer >= 0, default 1; 0 peeks. */
  cost?: number;
  /** Injected clock for replays and tests: ms epoch (fractional allowed, rounded to the us). */
  now?: number;
  /** Concurrency: the nonce of the lease a check with a cost > 0 takes (`newNonce`). */
  lease?: string;
}

export interface CheckRulesOptions {
  now?: number;
  /** Decide as usual, write nothing. */
  dryRun?: boolean;
  /**
   * Ms epoch on the script's clock (Redis `TIME`, or `now` when injected) after which the call
   * must not count: a script starting later reads and writes nothing and the call rejects with
   * `DeadlineExceededError`. For callers that stop waiting (a timeout answered by a fail mode),
   * so a script still queued in Redis cannot charge the counters afterwards.
   */
  deadline?: number;
  /** The nonce of the lease concurrency rules take (default: a new one, `newNonce`). */
  lease?: string;
}

export interface ReservationOptions {
  /** How long the record waits for its settle (1 s .. 24 h); unsettled, the estimate stands. */
  ttlMs: number;
  /** Default: a new one (`newNonce`); given for replays and tests. */
  nonce?: string;
}

export interface CheckPreparedOptions extends CheckRulesOptions {
  /**
   * Write a reservation record with the charge (allowed, cost > 0, not a dry run), so the cost
   * charged now (the estimate, one cost for every rule) can be settled to the actual cost.
   */
  reservation?: ReservationOptions;
}

/** The composite script's reply when it started after the deadline. */
const EXPIRED = -1;
/** Reply integers before the first rule's figures. */
const HEADER = 4;

type Params<R> = R extends unknown ? Omit<R, 'algorithm'> : never;

/** Decides one rule with its own script; validates everything before touching Redis. */
export async function checkRule(
  redis: RedisLike,
  key: string,
  rule: AnyRuleSpec,
  options: CheckOptions = {},
): Promise<Decision> {
  const check = prepareCheck(key, rule, options.cost, options.lease);
  const nowUs = validateNow(options.now);
  const reply = await runScript(redis, check.rule.algorithm, ruleKeys(check.rule, check.key), [
    timeArg(nowUs),
    String(check.cost),
    ...ruleParams(check.rule, clientNowMs(nowUs), { lease: check.lease }),
  ]);
  return replyDecision(reply, 0);
}

export const tokenBucket = (
  redis: RedisLike,
  key: string,
  rule: Params<TokenBucketRule>,
  options?: CheckOptions,
): Promise<Decision> => checkRule(redis, key, { ...rule, algorithm: 'token_bucket' }, options);

export const leakyBucket = (
  redis: RedisLike,
  key: string,
  rule: Params<LeakyBucketRule>,
  options?: CheckOptions,
): Promise<Decision> => checkRule(redis, key, { ...rule, algorithm: 'leaky_bucket' }, options);

export const fixedWindow = (
  redis: RedisLike,
  key: string,
  rule: Params<FixedWindowRule>,
  options?: CheckOptions,
): Promise<Decision> => checkRule(redis, key, { ...rule, algorithm: 'fixed_window' }, options);

export const slidingWindowLog = (
  redis: RedisLike,
  key: string,
  rule: Params<SlidingWindowLogRule>,
  options?: CheckOptions,
): Promise<Decision> =>
  checkRule(redis, key, { ...rule, algorithm: 'sliding_window_log' }, options);

export const slidingWindowCounter = (
  redis: RedisLike,
  key: string,
  rule: Params<SlidingWindowCounterRule>,
  options?: CheckOptions,
): Promise<Decision> =>
  checkRule(redis, key, { ...rule, algorithm: 'sliding_window_counter' }, options);

export const gcra = (
  redis: RedisLike,
  key: string,
  rule: Params<GcraRule>,
  options?: CheckOptions,
): Promise<Decision> => checkRule(redis, key, { ...rule, algorithm: 'gcra' }, options);

/** A cost > 0 takes the lease `options.lease`; `releaseLeaseKeys([key], lease)` frees it. */
export const concurrency = (
  redis: RedisLike,
  key: string,
  rule: Params<ConcurrencyRule>,
  options?: CheckOptions,
): Promise<Decision> => checkRule(redis, key, { ...rule, algorithm: 'concurrency' }, options);

/**
 * Decides several rules in one atomic script: live rules all pass and are all charged, or the
 * request is denied and nothing is written; candidate rules form their own group beside them.
 */
export async function checkRules(
  redis: RedisLike,
  checks: readonly RuleCheck[],
  options: CheckRulesOptions = {},
): Promise<CompositeDecision> {
  const prepared = prepareChecks(checks);
  const lease = leaseFor(prepared, options.lease);
  const withLease = prepared.map((check) =>
    check.rule.algorithm === 'concurrency' ? { ...check, lease } : check,
  );
  const keys = withLease.flatMap((check) => ruleKeys(check.rule, check.key));
  const slot = hashSlotPart(keys[0] ?? '');
  if (keys.some((key) => hashSlotPart(key) !== slot)) {
    throw new AlgorithmInputError('rules', 'all keys of one check must share one {hash tag}');
  }
  return (await runComposite(redis, withLease, keys, options)).decision;
}

/**
 * `checkRules` for a rule set validated once by `prepareRuleSet`: validates only the request's
 * identifier (its keys) and cost (one for every rule, or one per rule), then decides the same.
 * A lease comes with its id; with `reservation`, the record the settle needs is written in the
 * same call and returned (`reservation`, absent when nothing was charged).
 */
export async function checkPrepared(
  redis: RedisLike,
  set: PreparedRuleSet,
  identifier: string | Uint8Array,
  cost: number | readonly number[],
  options: CheckPreparedOptions = {},
): Promise<PreparedDecision> {
  const idHash = identifierHash(identifier);
  const checks = requestChecks(preparedSet(set), idHash, cost, leaseFor(set.rules, options.lease));
  const reservation = validateReservation(options.reservation, cost);
  const keys = checks.flatMap((check) => ruleKeys(check.rule, check.key));
  const record = reservation && {
    ttlMs: reservation.ttlMs,
    key: reservationKey(set, idHash, reservation.nonce),
  };
  const { decision, reservationExpiresAt } = await runComposite(
    redis,
    checks,
    keys,
    options,
    record,
  );
  return preparedDecision(set, idHash, checks, decision, reservation, reservationExpiresAt);
}

/** The reservation a check asks for, validated; it needs one cost for every rule. */
export function validateReservation(
  reservation: ReservationOptions | undefined,
  cost: number | readonly number[],
): Required<ReservationOptions> | undefined {
  if (reservation === undefined) return undefined;
  if (typeof reservation !== 'object' || reservation === null) {
    throw new AlgorithmInputError('reservation', 'must be { ttlMs, nonce? }');
  }
  if (typeof cost !== 'number') {
    throw new AlgorithmInputError(
      'cost',
      'a reservation charges one cost (its estimate) to every rule',
    );
  }
  return {
    ttlMs: validateInteger(
      'reservation.ttlMs',
      reservation.ttlMs,
      MIN_RESERVATION_TTL_MS,
      MAX_RESERVATION_TTL_MS,
    ),
    nonce:
      reservation.nonce === undefined
        ? newNonce()
        : validateNonce(reservation.nonce, 'reservation.nonce'),
  };
}

/** The nonce concurrency rules take: the caller's, else a new one; none without such a rule. */
export function leaseFor(
  rules: readonly { rule: AnyRuleSpec }[],
  lease: unknown,
): string | undefined {
  if (!rules.some(({ rule }) => rule.algorithm === 'concurrency')) return undefined;
  return lease === undefined ? newNonce() : validateNonce(lease, 'lease');
}

/** A prepared set's decision with the ids of its lease and reservation. */
export function preparedDecision(
  set: PreparedRuleSet,
  idHash: string,
  checks: readonly PreparedCheck[],
  decision: CompositeDecision,
  reservation: Required<ReservationOptions> | undefined,
  reservationExpiresAt: number | undefined,
): PreparedDecision {
  const { lease, ...rest } = decision;
  const out: PreparedDecision = rest;
  if (lease) out.lease = { ...lease, id: leaseId(set.scope, idHash, lease.nonce) };
  if (reservation && reservationExpiresAt !== undefined) {
    out.reservation = {
      id: reservationId(set.scope, idHash, reservation.nonce),
      nonce: reservation.nonce,
      estimate: checks[0]?.cost ?? 0,
      expiresAt: reservationExpiresAt,
      // written only when the live group committed: every live rule, and candidates that passed
      rules: checks
        .filter((check) => check.rule.algorithm !== 'concurrency')
        .filter((check) => !check.candidate || rest.candidatesAllowed)
        .map((check) => check.name ?? ''),
    };
  }
  return out;
}

async function runComposite(
  redis: RedisLike,
  checks: readonly PreparedCheck[],
  keys: readonly string[],
  options: CheckRulesOptions,
  reservation?: { ttlMs: number; key: string },
): Promise<{ decision: CompositeDecision; reservationExpiresAt: number | undefined }> {
  const nowUs = validateNow(options.now);
  const deadlineUs = validateNow(options.deadline, 'deadline');
  const clientMs = clientNowMs(nowUs);
  const args = [
    timeArg(nowUs),
    options.dryRun ? '1' : '0',
    timeArg(deadlineUs),
    reservation ? String(reservation.ttlMs) : '',
    reservation ? String(checks[0]?.cost ?? 0) : '',
    String(checks.length),
  ];
  const paramOptions = { horizonMs: reservation?.ttlMs ?? 0 };
  for (const check of checks) {
    args.push(check.name ?? '', check.rule.algorithm, check.candidate ? '1' : '0');
    args.push(String(check.cost));
    args.push(...ruleParams(check.rule, clientMs, { ...paramOptions, lease: check.lease }));
  }
  const reply = await runScript(
    redis,
    'check_rules',
    reservation ? [...keys, reservation.key] : keys,
    args,
  );
  if (reply[0] === EXPIRED && options.deadline !== undefined) {
    throw new DeadlineExceededError(options.deadline);
  }
  const rules = checks.map((check, i) => ({
    ...replyDecision(reply, HEADER + i * 6),
    candidate: check.candidate,
  }));
  const decision = combineDecisions(rules, reply[0] === 1, reply[1] === 1);
  const leaseExpiresAt = reply[3] ?? 0;
  const lease = checks.find((check) => check.lease !== undefined)?.lease;
  if (leaseExpiresAt > 0 && lease !== undefined) {
    decision.lease = { nonce: lease, expiresAt: leaseExpiresAt };
  }
  const reservationExpiresAt = reply[2] ?? 0;
  return {
    decision,
    reservationExpiresAt: reservationExpiresAt > 0 ? reservationExpiresAt : undefined,
  };
}

/** Calendar boundaries come from the client clock, or the injected one. */
function clientNowMs(nowUs: number | undefined): number {
  return nowUs === undefined ? Date.now() : nowUs / 1000;
}
