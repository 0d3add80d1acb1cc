export {
  CircuitBreaker,
  CircuitBreakers,
  type CircuitBreakerOptions,
  type CircuitBreakersOptions,
  type CircuitState,
  type CircuitStats,
} from './breaker';
export {
  DecisionEngine,
  engineRedisOptions,
  FAIL_CLOSED_RETRY_MS,
  type DecisionEngineOptions,
} from './engine';
export { startEngineRuntime, stopEngineRuntime, type EngineRuntime } from './engine-runtime';
export {
  AuthenticationError,
  EngineError,
  ForbiddenError,
  InputError,
  LeaseNotFoundError,
  PolicyNotFoundError,
  PROBLEM_BASE,
  ReservationNotFoundError,
  ReservationsDisabledError,
  UnavailableError,
  type ProblemDetails,
} from './errors';
export { problemForDenial, rateLimitHeaders } from './headers';
export { indexOverrides, matchOverride, type OverrideIndex } from './overrides';
export {
  PolicyCache,
  type CacheCounters,
  type CachedPolicy,
  type CachedTenant,
  type PolicyCacheOptions,
  type PolicyCacheStats,
  type PolicyCacheTuning,
} from './policy-cache';
export { RedisClock } from './redis-clock';
export { ruleWindow, type RuleWindow } from './rule-window';
export type {
  CheckRequest,
  CheckResult,
  DecisionReason,
  DecisionRecorder,
  InspectRequest,
  ReleaseRequest,
  ReleaseResult,
  RuleResult,
  SettledRuleResult,
  SettleEvent,
  SettleRequest,
  SettleResult,
} from './types';
