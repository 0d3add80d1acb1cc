import { UsageInputError } from './errors';

// The formats @sluice/policy enforces; checked again here because they end up inside Redis keys.
/** Tenant and API key ids, e.g. `tnt_8f2k`. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Policy names, e.g. `api`: no colon, so key segments stay unambiguous. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** The engine's reason codes (`rule`, `fail-closed`, ...). */
export const REASON_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * Fields of a per-second usage hash: denials are counted per reason as `denied:<reason>` and
 * per denying rule as `denied_by:<rule>`; shadow denials per rule that would have denied as
 * `shadow_by:<rule>`; candidate denials per candidate rule as `candidate_by:<rule>`.
 */
export const FIELD_ALLOWED = 'allowed';
export const FIELD_DENIED_PREFIX = 'denied:';
export const FIELD_DENIED_BY_PREFIX = 'denied_by:';
export const FIELD_SHADOW_DENIED = 'shadow_denied';
export const FIELD_SHADOW_BY_PREFIX = 'shadow_by:';
export const FIELD_CANDIDATE_DENIED = 'candidate_denied';
export const FIELD_CANDIDATE_BY_PREFIX = 'candidate_by:';
/** Allowed because Redis failed and the policy fails open: nobody knows what it would have been. */
export const FIELD_FAIL_OPEN = 'fail_open';
export const FIELD_COST = 'cost';

// Every key carries the tenant as its hash tag, so one tenant's usage lives on one cluster slot.

export function usageSecondKey(
  prefix: string,
  tenantId: string,
  policy: string,
  epochSecond: number,
): string {
  return `${prefix}usage:{${tenantId}}:${policy}:${epochSecond}`;
}

export function topDeniedKey(
  prefix: string,
  tenantId: string,
  policy: string,
  epochMinute: number,
): string {
  return `${prefix}usage:{${tenantId}}:${policy}:top-denied:${epochMinute}`;
}

/** Per minute: each identifier's cost charged by its allowed checks (the costliest K kept). */
export function topCostKey(
  prefix: string,
  tenantId: string,
  policy: string,
  epochMinute: number,
): string {
  return `${prefix}usage:{${tenantId}}:${policy}:top-cost:${epochMinute}`;
}

export function decisionLogKey(prefix: string, tenantId: string, policy: string): string {
  return `${prefix}decisions:{${tenantId}}:${policy}`;
}

export function keyLastUsedKey(prefix: string, tenantId: string): string {
  return `${prefix}apikey-last-used:{${tenantId}}`;
}

/**
 * The (tenant, policy) pairs that recorded usage in one minute, across all tenants: roll-ups
 * find the minute's counters here instead of scanning Redis. The one key that is not tagged by
 * a tenant (it holds them all): it gets a slot of its own and is written by its own command.
 */
export function usageActiveKey(prefix: string, epochMinute: number): string {
  return `${prefix}usage-active:${epochMinute}`;
}

/** `<tenantId>:<policy>`: neither contains a colon (see the patterns above). */
export function activeMember(tenantId: string, policy: string): string {
  return `${tenantId}:${policy}`;
}

/**
 * One threshold alert's claim: set NX by the first data plane whose flush sees the crossing, so
 * that every other one (and a retry) learns it is not the first. The identifier appears as its
 * hash (`identifierHash`), never as given; `<window>` is a fixed window's end (ms) or `sliding`.
 */
export function quotaAlertClaimKey(
  prefix: string,
  tenantId: string,
  policy: string,
  rule: string,
  idHash: string,
  window: string,
  threshold: number,
): string {
  return `${prefix}quota-alert:{${tenantId}}:${policy}:${rule}:${idHash}:${window}:${threshold}`;
}

/**
 * The stream of claimed threshold alerts, from every data plane to the worker (a consumer
 * group). Like the active sets it holds every tenant, so it has a slot of its own.
 */
export function quotaAlertStreamKey(prefix: string): string {
  return `${prefix}quota-alerts`;
}

/** A brace in the prefix would become the hash tag and split or merge tenants' slots. */
export function assertPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || prefix.length > 64 || /[{}\s]/.test(prefix)) {
    throw new UsageInputError('prefix: at most 64 characters, no braces or whitespace');
  }
}

export function assertTenantId(tenantId: string): void {
  if (typeof tenantId !== 'string' || !ID_PATTERN.test(tenantId)) {
    throw new UsageInputError(`tenantId: expected ${ID_PATTERN.source}`);
  }
}

export function assertPolicyName(policy: string): void {
  if (typeof policy !== 'string' || !NAME_PATTERN.test(policy)) {
    throw new UsageInputError(`policy: expected ${NAME_PATTERN.source}`);
  }
}
