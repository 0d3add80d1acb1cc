export { calendarBoundaries, calendarWindow } from './calendar';
export { RETRY_NEVER, type CompositeDecision, type Decision, type RuleDecision } from './decision';
export { AlgorithmInputError, DeadlineExceededError } from './errors';
export {
  checkPrepared,
  checkRule,
  checkRules,
  fixedWindow,
  gcra,
  leakyBucket,
  slidingWindowCounter,
  slidingWindowLog,
  tokenBucket,
  type CheckOptions,
  type CheckRulesOptions,
} from './limiters';
export { LocalLimiter, type LocalLimiterOptions } from './local-limiter';
export {
  evaluateChecks,
  evaluateRule,
  type RuleState,
  type StateWrite,
} from './models/composite.model';
export { fixedWindowModel, type FixedWindowState } from './models/fixed-window.model';
export { gcraModel, type GcraState } from './models/gcra.model';
export { leakyBucketModel, type LeakyBucketState } from './models/leaky-bucket.model';
export type { ModelResult } from './models/model';
export {
  slidingWindowCounterModel,
  type SlidingWindowCounterState,
} from './models/sliding-window-counter.model';
export {
  slidingWindowLogModel,
  type SlidingWindowLogState,
} from './models/sliding-window-log.model';
export { tokenBucketModel, type TokenBucketState } from './models/token-bucket.model';
export { emissionIntervalUs } from './models/virtual-schedule';
export { hashSlotPart, identifierHash, ruleKey, type RuleKeyParts } from './rule-key';
export {
  prepareRuleSet,
  ruleSetChecks,
  ruleSetKeys,
  type PreparedRule,
  type PreparedRuleSet,
  type RuleSetRule,
  type RuleSetSpec,
} from './rule-set';
export type * from './rule-spec';
export { ruleKeys } from './script-args';
export { loadScripts, ScriptLoadError, type LoadedScript } from './script-loader';
export {
  createScriptSet,
  readLibVersion,
  scriptCommandName,
  type ScriptArg,
  type ScriptSet,
  type ScriptSetOptions,
} from './script-set';
export {
  commandName,
  LIB_VERSION,
  registerScripts,
  type RedisLike,
  type ScriptName,
} from './scripts';
export {
  MAX_CAPACITY,
  MAX_COST,
  MAX_DRAIN_MS,
  MAX_RATE_PER_SECOND,
  MAX_RULES,
  MAX_WINDOW_MS,
  MIN_WINDOW_MS,
  prepareChecks,
  validateRule,
  type PreparedCheck,
} from './validate';
