export { calendarBoundaries, calendarWindow } from './calendar';
export { countPerBucket, mostInAnyWindow } from './compare/admission-stats';
export {
  ARRIVAL_PATTERNS,
  arrivalOffsets,
  comparisonRules,
  PATTERN_WINDOWS,
  type ArrivalPattern,
} from './compare/arrival-patterns';
export {
  BUCKETS_PER_WINDOW,
  compareAlgorithms,
  MAX_COMPARISON_LIMIT,
  type AlgorithmAdmissions,
  type Comparison,
  type ComparisonRequest,
} from './compare/compare-algorithms';
export { replayInRedis, replayModel } from './compare/replay';
export {
  RETRY_NEVER,
  type CompositeDecision,
  type Decision,
  type Lease,
  type PreparedDecision,
  type PreparedLease,
  type Reservation,
  type RuleDecision,
  type SettledRule,
  type SettleResult,
} from './decision';
export { AlgorithmInputError, DeadlineExceededError } from './errors';
export {
  leaseId,
  newNonce,
  NONCE_LENGTH,
  parseLeaseId,
  parseReservationId,
  randomBase62,
  reservationId,
  type OperationId,
} from './ids';
export {
  checkPrepared,
  checkRule,
  checkRules,
  concurrency,
  fixedWindow,
  gcra,
  leakyBucket,
  slidingWindowCounter,
  slidingWindowLog,
  tokenBucket,
  type CheckOptions,
  type CheckPreparedOptions,
  type CheckRulesOptions,
  type ReservationOptions,
} from './limiters';
export { LocalLimiter, type LocalLimiterOptions } from './local-limiter';
export {
  evaluateChecks,
  evaluateRule,
  type RuleState,
  type StateWrite,
} from './models/composite.model';
export {
  concurrencyModel,
  releaseLeaseModel,
  type ConcurrencyState,
} from './models/concurrency.model';
export {
  fixedWindowModel,
  fixedWindowSettle,
  type FixedWindowState,
} from './models/fixed-window.model';
export { gcraModel, gcraSettle, type GcraState } from './models/gcra.model';
export {
  leakyBucketModel,
  leakyBucketSettle,
  type LeakyBucketState,
} from './models/leaky-bucket.model';
export { MAX_DEBT_US, type ModelResult, type SettleStep } from './models/model';
export type { ReservationRecord, RuleReceipt } from './models/receipt.model';
export { settleReservationModel, settleRule, type SettleRuleRef } from './models/reservation.model';
export {
  slidingWindowCounterModel,
  slidingWindowCounterSettle,
  type SlidingWindowCounterState,
} from './models/sliding-window-counter.model';
export {
  slidingWindowLogModel,
  slidingWindowLogSettle,
  type SlidingWindowLogEntry,
  type SlidingWindowLogState,
} from './models/sliding-window-log.model';
export {
  tokenBucketModel,
  tokenBucketSettle,
  type TokenBucketState,
} from './models/token-bucket.model';
export { emissionIntervalUs } from './models/virtual-schedule';
export { releaseLease, releaseLeaseKeys, settleReservation } from './reservations';
export {
  hashSlotPart,
  identifierHash,
  MAX_IDENTIFIER_BYTES,
  ruleKey,
  ruleStateName,
  ruleStateTag,
  type RuleKeyParts,
} from './rule-key';
export {
  prepareRuleSet,
  ruleSetChecks,
  ruleSetKeys,
  type IdentifierRef,
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
  MAX_LEASE_TTL_MS,
  MAX_LEASES,
  MAX_RATE_PER_SECOND,
  MAX_RESERVATION_TTL_MS,
  MAX_RULES,
  MAX_WINDOW_MS,
  MIN_LEASE_TTL_MS,
  MIN_RESERVATION_TTL_MS,
  MIN_WINDOW_MS,
  prepareChecks,
  validateAnyRule,
  validateRule,
  type PreparedCheck,
} from './validate';
