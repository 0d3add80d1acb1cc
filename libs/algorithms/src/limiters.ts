import { combineDecisions, type CompositeDecision, type Decision } from './decision';
import { AlgorithmInputError } from './errors';
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
import { nowArg, replyDecision, ruleKeys, ruleParams } from './script-args';
import { runScript, type RedisLike } from './scripts';
import { prepareCheck, prepareChecks, validateNow } from './validate';

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
}

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
    nowArg(nowUs),
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
  const nowUs = validateNow(options.now);
  const keys = prepared.flatMap((check) => ruleKeys(check.rule, check.key));
  const slot = hashSlotPart(keys[0] ?? '');
  if (keys.some((key) => hashSlotPart(key) !== slot)) {
    throw new AlgorithmInputError('rules', 'all keys of one check must share one {hash tag}');
  }
  const clientMs = clientNowMs(nowUs);
  const args = [nowArg(nowUs), options.dryRun ? '1' : '0', String(prepared.length)];
  for (const check of prepared) {
    args.push(check.rule.algorithm, check.candidate ? '1' : '0', String(check.cost));
    args.push(...ruleParams(check.rule, clientMs));
  }
  const reply = await runScript(redis, 'check_rules', keys, args);
  const rules = prepared.map((check, i) => ({
    ...replyDecision(reply, 2 + i * 6),
    candidate: check.candidate,
  }));
  return combineDecisions(rules, reply[0] === 1, reply[1] === 1);
}

/** Calendar boundaries come from the client clock, or the injected one. */
function clientNowMs(nowUs: number | undefined): number {
  return nowUs === undefined ? Date.now() : nowUs / 1000;
}
