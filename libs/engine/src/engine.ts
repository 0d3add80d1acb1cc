import {
  AlgorithmInputError,
  checkPrepared,
  LocalLimiter,
  MAX_COST,
  parseLeaseId,
  parseReservationId,
  prepareRuleSet,
  releaseLease,
  RETRY_NEVER,
  ruleKey,
  ruleSetKeys,
  settleReservation,
  type AnyRuleSpec,
  type LocalLimiterOptions,
  type PreparedDecision,
  type PreparedRuleSet,
  type RedisLike,
  type ReservationOptions,
  type RuleDecision,
  type SettledRule,
} from '@sluice/algorithms';
import {
  CANDIDATE_KEY_PREFIX,
  NAME_PATTERN,
  type ApiKeyRecord,
  type ApiKeyScope,
  type CompiledOverride,
  type CompiledPolicy,
  type CompiledRule,
  type FieldIssue,
} from '@sluice/policy';
import type { RedisOptions } from 'ioredis';
import { CircuitBreakers, type CircuitBreakersOptions } from './breaker';
import {
  AuthenticationError,
  ForbiddenError,
  InputError,
  LeaseNotFoundError,
  PolicyNotFoundError,
  ReservationNotFoundError,
  ReservationsDisabledError,
  UnavailableError,
  type EngineError,
} from './errors';
import { matchOverride } from './overrides';
import {
  PolicyCache,
  type CachedPolicy,
  type CachedTenant,
  type PolicyCacheTuning,
} from './policy-cache';
import { RedisClock } from './redis-clock';
import { ruleWindow, type RuleWindow } from './rule-window';
import type {
  CheckRequest,
  CheckResult,
  DecisionRecorder,
  InspectRequest,
  ReleaseRequest,
  ReleaseResult,
  RuleResult,
  SettledRuleResult,
  SettleRequest,
  SettleResult,
} from './types';

/** `retryAfterMs` of a fail-closed answer: a hint to come back soon, not a computed wait. */
export const FAIL_CLOSED_RETRY_MS = 1000;
const MAX_SECRET_LENGTH = 256;
const MAX_IDENTIFIER_BYTES = 256;

/**
 * ioredis options for the engine's command connection. Without an offline queue a command is
 * refused at once while disconnected, and one in flight when the connection drops is failed, not
 * sent again on reconnect: a check answered by its fail mode can never be charged minutes later.
 */
export const engineRedisOptions = {
  enableOfflineQueue: false,
  autoResendUnfulfilledCommands: false,
  maxRetriesPerRequest: 0,
} satisfies RedisOptions;

export interface DecisionEngineOptions {
  /** Runs the checks (and, unless `cache` is given, the cache reads). See `engineRedisOptions`. */
  redis: RedisLike;
  /** Dedicated to the change channel; required unless `cache` is given. */
  subscriber?: RedisLike;
  /** A cache the caller starts and stops (e.g. reading another Redis than the limits'). */
  cache?: PolicyCache;
  cacheTuning?: PolicyCacheTuning;
  /** Deployment key prefix, e.g. `sluice:`. */
  prefix: string;
  recorder: DecisionRecorder;
  /** Ms epoch clock for override expiry, key expiry and event times (default Date.now). */
  clock?: () => number;
  /** One circuit per policy (see `CircuitBreakers`). */
  breaker?: Omit<CircuitBreakersOptions, 'clock'>;
  /** The local fail mode's in-process limiter. */
  localLimiter?: Omit<LocalLimiterOptions, 'clock'>;
  /** Redis failures answered by a fail mode, and the cache's background failures. */
  onError?: (error: unknown) => void;
  /** How often the Redis clock's offset is measured again (default 60 s; also on reconnect). */
  clockSyncMs?: number;
}

interface PlannedRule {
  name: string;
  rule: AnyRuleSpec;
  /** Quota and window when they never change (every rule but a calendar window). */
  window: RuleWindow | undefined;
}

/** A policy's rules with one override (or none) applied, validated once for every request. */
interface PreparedPlan {
  /** The rate rules in policy order, then the concurrency rules: one all-or-nothing group. */
  live: PlannedRule[];
  candidates: PlannedRule[];
  /** The live rules, then the candidates: the order of the decision's rules. */
  set: PreparedRuleSet;
}

/** What every result of one request shares. */
interface Subject {
  policyName: string;
  identifier: string;
  at: number;
  cached: CachedPolicy;
  override: CompiledOverride | undefined;
}

interface Resolved {
  tenant: CachedTenant;
  policy: CachedPolicy;
}

const TIMEOUT = Symbol('timeout');

/**
 * The data plane's decision engine: authenticates API keys, resolves a tenant's policy and the
 * identifier's override from the in-process cache, decides every rule in one composite Lua call
 * (the only Redis command of a warm check), falls back to the policy's fail mode, and reports one
 * usage event per check. Settles the reservations and releases the leases its checks hand out,
 * by their ids alone. The enforcement contract is on `DecisionReason` and `CheckResult`.
 */
export class DecisionEngine {
  readonly cache: PolicyCache;
  /** Per policy, by its rule keys' scope `<tenantId>.<policyId>`. */
  readonly breakers: CircuitBreakers;
  private readonly ownsCache: boolean;
  private readonly redis: RedisLike;
  private readonly recorder: DecisionRecorder;
  private readonly clock: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly local: LocalLimiter;
  private readonly rulePrefix: string;
  /** Deadlines of the composite calls are on this clock, not on `clock` (which tests may stop). */
  readonly redisClock: RedisClock;
  private readonly clockSyncMs: number;
  private clockTimer: NodeJS.Timeout | undefined;
  private readonly onReady = () => void this.syncClock();
  /** Per cached policy (dropped with it), by override id ('' for none). */
  private readonly prepared = new WeakMap<CachedPolicy, Map<string, PreparedPlan>>();

  constructor(options: DecisionEngineOptions) {
    this.redis = options.redis;
    this.redisClock = new RedisClock(options.redis);
    this.clockSyncMs = options.clockSyncMs ?? 60_000;
    if (!Number.isFinite(this.clockSyncMs) || this.clockSyncMs <= 0) {
      throw new RangeError(`clockSyncMs must be a number above 0, got ${this.clockSyncMs}`);
    }
    this.recorder = options.recorder;
    this.clock = options.clock ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
    this.rulePrefix = `${options.prefix}rl:`;
    // refuses a prefix that cannot start rule keys now rather than on the first check
    ruleKey({ prefix: this.rulePrefix, scope: 'probe', identifier: 'probe', rule: 'probe' });
    this.breakers = new CircuitBreakers({ ...options.breaker, clock: this.clock });
    this.local = new LocalLimiter({ ...options.localLimiter, clock: this.clock });
    if (options.cache) {
      this.cache = options.cache;
      this.ownsCache = false;
    } else {
      if (!options.subscriber) throw new TypeError('DecisionEngine needs a subscriber or a cache');
      this.cache = new PolicyCache({
        ...options.cacheTuning,
        redis: options.redis,
        subscriber: options.subscriber,
        prefix: options.prefix,
        clock: this.clock,
        onError: this.onError,
      });
      this.ownsCache = true;
    }
  }

  /**
   * Subscribes the cache to the change channel (when the engine built it) and measures the Redis
   * clock (a failure is reported to `onError`; it is measured again on reconnect).
   */
  async start(): Promise<void> {
    if (this.ownsCache) await this.cache.start();
    if (this.clockTimer) return;
    this.redis.on('ready', this.onReady);
    this.clockTimer = setInterval(this.onReady, this.clockSyncMs);
    this.clockTimer.unref();
    await this.syncClock();
  }

  async stop(): Promise<void> {
    clearInterval(this.clockTimer);
    this.clockTimer = undefined;
    this.redis.off('ready', this.onReady);
    if (this.ownsCache) await this.cache.stop();
  }

  private async syncClock(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    try {
      await this.redisClock.sync();
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * The key record of a bearer secret. Throws `AuthenticationError` (401) when it is missing,
   * unknown, revoked or expired, `UnavailableError` (503) when it is not cached and Redis fails.
   */
  async authenticate(secret: string | undefined): Promise<ApiKeyRecord> {
    const valid = checkSecret(secret);
    let record: ApiKeyRecord | undefined;
    try {
      record = await this.cache.apiKeyBySecret(valid);
    } catch (error) {
      throw new UnavailableError('The API key could not be verified right now.', error);
    }
    if (!record) throw new AuthenticationError('invalid');
    return this.unexpired(record);
  }

  /**
   * `authenticate` without waiting, when the key's record is cached; undefined when Redis must
   * be asked (call `authenticate`). Throws as `authenticate` does.
   */
  authenticateCached(secret: string | undefined): ApiKeyRecord | undefined {
    const record = this.cache.cachedApiKeyBySecret(checkSecret(secret));
    return record && this.unexpired(record);
  }

  private unexpired(record: ApiKeyRecord): ApiKeyRecord {
    if (record.expiresAt !== undefined && record.expiresAt <= this.clock()) {
      throw new AuthenticationError('expired');
    }
    return record;
  }

  /**
   * Decides one request: the result says allowed or denied and why (never throws for a
   * denial). Throws `InputError`, `ForbiddenError`, `PolicyNotFoundError` or `UnavailableError`.
   */
  async check(request: CheckRequest): Promise<CheckResult> {
    const { key, identifier } = request;
    const cost = request.cost ?? 1;
    const dryRun = request.dryRun ?? false;
    checkInput(request, true);
    const { tenant, policy } =
      this.resolveCached(key, request.policy, 'check') ??
      (await this.resolve(key, request.policy, 'check'));
    const at = this.clock();
    const subject: Subject = {
      policyName: request.policy,
      identifier,
      at,
      cached: policy,
      override: undefined,
    };
    let result: CheckResult;
    let candidateDenied = false;
    if (tenant.tenant.status === 'suspended') {
      result = bareResult(subject, 'suspended');
    } else {
      subject.override = matchOverride(policy.overrides, identifier, at);
      const plan = this.preparedPlan(tenant, policy, subject.override);
      // a cost of 0 peeks and a dry run writes nothing: neither has anything to settle
      const { reservations } = policy.policy;
      const reservation = reservations && cost > 0 && !dryRun ? reservations : undefined;
      const options = { dryRun, reservation };
      const pending = this.decideInRedis(plan.set, identifier, cost, options, policy.policy);
      const decision = pending && (await pending);
      if (decision) {
        result = buildResult(subject, plan, decision, 'redis');
        candidateDenied = !decision.candidatesAllowed;
      } else if (policy.policy.mode === 'shadow' || policy.policy.failMode === 'open') {
        result = bareResult(subject, 'fail-open');
      } else if (policy.policy.failMode === 'closed') {
        result = bareResult(subject, 'fail-closed');
      } else {
        // its reservation and lease ids are settled and released by this process (see settle)
        const local = this.local.checkPrepared(plan.set, identifier, cost, options);
        result = buildResult(subject, plan, local, 'local');
        candidateDenied = !local.candidatesAllowed;
      }
    }
    if (!dryRun) {
      this.recorder.record({
        tenantId: tenant.tenant.tenantId,
        policy: request.policy,
        keyId: key.id,
        at,
        identifier,
        allowed: result.allowed,
        reason: result.reason,
        deniedBy: result.deniedBy,
        overrideId: result.overrideId,
        cost,
        shadowDenied: result.shadowDenied ?? false,
        candidateDenied,
        // allocates only for the rare decision a candidate rule refuses
        candidatesDeniedBy: candidateDenied
          ? result.candidates?.filter((rule) => !rule.allowed).map((rule) => rule.name)
          : undefined,
        // the answer's own array and object, not copies: the recorder detects threshold
        // crossings from them and a logged decision keeps them (serialized by the flush)
        rules: result.rules,
        answer: result,
      });
    }
    return result;
  }

  /**
   * The identifier's current state under the policy: every rule evaluated (candidates too) for a
   * check of `cost` (default 0, a peek), nothing consumed, no usage recorded; `allowed`, `reason`
   * and `retryAfterMs` are what a check of that cost would answer now. No fail mode applies:
   * `UnavailableError` when Redis fails.
   */
  async inspect(request: InspectRequest & Pick<CheckRequest, 'cost'>): Promise<CheckResult> {
    checkInput(request, true);
    const cost = request.cost ?? 0;
    const { tenant, policy } = await this.resolve(request.key, request.policy, 'check');
    const at = this.clock();
    const override = matchOverride(policy.overrides, request.identifier, at);
    const subject: Subject = {
      policyName: request.policy,
      identifier: request.identifier,
      at,
      cached: policy,
      override,
    };
    const plan = this.preparedPlan(tenant, policy, override);
    const decision = await this.decideInRedis(
      plan.set,
      request.identifier,
      cost,
      { dryRun: true },
      policy.policy,
    );
    if (!decision) throw new UnavailableError('The limits could not be read from Redis right now.');
    const result = buildResult(subject, plan, decision, 'redis');
    if (tenant.tenant.status !== 'suspended') return result;
    const { deniedBy: _deniedBy, ...rest } = result;
    return { ...rest, allowed: false, reason: 'suspended', retryAfterMs: RETRY_NEVER };
  }

  /**
   * Deletes the identifier's state under the policy (every rule's keys, candidates and the
   * concurrency rules' leases included): it starts afresh. Reservation records are left to
   * expire (their nonces are not known here); one settled later adjusts the fresh state. Needs a
   * key with the `admin` scope. Returns how many keys existed.
   */
  async reset(request: InspectRequest): Promise<{ deleted: number }> {
    checkInput(request, false);
    const { tenant, policy } = await this.resolve(request.key, request.policy, 'admin');
    const override = matchOverride(policy.overrides, request.identifier, this.clock());
    const plan = this.preparedPlan(tenant, policy, override);
    const keys = ruleSetKeys(plan.set, request.identifier);
    // the local fail mode's state too, so the identifier starts afresh whichever decides next
    this.local.forget(keys);
    try {
      const deleted = await raceTimeout(this.redis.del(...keys), policy.policy.redisTimeoutMs);
      if (deleted === TIMEOUT) throw new Error('Redis did not answer in time');
      return { deleted };
    } catch (error) {
      throw new UnavailableError('The limits could not be reset right now.', error);
    }
  }

  /**
   * Settles a check's reservation at the actual cost, once: the overrun is charged (into debt if
   * need be), unused cost refunded where it was charged (see docs/algorithms.md); a repeat
   * changes nothing and answers `alreadySettled: true` with the first actual cost. Everything
   * comes from the id (tenant, policy, identifier hash, nonce): one single-slot call, on the
   * policy's own rules (a receipt holds the parameters an override charged under); a suspended
   * tenant's too, since a settle only corrects what was charged. Throws
   * `InputError`, `ForbiddenError` (scope, or a key not allowed on the policy),
   * `ReservationNotFoundError` (malformed, another tenant's, policy gone, unknown, expired),
   * `ReservationsDisabledError` (409), `UnavailableError` (no fail mode applies).
   */
  async settle(request: SettleRequest): Promise<SettleResult> {
    const { key, reservationId, actualCost } = request;
    checkActualCost(actualCost);
    checkScope(key, 'check');
    const id = parseReservationId(reservationId);
    // another tenant's id answers as an unknown one: ids reveal nothing across tenants
    if (!id || id.owner !== key.tenantId) throw new ReservationNotFoundError();
    const { tenant, policy } = await this.resolveById(key, id.name, ReservationNotFoundError);
    if (!policy.policy.reservations) throw new ReservationsDisabledError(policy.policy.name);
    const plan = this.preparedPlan(tenant, policy, undefined);
    const identifier = { idHash: id.idHash };
    const settled = await this.inRedisThenLocal(
      policy.policy,
      () => settleReservation(this.redis, plan.set, identifier, id.nonce, actualCost),
      () => this.local.settleReservation(plan.set, identifier, id.nonce, actualCost),
      (result) => result.found,
      'The reservation could not be settled right now.',
    );
    if (!settled.found) throw new ReservationNotFoundError();
    if (!settled.alreadySettled) {
      this.recorder.recordSettle?.({
        tenantId: tenant.tenant.tenantId,
        policy: policy.policy.name,
        keyId: key.id,
        at: this.clock(),
        estimate: settled.estimate,
        actualCost: settled.actualCost,
      });
    }
    return {
      reservationId,
      settled: true,
      alreadySettled: settled.alreadySettled,
      estimate: settled.estimate,
      actualCost: settled.actualCost,
      rules: settled.rules.flatMap((rule) => (rule.candidate ? [] : [settledRule(plan, rule)])),
    };
  }

  /**
   * Frees a check's lease in every concurrency rule of its policy. `released: false` when it was
   * not held any more (released before, or expired): harmless. Throws `ForbiddenError`,
   * `LeaseNotFoundError` (malformed, another tenant's, policy gone), `UnavailableError`.
   */
  async release(request: ReleaseRequest): Promise<ReleaseResult> {
    const { key, leaseId } = request;
    checkScope(key, 'check');
    const id = parseLeaseId(leaseId);
    if (!id || id.owner !== key.tenantId) throw new LeaseNotFoundError();
    const { tenant, policy } = await this.resolveById(key, id.name, LeaseNotFoundError);
    const { set } = this.preparedPlan(tenant, policy, undefined);
    const identifier = { idHash: id.idHash };
    const { released } = await this.inRedisThenLocal(
      policy.policy,
      () => releaseLease(this.redis, set, identifier, id.nonce),
      () => this.local.releaseLease(set, identifier, id.nonce),
      (result) => result.released,
      'The lease could not be released right now.',
    );
    return { leaseId, released };
  }

  /**
   * A settle or release: in Redis, then, unless Redis knew the id, by the local limiter, which
   * knows the ids the local fail mode handed out in this process (a lookup in memory; Redis
   * and local nonces never collide, 95 random bits each). `UnavailableError` when Redis failed
   * or timed out and the local limiter does not know the id either.
   */
  private async inRedisThenLocal<T>(
    { redisTimeoutMs }: CompiledPolicy,
    inRedis: () => Promise<T>,
    locally: () => T,
    known: (result: T) => boolean,
    unavailable: string,
  ): Promise<T> {
    let failure: unknown = new Error('Redis is not connected');
    if (this.redis.status === 'ready') {
      try {
        const result = await raceTimeout(inRedis(), redisTimeoutMs);
        if (result !== TIMEOUT && known(result)) return result;
        failure = result === TIMEOUT ? new Error('Redis did not answer in time') : undefined;
      } catch (error) {
        // the id's parts were validated by parsing it: this is a bug, not a Redis failure
        if (error instanceof AlgorithmInputError) throw error;
        failure = error;
      }
    }
    const local = locally();
    if (failure === undefined || known(local)) return local;
    throw new UnavailableError(unavailable, failure);
  }

  /** `resolve` from the cache alone; undefined when the tenant must be read first. */
  private resolveCached(key: ApiKeyRecord, name: string, scope: ApiKeyScope): Resolved | undefined {
    checkScope(key, scope);
    const tenant = this.cache.cachedTenant(key.tenantId);
    return tenant && pickPolicy(tenant, key, name);
  }

  private async resolve(key: ApiKeyRecord, name: string, scope: ApiKeyScope): Promise<Resolved> {
    checkScope(key, scope);
    const tenant = await this.tenantOf(key);
    if (!tenant) throw new PolicyNotFoundError(name);
    return pickPolicy(tenant, key, name);
  }

  /**
   * The policy of id `policyId` in the key's tenant (as a reservation or lease id names it);
   * `NotFound` when the tenant or the policy is gone, `ForbiddenError` when the key may not use
   * it.
   */
  private async resolveById(
    key: ApiKeyRecord,
    policyId: string,
    NotFound: new () => EngineError,
  ): Promise<Resolved> {
    const tenant = await this.tenantOf(key);
    const policy = tenant?.policiesById.get(policyId);
    if (!tenant || !policy) throw new NotFound();
    checkPolicyAllowed(key, policy.policy.name);
    return { tenant, policy };
  }

  private async tenantOf(key: ApiKeyRecord): Promise<CachedTenant | undefined> {
    try {
      return await this.cache.tenant(key.tenantId);
    } catch (error) {
      throw new UnavailableError('The policy could not be read right now.', error);
    }
  }

  /**
   * Prepared once per cached policy and override: rule keys are scoped by tenant and policy id
   * (`<tenantId>.<policyId>`), so two tenants never share a counter even with equal policy ids.
   */
  private preparedPlan(
    tenant: CachedTenant,
    cached: CachedPolicy,
    override: CompiledOverride | undefined,
  ): PreparedPlan {
    let plans = this.prepared.get(cached);
    if (!plans) {
      plans = new Map();
      this.prepared.set(cached, plans);
    }
    const id = override?.id ?? '';
    const known = plans.get(id);
    if (known) return known;
    const { policy } = cached;
    const planned = (name: string, rule: AnyRuleSpec): PlannedRule => {
      const calendar = rule.algorithm === 'fixed_window' && rule.calendar !== undefined;
      return { name, rule, window: calendar ? undefined : ruleWindow(rule, 0) };
    };
    const rate = ({ name, rule }: CompiledRule) => planned(name, override?.rules[name] ?? rule);
    const live = [
      ...policy.rules.map(rate),
      ...(policy.concurrencyRules ?? []).map(({ name, rule }) =>
        planned(name, override?.concurrencyRules?.[name] ?? rule),
      ),
    ];
    const candidates = policy.candidateRules.map(rate);
    const set = prepareRuleSet({
      prefix: this.rulePrefix,
      scope: `${tenant.tenant.tenantId}.${policy.id}`,
      rules: [
        ...live.map(({ name, rule }) => ({ name, rule, candidate: false })),
        ...candidates.map(({ name, rule }) => ({
          name: CANDIDATE_KEY_PREFIX + name,
          rule,
          candidate: true,
        })),
      ],
    });
    const plan = { live, candidates, set };
    plans.set(id, plan);
    return plan;
  }

  /**
   * The composite call, raced against the policy's timeout. Undefined when it failed, timed out,
   * or was not tried (disconnected, or the policy's circuit open): the caller applies the fail
   * mode. Failures count against this policy's circuit only, so one broken or slow policy does
   * not send the others to their fail mode; a lost connection stops every call at once. A reply
   * arriving after the timeout is ignored, so the check is still answered and recorded once; and
   * the script carries the same deadline on the Redis clock, so one that Redis only starts after
   * it (queued behind a slow command, a pause) charges nothing. Left open: a script that started
   * in time but whose reply comes back late, within the clock estimate's error.
   */
  private decideInRedis(
    set: PreparedRuleSet,
    identifier: string,
    cost: number,
    options: { dryRun: boolean; reservation?: ReservationOptions | undefined },
    { redisTimeoutMs }: CompiledPolicy,
  ): Promise<PreparedDecision | undefined> | undefined {
    const circuit = set.scope;
    if (this.redis.status !== 'ready' || !this.breakers.tryAcquire(circuit)) return undefined;
    const deadline = this.redisClock.now() + redisTimeoutMs;
    const call = checkPrepared(this.redis, set, identifier, cost, { ...options, deadline });
    return new Promise((resolve, reject) => {
      let settled = false;
      // what arrives after the timeout (a reply or an error) is ignored
      const timer = afterPendingIo(redisTimeoutMs, () => {
        if (settled) return;
        settled = true;
        this.breakers.failure(circuit);
        this.onError(new Error(`Redis did not answer the check within ${redisTimeoutMs} ms`));
        resolve(undefined);
      });
      call.then(
        (decision) => {
          if (settled) return;
          clearTimeout(timer);
          this.breakers.success(circuit);
          resolve(decision);
        },
        (error: unknown) => {
          if (settled) return;
          clearTimeout(timer);
          // a compiled policy always passes validation: this is a bug, not a Redis failure
          if (error instanceof AlgorithmInputError) {
            reject(error);
            return;
          }
          this.breakers.failure(circuit);
          this.onError(error);
          resolve(undefined);
        },
      );
    });
  }
}

function checkActualCost(actualCost: number): void {
  if (!Number.isInteger(actualCost) || actualCost < 0 || actualCost > MAX_COST) {
    throw new InputError([
      { path: 'actualCost', message: `must be an integer from 0 to ${MAX_COST}` },
    ]);
  }
}

/** Validates what the caller sent (the key comes from `authenticate`). */
function checkInput(request: CheckRequest | InspectRequest, withCost: boolean): void {
  const issues: FieldIssue[] = [];
  const { policy, identifier } = request;
  if (typeof policy !== 'string' || policy.length === 0 || policy.length > 64) {
    issues.push({ path: 'policy', message: 'must be a policy name of 1 to 64 characters' });
  }
  if (
    typeof identifier !== 'string' ||
    identifier.length === 0 ||
    Buffer.byteLength(identifier, 'utf8') > MAX_IDENTIFIER_BYTES
  ) {
    issues.push({
      path: 'identifier',
      message: `must be a string of 1 to ${MAX_IDENTIFIER_BYTES} bytes (UTF-8)`,
    });
  }
  if (withCost) {
    const { cost, dryRun } = request as CheckRequest;
    if (cost !== undefined && (!Number.isInteger(cost) || cost < 0 || cost > MAX_COST)) {
      issues.push({ path: 'cost', message: `must be an integer from 0 to ${MAX_COST}` });
    }
    if (dryRun !== undefined && typeof dryRun !== 'boolean') {
      issues.push({ path: 'dryRun', message: 'must be a boolean' });
    }
  }
  if (issues.length > 0) throw new InputError(issues);
  // a name no policy can have is simply not found (after the input is known to be sane)
  if (!NAME_PATTERN.test(policy)) throw new PolicyNotFoundError(policy);
}

/**
 * Calls `onTimeout` once `ms` have passed and the I/O that was pending by then has been read: a
 * reply that arrived while this process was busy (a long task, a starved CPU) is taken before
 * the timeout, which bounds the wait for Redis, not this process' own stalls. `setImmediate`
 * runs after the poll phase that reads it, where a timer alone would run before.
 */
function afterPendingIo(ms: number, onTimeout: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(onTimeout), ms);
}

async function raceTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = afterPendingIo(ms, () => resolve(TIMEOUT));
  });
  try {
    // race subscribes to both, so a rejection after the timeout is handled (and ignored)
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The bearer secret, if it can be one; `AuthenticationError` when missing or implausible. */
function checkSecret(secret: string | undefined): string {
  if (secret === undefined || secret === '') throw new AuthenticationError('missing');
  if (typeof secret !== 'string' || secret.length > MAX_SECRET_LENGTH) {
    throw new AuthenticationError('invalid');
  }
  return secret;
}

function checkScope(key: ApiKeyRecord, scope: ApiKeyScope): void {
  if (!key.scopes.includes(scope) && !key.scopes.includes('admin')) {
    throw new ForbiddenError(`This API key lacks the ${scope} scope.`);
  }
}

function pickPolicy(tenant: CachedTenant, key: ApiKeyRecord, name: string): Resolved {
  const policy = tenant.policies.get(name);
  if (!policy) throw new PolicyNotFoundError(name);
  checkPolicyAllowed(key, name);
  return { tenant, policy };
}

function checkPolicyAllowed(key: ApiKeyRecord, name: string): void {
  if (key.policies !== null && !key.policies.includes(name)) {
    throw new ForbiddenError(`This API key may not use policy ${JSON.stringify(name)}.`);
  }
}

/** A settled rate rule with its algorithm (the policy's rule of that name: the receipt's). */
function settledRule(plan: PreparedPlan, settled: SettledRule): SettledRuleResult {
  const rule = plan.live.find((planned) => planned.name === settled.name)?.rule;
  if (!rule || rule.algorithm === 'concurrency') {
    throw new Error(`no rate rule ${settled.name} for a settled reservation`);
  }
  const result: SettledRuleResult = {
    name: settled.name,
    algorithm: rule.algorithm,
    charged: settled.charged,
    allowed: settled.allowed,
    limit: settled.limit,
    remaining: settled.remaining,
    resetAt: settled.resetAt,
    retryAfterMs: settled.retryAfter,
  };
  if (rule.algorithm === 'leaky_bucket') result.delayMs = settled.delayMs;
  return result;
}

function ruleResult(
  planned: PlannedRule,
  decision: RuleDecision | undefined,
  at: number,
): RuleResult {
  if (!decision) throw new Error(`no decision for rule ${planned.name}`);
  const { rule } = planned;
  const window = planned.window ?? ruleWindow(rule, at);
  const result: RuleResult = {
    name: planned.name,
    algorithm: rule.algorithm,
    allowed: decision.allowed,
    limit: decision.limit,
    remaining: decision.remaining,
    resetAt: decision.resetAt,
    retryAfterMs: decision.retryAfter,
    quota: window.quota,
    windowMs: window.windowMs,
  };
  if (rule.algorithm === 'leaky_bucket') result.delayMs = decision.delayMs;
  if (window.calendarUnit !== undefined) result.calendarUnit = window.calendarUnit;
  return result;
}

const wait = (rule: RuleResult) =>
  rule.retryAfterMs === RETRY_NEVER ? Infinity : rule.retryAfterMs;

/**
 * Whether `rule` heads the answer rather than `best`: when allowed, the least remaining share;
 * when denied, the denied rule with the longest wait (never-passing first). The first wins ties.
 */
function heads(rule: RuleResult, best: RuleResult | undefined, allowed: boolean): boolean {
  if (allowed) return !best || rule.remaining / rule.limit < best.remaining / best.limit;
  return !rule.allowed && (!best || wait(rule) > wait(best));
}

function buildResult(
  { policyName, identifier, at, cached, override }: Subject,
  plan: PreparedPlan,
  decision: PreparedDecision,
  source: 'redis' | 'local',
): CheckResult {
  const rules: RuleResult[] = [];
  let top: RuleResult | undefined;
  let delayMs: number | undefined;
  for (let i = 0; i < plan.live.length; i++) {
    const rule = ruleResult(plan.live[i] as PlannedRule, decision.rules[i], at);
    rules.push(rule);
    if (heads(rule, top, decision.allowed)) top = rule;
    if (rule.delayMs !== undefined) delayMs = Math.max(delayMs ?? 0, rule.delayMs);
  }
  const shadow = cached.policy.mode === 'shadow';
  const allowed = decision.allowed || shadow;
  const result: CheckResult = {
    allowed,
    policy: policyName,
    identifier,
    limit: top?.limit ?? 0,
    remaining: top?.remaining ?? 0,
    resetAt: top?.resetAt ?? at,
    retryAfterMs: allowed ? 0 : decision.retryAfter,
    rules,
    reason:
      source === 'local' ? 'local' : decision.allowed ? 'allowed' : shadow ? 'shadow' : 'rule',
    at,
  };
  if (delayMs !== undefined) result.delayMs = delayMs;
  if (!decision.allowed) result.deniedBy = top?.name;
  if (override) result.overrideId = override.id;
  if (shadow) result.shadowDenied = !decision.allowed;
  if (plan.candidates.length > 0) {
    const offset = plan.live.length;
    result.candidates = plan.candidates.map((planned, i) =>
      ruleResult(planned, decision.rules[offset + i], at),
    );
  }
  if (decision.reservation) {
    result.reservationId = decision.reservation.id;
    result.reservationExpiresAt = decision.reservation.expiresAt;
  }
  if (decision.lease) {
    result.leaseId = decision.lease.id;
    result.leaseExpiresAt = decision.lease.expiresAt;
  }
  return result;
}

/** A decision without rule figures: suspended, fail-open, fail-closed. */
function bareResult(
  { policyName, identifier, at, cached, override }: Subject,
  reason: 'suspended' | 'fail-open' | 'fail-closed',
): CheckResult {
  const allowed = reason === 'fail-open';
  const result: CheckResult = {
    allowed,
    policy: policyName,
    identifier,
    limit: 0,
    remaining: 0,
    resetAt: at,
    retryAfterMs: allowed ? 0 : reason === 'suspended' ? RETRY_NEVER : FAIL_CLOSED_RETRY_MS,
    rules: [],
    reason,
    at,
  };
  if (override) result.overrideId = override.id;
  if (cached.policy.mode === 'shadow') result.shadowDenied = false;
  return result;
}
