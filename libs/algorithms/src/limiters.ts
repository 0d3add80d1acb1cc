import { combineDecisions, type CompositeDecision, type Decision } from './decision';
import { AlgorithmInputError, DeadlineExceededError } from './errors';
import type {
  FixedWindowRule,
  GcraRule,
  LeakyBucketRule,
  RuleCheck,
  RuleSpec,
  SlidingWindowCounterRule,
  SlidingWindowLogRule,
  TokenBucketRule,
} from './rule-spec';
import { hashSlotPart } from './rule-key';
import { ruleSetChecks, type PreparedRuleSet } from './rule-set';
import { timeArg, replyDecision, ruleKeys, ruleParams } from './script-args';
import { runScript, type RedisLike } from './scripts';
import { prepareCheck, prepareChecks, validateNow, type PreparedCheck } from './validate';

export interface CheckOptions {
  /** Integer >= 0, default 1; 0 peeks. */
  cost?: number;
  /** Injected clock for replays and tests: ms epoch (fractional allowed, rounded to the us). */
  now?: number;
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
}

/** The composite script's reply when it started after the deadline. */
const EXPIRED = -1;

type Params<R> = R extends unknown ? Omit<R, 'algorithm'> : never;

/** Decides one rule with its own script; validates everything before touching Redis. */
export async function checkRule(
  redis: RedisLike,
  key: string,
  rule: RuleSpec,
  options: CheckOptions = {},
): Promise<Decision> {
  const check = prepareCheck(key, rule, options.cost);
  const nowUs = validateNow(options.now);
  const reply = await runScript(redis, check.rule.algorithm, ruleKeys(check.rule, check.key), [
    timeArg(nowUs),
    String(check.cost),
    ...ruleParams(check.rule, clientNowMs(nowUs)),
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
  const keys = prepared.flatMap((check) => ruleKeys(check.rule, check.key));
  const slot = hashSlotPart(keys[0] ?? '');
  if (keys.some((key) => hashSlotPart(key) !== slot)) {
    throw new AlgorithmInputError('rules', 'all keys of one check must share one {hash tag}');
  }
  return runComposite(redis, prepared, keys, options);
}

/**
 * `checkRules` for a rule set validated once by `prepareRuleSet`: validates only the request's
 * identifier (its keys) and cost (one for every rule, or one per rule), then decides the same.
 */
export async function checkPrepared(
  redis: RedisLike,
  set: PreparedRuleSet,
  identifier: string | Uint8Array,
  cost: number | readonly number[],
  options: CheckRulesOptions = {},
): Promise<CompositeDecision> {
  const checks = ruleSetChecks(set, identifier, cost);
  const keys = checks.flatMap((check) => ruleKeys(check.rule, check.key));
  return runComposite(redis, checks, keys, options);
}

async function runComposite(
  redis: RedisLike,
  checks: readonly PreparedCheck[],
  keys: readonly string[],
  options: CheckRulesOptions,
): Promise<CompositeDecision> {
  const nowUs = validateNow(options.now);
  const deadlineUs = validateNow(options.deadline, 'deadline');
  const clientMs = clientNowMs(nowUs);
  const args = [
    timeArg(nowUs),
    options.dryRun ? '1' : '0',
    timeArg(deadlineUs),
    String(checks.length),
  ];
  for (const check of checks) {
    args.push(check.rule.algorithm, check.candidate ? '1' : '0', String(check.cost));
    args.push(...ruleParams(check.rule, clientMs));
  }
  const reply = await runScript(redis, 'check_rules', keys, args);
  if (reply[0] === EXPIRED && options.deadline !== undefined) {
    throw new DeadlineExceededError(options.deadline);
  }
  const rules = checks.map((check, i) => ({
    ...replyDecision(reply, 2 + i * 6),
    candidate: check.candidate,
  }));
  return combineDecisions(rules, reply[0] === 1, reply[1] === 1);
}

/** Calendar boundaries come from the client clock, or the injected one. */
function clientNowMs(nowUs: number | undefined): number {
  return nowUs === undefined ? Date.now() : nowUs / 1000;
}
