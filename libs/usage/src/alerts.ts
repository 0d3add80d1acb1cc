import { identifierHash, randomBase62 } from '@sluice/algorithms';
import { ENABLED_ENDPOINTS_FIELD, endpointsKey } from '@sluice/webhooks';
import { createHash } from 'node:crypto';
import type { UsageAggregate } from './aggregate';
import type { FlushCommand } from './commands';
import { ID_PATTERN, NAME_PATTERN, quotaAlertClaimKey } from './keys';
import { usageScripts } from './last-used';
import type { RuleFigures } from './figures';
import type { DecisionEvent } from './recorder';

/** The shares of a quota window's limit that raise an alert, in percent. */
export const ALERT_THRESHOLDS = [80, 100] as const;
export type AlertThreshold = (typeof ALERT_THRESHOLDS)[number];

/**
 * A fixed window's claim lives at least this long, even when the window ends sooner: a retried
 * flush must still find it (its key names the window, so the next window is not held back).
 */
const MIN_FIXED_CLAIM_MS = 60_000;
/** Alerts per claim script call, so a flood of crossings never blocks Redis for long. */
const CLAIMS_PER_CALL = 500;
const MAX_IDENTIFIER_BYTES = 256;

/** One threshold crossing seen by this data plane, waiting to be claimed and published. */
export interface PendingAlert {
  readonly tenantId: string;
  readonly policy: string;
  readonly rule: string;
  /** As the tenant sent it: payloads carry it; keys only its hash (`idHash`). */
  readonly identifier: string;
  readonly idHash: string;
  readonly threshold: AlertThreshold;
  readonly limit: number;
  /** Units used in the window right after the check that crossed (limit - remaining). */
  readonly used: number;
  /** The window the use counts in (ms epoch): a fixed window's bounds, or the sliding window
   * that ended with the check. */
  readonly windowStart: number;
  readonly windowEnd: number;
  /** The check's time (ms epoch). */
  readonly at: number;
  /** What the claim is unique per: a fixed window's end (ms), or `sliding`. */
  readonly window: string;
  /** Ms epoch until which the claim holds. */
  readonly claimUntil: number;
  /** This data plane's mark on its claim: a retry after a lost reply finds the claim its own. */
  readonly nonce: string;
}

/** A threshold alert as the worker reads it from the stream. */
export interface QuotaAlert {
  /** The same for every data plane that saw the crossing: a hash of what the claim is unique per. */
  id: string;
  tenantId: string;
  policy: string;
  rule: string;
  identifier: string;
  threshold: AlertThreshold;
  limit: number;
  used: number;
  windowStart: number;
  windowEnd: number;
  at: number;
}

/** Which rules have a quota window, and how their window is named. */
function windowKind(algorithm: string): 'fixed' | 'sliding' | undefined {
  switch (algorithm) {
    case 'fixed_window':
      return 'fixed';
    case 'sliding_window_log':
    case 'sliding_window_counter':
      return 'sliding';
    default:
      return undefined;
  }
}

/**
 * The thresholds the check crossed: for each rule with a quota window, 80 % (rounded up to a
 * whole unit) and 100 % of its limit, each when the use before the check (used - cost) was below
 * it and the use after (limit - remaining) reaches it; a cost that jumps both crosses both. Only
 * checks that charged in Redis count (`reason: allowed`, cost > 0): a denial, a shadow denial
 * (`shadow`), a peek and the fail modes charge nothing shared, so they cross nothing. No state is
 * kept: the rule's figures come from Redis, where the charge is atomic, so exactly one check
 * crosses each threshold of a fixed window. Undefined (nothing allocated) when nothing crossed.
 */
export function thresholdCrossings(event: DecisionEvent): PendingAlert[] | undefined {
  const { rules, cost } = event;
  if (rules === undefined || event.reason !== 'allowed' || !(cost > 0)) return undefined;
  let found: PendingAlert[] | undefined;
  for (let i = 0; i < rules.length; i += 1) {
    const rule = rules[i];
    const kind = rule && windowKind(rule.algorithm);
    if (!rule || !kind) continue;
    const used = rule.limit - rule.remaining;
    const before = used - cost;
    const mark80 = Math.ceil((rule.limit * 4) / 5);
    if (before < mark80 && used >= mark80) found = crossing(found, event, rule, kind, 80, used);
    if (before < rule.limit && used >= rule.limit) {
      found = crossing(found, event, rule, kind, 100, used);
    }
  }
  return found;
}

function crossing(
  found: PendingAlert[] | undefined,
  event: DecisionEvent,
  rule: RuleFigures,
  kind: 'fixed' | 'sliding',
  threshold: AlertThreshold,
  used: number,
): PendingAlert[] | undefined {
  // the engine's figures, checked only now that they matter (and end up in keys and payloads)
  if (
    !NAME_PATTERN.test(rule.name) ||
    !Number.isSafeInteger(rule.limit) ||
    rule.limit < 1 ||
    !Number.isSafeInteger(used) ||
    !Number.isSafeInteger(rule.windowMs) ||
    rule.windowMs < 1 ||
    !Number.isSafeInteger(rule.resetAt) ||
    rule.resetAt < 0 ||
    Buffer.byteLength(event.identifier, 'utf8') > MAX_IDENTIFIER_BYTES
  ) {
    return found;
  }
  const { at } = event;
  const fixed = kind === 'fixed';
  const alert: PendingAlert = {
    tenantId: event.tenantId,
    policy: event.policy,
    rule: rule.name,
    identifier: event.identifier,
    idHash: identifierHash(event.identifier),
    threshold,
    limit: rule.limit,
    used,
    windowStart: fixed ? rule.resetAt - rule.windowMs : at - rule.windowMs,
    windowEnd: fixed ? rule.resetAt : at,
    at,
    window: fixed ? String(rule.resetAt) : 'sliding',
    claimUntil: fixed ? Math.max(rule.resetAt, at + MIN_FIXED_CLAIM_MS) : at + rule.windowMs,
    nonce: randomBase62(16),
  };
  (found ??= []).push(alert);
  return found;
}

/** What one claim call said about its alerts. */
export interface ClaimOutcome {
  /** Claimed by this data plane: to be published. */
  claimed: PendingAlert[];
  /** Claimed before, by another data plane or an earlier crossing in the same window. */
  duplicates: number;
  /** The tenant has no enabled webhook endpoint: nothing was claimed. */
  withoutEndpoint: number;
}

/**
 * The claim calls of one flush, one script call per tenant (per 500 alerts) in the tenant's slot:
 * the tenant's endpoints hash and its claim keys share the hash tag `{<tenantId>}`, so they ride
 * in the flush pipeline of the tenant's node. A failed call puts its alerts back for the next
 * flush (same nonces, so a claim that landed before the reply was lost is still found ours).
 */
export function alertClaimCommands(
  batch: UsageAggregate,
  prefix: string,
  onOutcome: (outcome: ClaimOutcome) => void,
): FlushCommand[] {
  const commands: FlushCommand[] = [];
  for (const [tenantId, tenant] of batch.tenants) {
    const all = tenant.alerts;
    if (!all) continue;
    const key = endpointsKey(prefix, tenantId);
    for (let start = 0; start < all.length; start += CLAIMS_PER_CALL) {
      const alerts = all.slice(start, start + CLAIMS_PER_CALL);
      const keys = [key];
      const args: (string | number)[] = [ENABLED_ENDPOINTS_FIELD];
      let lastClaim = 0;
      for (const alert of alerts) {
        keys.push(claimKey(prefix, alert));
        args.push(alert.nonce, alert.claimUntil);
        lastClaim = Math.max(lastClaim, alert.claimUntil);
      }
      commands.push({
        key,
        staleFrom: Math.ceil(lastClaim / 1000),
        send: (pipeline) => usageScripts.queue(pipeline, 'claim_alerts', keys, args),
        restore: (into) => {
          const target = into.tenant(tenantId);
          if (target) for (const alert of alerts) into.addAlert(target, alert);
        },
        onReply: (reply) => onOutcome(claimOutcome(alerts, reply)),
      });
    }
  }
  return commands;
}

function claimKey(prefix: string, alert: PendingAlert): string {
  return quotaAlertClaimKey(
    prefix,
    alert.tenantId,
    alert.policy,
    alert.rule,
    alert.idHash,
    alert.window,
    alert.threshold,
  );
}

function claimOutcome(alerts: readonly PendingAlert[], reply: unknown): ClaimOutcome {
  if (!Array.isArray(reply) || reply[0] !== 1) {
    return { claimed: [], duplicates: 0, withoutEndpoint: alerts.length };
  }
  const claimed = alerts.filter((_, i) => reply[i + 1] === 1);
  return { claimed, duplicates: alerts.length - claimed.length, withoutEndpoint: 0 };
}

/** The alert's stream entry (XADD fields). */
export function quotaAlertFields(alert: PendingAlert): (string | number)[] {
  const id = createHash('sha256')
    .update(
      [alert.tenantId, alert.policy, alert.rule, alert.idHash, alert.window, alert.threshold].join(
        ':',
      ),
    )
    .digest('base64url')
    .slice(0, 22);
  return [
    'id',
    id,
    'tenant',
    alert.tenantId,
    'policy',
    alert.policy,
    'rule',
    alert.rule,
    'identifier',
    alert.identifier,
    'threshold',
    alert.threshold,
    'limit',
    alert.limit,
    'used',
    alert.used,
    'windowStart',
    alert.windowStart,
    'windowEnd',
    alert.windowEnd,
    'at',
    alert.at,
  ];
}

const ALERT_ID = /^[A-Za-z0-9_-]{22}$/;

/** A stream entry's fields as an alert; undefined when they are not one (nothing else writes there). */
export function parseQuotaAlert(fields: readonly string[]): QuotaAlert | undefined {
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) values.set(fields[i]!, fields[i + 1]!);
  const text = (name: string, pattern: RegExp) => {
    const value = values.get(name);
    return value !== undefined && pattern.test(value) ? value : undefined;
  };
  const integer = (name: string) => {
    const raw = values.get(name);
    const value = raw === undefined || !/^-?\d{1,16}$/.test(raw) ? NaN : Number(raw);
    return Number.isSafeInteger(value) ? value : undefined;
  };
  const id = text('id', ALERT_ID);
  const tenantId = text('tenant', ID_PATTERN);
  const policy = text('policy', NAME_PATTERN);
  const rule = text('rule', NAME_PATTERN);
  const identifier = values.get('identifier');
  const threshold = integer('threshold');
  const limit = integer('limit');
  const used = integer('used');
  const windowStart = integer('windowStart');
  const windowEnd = integer('windowEnd');
  const at = integer('at');
  if (
    id === undefined ||
    tenantId === undefined ||
    policy === undefined ||
    rule === undefined ||
    identifier === undefined ||
    identifier === '' ||
    Buffer.byteLength(identifier, 'utf8') > MAX_IDENTIFIER_BYTES ||
    (threshold !== 80 && threshold !== 100) ||
    limit === undefined ||
    used === undefined ||
    windowStart === undefined ||
    windowEnd === undefined ||
    at === undefined
  ) {
    return undefined;
  }
  return {
    id,
    tenantId,
    policy,
    rule,
    identifier,
    threshold,
    limit,
    used,
    windowStart,
    windowEnd,
    at,
  };
}
