import type {
  CompositeDecision,
  Decision,
  PreparedDecision,
  RuleDecision,
  SettleResult,
} from './decision';
import { AlgorithmInputError } from './errors';
import { validateNonce } from './ids';
import {
  leaseFor,
  preparedDecision,
  validateReservation,
  type CheckPreparedOptions,
} from './limiters';
import { releaseLeaseModel } from './models/concurrency.model';
import { evaluateChecks, stateOf, type RuleState, type StateWrite } from './models/composite.model';
import type { ReservationRecord } from './models/receipt.model';
import { settleReservationModel } from './models/reservation.model';
import type { AnyRuleSpec, RuleCheck } from './rule-spec';
import {
  preparedRuleKey,
  preparedSet,
  requestChecks,
  reservationKey,
  resolveIdHash,
  type IdentifierRef,
  type PreparedRuleSet,
} from './rule-set';
import { identifierHash } from './rule-key';
import { settleableRules } from './reservations';
import {
  MAX_COST,
  prepareCheck,
  prepareChecks,
  toMicros,
  validateInteger,
  type PreparedCheck,
} from './validate';

export interface LocalLimiterOptions {
  /** Most keys kept; beyond it the least recently written key is forgotten (default 100,000). */
  maxKeys?: number;
  /** Ms epoch clock (default Date.now). */
  clock?: () => number;
}

interface Entry<T> {
  value: T;
  expiresAtUs: number;
}

/**
 * In-process limiter on the reference models (e.g. the data plane's local fail mode): the same
 * decisions as the Redis scripts, for one process's traffic only. States and reservation records
 * expire like the keys; leases and reservations work as on Redis (within this process).
 */
export class LocalLimiter {
  private readonly states = new Map<string, Entry<RuleState>>();
  private readonly records = new Map<string, Entry<ReservationRecord>>();
  private readonly maxKeys: number;
  private readonly clock: () => number;

  constructor(options: LocalLimiterOptions = {}) {
    this.maxKeys = options.maxKeys ?? 100_000;
    if (!Number.isInteger(this.maxKeys) || this.maxKeys < 1) {
      throw new AlgorithmInputError('maxKeys', `must be an integer >= 1, got ${this.maxKeys}`);
    }
    this.clock = options.clock ?? Date.now;
  }

  /** Rule states kept (reservation records are counted apart, with the same bound). */
  get size(): number {
    return this.states.size;
  }

  check(
    key: string,
    rule: AnyRuleSpec,
    options: { cost?: number; now?: number; lease?: string } = {},
  ): Decision {
    const nowUs = this.nowUs(options.now);
    const check = prepareCheck(key, rule, options.cost, options.lease);
    const [{ candidate: _candidate, ...decision }] = this.apply([check], nowUs, false).decision
      .rules as [RuleDecision];
    return decision;
  }

  checkRules(
    checks: readonly RuleCheck[],
    options: { now?: number; dryRun?: boolean; lease?: string } = {},
  ): CompositeDecision {
    const prepared = prepareChecks(checks);
    const lease = leaseFor(prepared, options.lease);
    const withLease = prepared.map((check) =>
      check.rule.algorithm === 'concurrency' ? { ...check, lease } : check,
    );
    return this.apply(withLease, this.nowUs(options.now), options.dryRun ?? false).decision;
  }

  /** `checkRules` for a set made by `prepareRuleSet`: see `checkPrepared`. */
  checkPrepared(
    set: PreparedRuleSet,
    identifier: string | Uint8Array,
    cost: number | readonly number[],
    options: Omit<CheckPreparedOptions, 'deadline'> = {},
  ): PreparedDecision {
    const idHash = identifierHash(identifier);
    const checks = requestChecks(
      preparedSet(set),
      idHash,
      cost,
      leaseFor(set.rules, options.lease),
    );
    const reservation = validateReservation(options.reservation, cost);
    const nowUs = this.nowUs(options.now);
    const { decision, record } = this.apply(
      checks,
      nowUs,
      options.dryRun ?? false,
      reservation !== undefined,
    );
    let expiresAt: number | undefined;
    if (reservation && record) {
      expiresAt = Math.ceil(nowUs / 1000) + reservation.ttlMs;
      this.remember(this.records, reservationKey(set, idHash, reservation.nonce), {
        value: record,
        expiresAtUs: nowUs + reservation.ttlMs * 1000,
      });
    }
    return preparedDecision(set, idHash, checks, decision, reservation, expiresAt);
  }

  /** `settleReservation` on this process's records and states. */
  settleReservation(
    set: PreparedRuleSet,
    identifier: IdentifierRef,
    nonce: string,
    actualCost: number,
    options: { now?: number } = {},
  ): SettleResult {
    const idHash = resolveIdHash(identifier);
    const key = reservationKey(preparedSet(set), idHash, nonce);
    const actual = validateInteger('actualCost', actualCost, 0, MAX_COST);
    const nowUs = this.nowUs(options.now);
    const entry = this.read(this.records, key, nowUs);
    const rules = settleableRules(set).map((rule) => ({
      ...rule,
      key: preparedRuleKey(set, idHash, rule),
    }));
    const { result, writes, record } = settleReservationModel(
      (k) => this.read(this.states, k, nowUs)?.value,
      rules,
      entry?.value,
      nowUs,
      actual,
    );
    this.write(writes, nowUs);
    // the record keeps its expiry: a repeated settle is recognized until then
    if (entry && record) entry.value = record;
    return result;
  }

  /** `releaseLease` on this process's leases. */
  releaseLease(
    set: PreparedRuleSet,
    identifier: IdentifierRef,
    nonce: string,
    options: { now?: number } = {},
  ): { released: boolean } {
    const idHash = resolveIdHash(identifier);
    const lease = validateNonce(nonce);
    const nowUs = this.nowUs(options.now);
    let released = false;
    for (const rule of preparedSet(set).rules) {
      if (rule.rule.algorithm !== 'concurrency') continue;
      const key = preparedRuleKey(set, idHash, rule);
      const entry = this.read(this.states, key, nowUs);
      const after = releaseLeaseModel(stateOf('concurrency', entry?.value), nowUs, lease);
      released ||= after.released;
      if (entry && after.state) entry.value = after.state;
    }
    return { released };
  }

  /** Forgets the states kept under these keys (a reset); unknown keys are ignored. */
  forget(keys: readonly string[]): void {
    for (const key of keys) this.states.delete(key);
  }

  private nowUs(now: number | undefined): number {
    return toMicros(now ?? this.clock());
  }

  private apply(
    checks: PreparedCheck[],
    nowUs: number,
    dryRun: boolean,
    reserve = false,
  ): { decision: CompositeDecision; record: ReservationRecord | undefined } {
    const { decision, writes, reservation } = evaluateChecks(
      (key) => this.read(this.states, key, nowUs)?.value,
      checks,
      nowUs,
      dryRun,
      reserve,
    );
    this.write(writes, nowUs);
    return { decision, record: reservation };
  }

  private write(writes: readonly StateWrite[], nowUs: number): void {
    for (const { key, state, ttlMs } of writes) {
      this.remember(this.states, key, { value: state, expiresAtUs: nowUs + ttlMs * 1000 });
    }
  }

  /** Re-inserting moves the key to the end of the Map's order, so eviction takes the oldest. */
  private remember<T>(map: Map<string, Entry<T>>, key: string, entry: Entry<T>): void {
    map.delete(key);
    map.set(key, entry);
    for (const oldest of map.keys()) {
      if (map.size <= this.maxKeys) break;
      map.delete(oldest);
    }
  }

  private read<T>(map: Map<string, Entry<T>>, key: string, nowUs: number): Entry<T> | undefined {
    const entry = map.get(key);
    if (entry && entry.expiresAtUs <= nowUs) {
      map.delete(key);
      return undefined;
    }
    return entry;
  }
}
