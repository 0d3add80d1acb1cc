export {
  ALERT_THRESHOLDS,
  parseQuotaAlert,
  thresholdCrossings,
  type AlertThreshold,
  type PendingAlert,
  type QuotaAlert,
} from './alerts';
export {
  UsageRecorder,
  type DecisionEvent,
  type RuleFigures,
  type SettleEvent,
  type UsageRecorderOptions,
  type UsageStats,
} from './recorder';
export {
  MAX_READ_MINUTES,
  MAX_READ_ROWS,
  MAX_READ_SECONDS,
  addUsage,
  emptyUsage,
  readActiveMinutes,
  readActivePolicies,
  readKeyLastUsed,
  readMinutes,
  readSeconds,
  readTopCost,
  readTopDenied,
  type ActiveMinute,
  type ActivePolicy,
  type CostlyIdentifier,
  type DeniedIdentifier,
  type KeyLastUsed,
  type UsageMinute,
  type UsageSecond,
  type UsageTotals,
} from './readers';
export { readCostByMinute, readDeniedByMinute, type ScoresByMinute } from './minute-scores';
export { readDecisionLog, type DecisionLogEntry, type DecisionLogPage } from './decision-log';
export { UsageFlushError, UsageInputError } from './errors';
export {
  decisionLogKey,
  keyLastUsedKey,
  quotaAlertClaimKey,
  quotaAlertStreamKey,
  topCostKey,
  topDeniedKey,
  usageActiveKey,
  usageSecondKey,
} from './keys';
