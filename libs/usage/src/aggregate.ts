import type { PendingAlert } from './alerts';
import type { AnswerFigures, RuleFigures } from './figures';

/** One decision log entry as it is written to the stream. */
export interface LogEntry {
  at: number;
  identifier: string;
  outcome: 'allowed' | 'denied';
  reason: string;
  deniedBy: string | undefined;
  overrideId: string | undefined;
  cost: number;
  shadowDenied: boolean;
  candidatesDeniedBy: readonly string[] | undefined;
  rules: readonly RuleFigures[] | undefined;
  answer: AnswerFigures | undefined;
}

export interface PolicyUsage {
  /** Epoch second → per-second hash field → amount to add. */
  readonly seconds: Map<number, Map<string, number>>;
  /** Epoch minute → denied identifier → denials to add. */
  readonly minutes: Map<number, Map<string, number>>;
  /**
   * Epoch minute → identifier → cost its allowed checks charged; a flush sends the K costliest.
   */
  readonly costMinutes: Map<number, Map<string, number>>;
  /** A ring of the newest entries (the stream keeps no more); `logStart` is the oldest. */
  readonly log: LogEntry[];
  logStart: number;
  /** The stream's EXPIRE failed: the next flush sets it even without new entries. */
  logExpirePending: boolean;
}

export interface TenantUsage {
  readonly policies: Map<string, PolicyUsage>;
  /** API key id → latest use (ms epoch). */
  readonly lastUsed: Map<string, number>;
  /** Threshold alerts to claim; created with the first (crossings are rare). */
  alerts: PendingAlert[] | undefined;
}

export interface AggregateLimits {
  /** Entries (map entries and log entries) held at most; further ones are dropped and counted. */
  maxEntries: number;
  /** Log entries kept per policy: the stream's MAXLEN, so older ones would be trimmed anyway. */
  logLimit: number;
  /**
   * Distinct denied identifiers per (policy, minute) per flush: bounds Redis work under attack.
   * Charged identifiers are pruned back to as many, the costliest kept, at twice as many.
   */
  identifiersPerMinute: number;
}

export interface DropCounts {
  /** Entries refused because `maxEntries` was reached. */
  overCap: number;
  /** Denied identifiers left out of the top-K because `identifiersPerMinute` was reached. */
  topDeniedOverflow: number;
  /** Charged identifiers pruned from a flush's heavy hitters (the cheapest, when too many). */
  topCostPruned: number;
}

/**
 * The usage of one flush interval, in memory. Recording and merging a failed flush back use the
 * same methods, so both respect the same bound: every entry created counts against `maxEntries`.
 */
export class UsageAggregate {
  readonly tenants = new Map<string, TenantUsage>();
  entries = 0;

  constructor(
    private readonly limits: AggregateLimits,
    private readonly drops: DropCounts,
  ) {}

  tenant(tenantId: string): TenantUsage | undefined {
    let tenant = this.tenants.get(tenantId);
    if (tenant === undefined && this.reserve()) {
      tenant = { policies: new Map(), lastUsed: new Map(), alerts: undefined };
      this.tenants.set(tenantId, tenant);
    }
    return tenant;
  }

  policy(tenant: TenantUsage, name: string): PolicyUsage | undefined {
    let policy = tenant.policies.get(name);
    if (policy === undefined && this.reserve()) {
      policy = {
        seconds: new Map(),
        minutes: new Map(),
        costMinutes: new Map(),
        log: [],
        logStart: 0,
        logExpirePending: false,
      };
      tenant.policies.set(name, policy);
    }
    return policy;
  }

  policyOf(tenantId: string, name: string): PolicyUsage | undefined {
    const tenant = this.tenant(tenantId);
    return tenant && this.policy(tenant, name);
  }

  /** The counters of one second (created empty: a flush then still sets the key's TTL). */
  second(policy: PolicyUsage, epochSecond: number): Map<string, number> | undefined {
    return this.child(policy.seconds, epochSecond);
  }

  add(counters: Map<string, number>, field: string, amount: number): void {
    const current = counters.get(field);
    if (current !== undefined) counters.set(field, current + amount);
    else if (this.reserve()) counters.set(field, amount);
  }

  /** The denied identifiers of one minute (created empty: a flush then still trims and expires). */
  minute(policy: PolicyUsage, epochMinute: number): Map<string, number> | undefined {
    return this.child(policy.minutes, epochMinute);
  }

  addDenied(identifiers: Map<string, number>, identifier: string, amount: number): void {
    const current = identifiers.get(identifier);
    if (current !== undefined) identifiers.set(identifier, current + amount);
    else if (identifiers.size >= this.limits.identifiersPerMinute)
      this.drops.topDeniedOverflow += 1;
    else if (this.reserve()) identifiers.set(identifier, amount);
  }

  /** The charged identifiers of one minute (created empty: a flush then still trims and expires). */
  costMinute(policy: PolicyUsage, epochMinute: number): Map<string, number> | undefined {
    return this.child(policy.costMinutes, epochMinute);
  }

  /**
   * Heavy hitters by cost, bounded: at twice `identifiersPerMinute` distinct identifiers, the
   * cheapest half goes (a heavy hitter of the flush stays; one-off identifiers leave). A prune
   * sorts 2K entries once per K new identifiers, so a check pays O(log K) amortized.
   */
  addCost(identifiers: Map<string, number>, identifier: string, amount: number): void {
    const current = identifiers.get(identifier);
    if (current !== undefined) {
      identifiers.set(identifier, current + amount);
      return;
    }
    if (identifiers.size >= 2 * this.limits.identifiersPerMinute) this.prune(identifiers);
    if (this.reserve()) identifiers.set(identifier, amount);
  }

  private prune(identifiers: Map<string, number>): void {
    const kept = [...identifiers]
      .sort((a, b) => b[1] - a[1])
      .slice(0, this.limits.identifiersPerMinute);
    const dropped = identifiers.size - kept.length;
    this.drops.topCostPruned += dropped;
    this.entries -= dropped;
    identifiers.clear();
    for (const [identifier, cost] of kept) identifiers.set(identifier, cost);
  }

  addLog(policy: PolicyUsage, entry: LogEntry): void {
    if (policy.log.length < this.limits.logLimit) {
      if (this.reserve()) policy.log.push(entry);
      return;
    }
    policy.log[policy.logStart] = entry;
    policy.logStart = (policy.logStart + 1) % this.limits.logLimit;
  }

  addAlert(tenant: TenantUsage, alert: PendingAlert): void {
    if (this.reserve()) (tenant.alerts ??= []).push(alert);
  }

  /** Keeps the latest time per key, whatever order the uses arrive in. */
  touchLastUsed(tenant: TenantUsage, keyId: string, at: number): void {
    const current = tenant.lastUsed.get(keyId);
    if (current === undefined) {
      if (this.reserve()) tenant.lastUsed.set(keyId, at);
    } else if (at > current) {
      tenant.lastUsed.set(keyId, at);
    }
  }

  private child(
    parent: Map<number, Map<string, number>>,
    at: number,
  ): Map<string, number> | undefined {
    let child = parent.get(at);
    if (child === undefined && this.reserve()) {
      child = new Map();
      parent.set(at, child);
    }
    return child;
  }

  private reserve(): boolean {
    if (this.entries >= this.limits.maxEntries) {
      this.drops.overCap += 1;
      return false;
    }
    this.entries += 1;
    return true;
  }
}

/** A policy's log entries, oldest first. */
export function logEntries(policy: PolicyUsage): readonly LogEntry[] {
  if (policy.logStart === 0) return policy.log;
  return [...policy.log.slice(policy.logStart), ...policy.log.slice(0, policy.logStart)];
}
