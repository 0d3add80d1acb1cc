import {
  type CheckResult,
  problemForDenial,
  rateLimitHeaders,
  type RuleResult,
} from '@sluice/engine';
import type { LoggedRule } from '../usage/models/usage.model';
import type { PlaygroundDecision } from './models/playground.model';

/** A check's answer as the playground shows it: `/v1/check`'s body, headers and statuses. */
export function toPlaygroundDecision(result: CheckResult): PlaygroundDecision {
  const problem = result.allowed ? undefined : problemForDenial(result, '/v1/check');
  return {
    identifier: result.identifier,
    allowed: result.allowed,
    reason: result.reason,
    deniedBy: result.deniedBy ?? null,
    overrideId: result.overrideId ?? null,
    limit: result.limit,
    remaining: result.remaining,
    resetAt: new Date(result.resetAt),
    retryAfterMs: result.retryAfterMs,
    rules: result.rules.map(toLoggedRule),
    candidates: (result.candidates ?? []).map(toLoggedRule),
    headers: Object.entries(rateLimitHeaders(result)).map(([name, value]) => ({ name, value })),
    // as the data plane's sendCheckResult answers
    status: result.reason === 'fail-closed' ? 503 : 200,
    gatewayStatus: problem?.status ?? 200,
    problemDetail: problem?.detail ?? null,
  };
}

function toLoggedRule(rule: RuleResult): LoggedRule {
  return {
    name: rule.name,
    algorithm: rule.algorithm,
    allowed: rule.allowed,
    limit: rule.limit,
    remaining: rule.remaining,
    resetAt: new Date(rule.resetAt),
    retryAfterMs: rule.retryAfterMs,
    quota: rule.quota,
    windowMs: rule.windowMs,
  };
}
