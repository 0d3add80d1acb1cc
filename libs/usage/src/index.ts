export {
  UsageRecorder,
  type DecisionEvent,
  type SettleEvent,
  type UsageRecorderOptions,
  type UsageStats,
} from './recorder';
export {
  MAX_READ_MINUTES,
  MAX_READ_ROWS,
  MAX_READ_SECONDS,
  readDecisionLog,
  readKeyLastUsed,
  readSeconds,
  readTopDenied,
  type DecisionLogEntry,
  type DecisionLogPage,
  type DeniedIdentifier,
  type KeyLastUsed,
  type UsageSecond,
} from './readers';
export { UsageFlushError, UsageInputError } from './errors';
export { decisionLogKey, keyLastUsedKey, topDeniedKey, usageSecondKey } from './keys';
