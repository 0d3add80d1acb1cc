import type { Cluster, Redis } from 'ioredis';
import { UsageAggregate, type AggregateLimits, type DropCounts } from './aggregate';
import {
  alertClaimCommands,
  quotaAlertFields,
  thresholdCrossings,
  type ClaimOutcome,
  type PendingAlert,
} from './alerts';
import { flushCommands, type FlushCommand, type FlushSettings } from './commands';
import { UsageFlushError, UsageInputError } from './errors';
import {
  assertPrefix,
  FIELD_ALLOWED,
  FIELD_CANDIDATE_BY_PREFIX,
  FIELD_CANDIDATE_DENIED,
  FIELD_COST,
  FIELD_DENIED_BY_PREFIX,
  FIELD_DENIED_PREFIX,
  FIELD_FAIL_OPEN,
  FIELD_SHADOW_BY_PREFIX,
  FIELD_SHADOW_DENIED,
  ID_PATTERN,
  NAME_PATTERN,
  quotaAlertStreamKey,
  REASON_PATTERN,
} from './keys';
import { usageScripts } from './last-used';
import type { AnswerFigures, RuleFigures } from './figures';
import { clusterSlotOwner, groupBySlotOwner } from './slots';

export type { AnswerFigures, RuleFigures };

/** One decision, as the engine reports it (after the Redis call or the fail-mode fallback). */
export interface DecisionEvent {
  tenantId: string;
  /** Policy name. */
  policy: string;
  /** The API key that asked. */
  keyId: string;
  /** ms epoch (integer). */
  at: number;
  identifier: string;
  allowed: boolean;
  /** The engine's reason code (see the enforcement contract). */
  reason: string;
  /** Rule name. */
  deniedBy?: string;
  overrideId?: string;
  cost: number;
  shadowDenied: boolean;
  candidateDenied: boolean;
  /** The candidate rules that would have denied (when `candidateDenied`). */
  candidatesDeniedBy?: readonly string[];
  /**
   * The live rules' figures (the engine hands over its result's array, nothing is copied): the
   * threshold alerts are detected from them (allowed decisions only), and a logged decision keeps
   * them. Absent: no alerts, no figures in the log.
   */
  rules?: readonly RuleFigures[];
  /** The answer's headline figures (the engine's result itself), kept by a logged decision. */
  answer?: AnswerFigures;
}

/**
 * The first settle of a reservation: its check counted `estimate` as cost, the call really cost
 * `actualCost`, so usage moves by the difference (of either sign).
 */
export interface SettleEvent {
  tenantId: string;
  /** Policy name. */
  policy: string;
  /** The API key that settled. */
  keyId: string;
  /** ms epoch (integer). */
  at: number;
  /** The cost the check charged, which its `DecisionEvent` counted. */
  estimate: number;
  actualCost: number;
}

export interface UsageRecorderOptions {
  /**
   * Best a connection of its own without `commandTimeout`: a command that times out after Redis
   * ran it is retried and counted twice. `enableOfflineQueue: false` makes flushes fail fast
   * while Redis is down instead of waiting in ioredis' queue.
   */
  redis: Redis | Cluster;
  /** Deployment key prefix, e.g. `sluice:`. */
  prefix: string;
  /** Default 1000. */
  flushIntervalMs?: number;
  /** How long usage stays in Redis, default 900 (15 minutes). */
  retentionSeconds?: number;
  /** The decision log stream's MAXLEN (approximate, `~`), default 10,000. */
  decisionLogMaxLen?: number;
  /** Share of plain allows written to the decision log (0..1), default 0.01. */
  allowSampleRate?: number;
  /** Denied identifiers kept per (policy, minute), default 100. */
  topK?: number;
  /** Entries held in memory at most (while Redis is down), default 100,000; more are dropped. */
  maxPendingEntries?: number;
  /** [0, 1), default Math.random: decides which allows are sampled. */
  random?: () => number;
  /** ms epoch, default Date.now: decides when retried data is past retention. */
  clock?: () => number;
  /** Failures of timer-driven flushes (an explicit `flush()` rejects instead). */
  onFlushError?: (error: Error) => void;
  /**
   * Threshold alerts (80 % / 100 % of a quota window, for tenants with an enabled webhook
   * endpoint), claimed and added to the alert stream by the flush; default true.
   */
  thresholdAlerts?: boolean;
  /** The alert stream's MAXLEN (approximate, `~`), default 100,000. */
  alertStreamMaxLen?: number;
}

/** Counters for metrics; all only grow except `pendingEntries`. */
export interface UsageStats {
  /** Valid events aggregated. */
  eventsRecorded: number;
  /** Valid settle events aggregated. */
  settlesRecorded: number;
  /** Malformed events ignored (`record` never throws). */
  eventsInvalid: number;
  /** Flushes that sent commands and saw all of them succeed. */
  flushes: number;
  /** Flushes with at least one failed command (whose share was kept for the next flush). */
  flushFailures: number;
  /** Commands flushes handed to pipelines, failed ones included. */
  commandsSent: number;
  /** Entries waiting in memory, including those of a flush in flight. */
  pendingEntries: number;
  /** Entries dropped because `maxPendingEntries` was reached. */
  droppedOverCap: number;
  /** Entries of failed flushes dropped because they were past retention when retried. */
  droppedExpired: number;
  /** Denied identifiers left out of a minute's top-K (more than 10 × topK distinct per flush). */
  droppedTopDenied: number;
  /** Charged identifiers pruned from a flush's heavy hitters (the cheapest of 20 × topK). */
  prunedTopCost: number;
  /** Threshold crossings seen by this process. */
  alertsDetected: number;
  /** Crossings this process claimed first (each is published once). */
  alertsClaimed: number;
  /** Crossings claimed before: by another data plane, or earlier in the same window. */
  alertsDuplicate: number;
  /** Crossings of tenants without an enabled webhook endpoint (nothing claimed). */
  alertsWithoutEndpoint: number;
  /** Claimed alerts added to the alert stream. */
  alertsPublished: number;
  /** Claimed alerts dropped because MAX_WAITING_ALERTS were waiting (Redis down). */
  alertsDropped: number;
  /** Claimed alerts waiting for the stream (their XADD failed; retried by the next flush). */
  alertsWaiting: number;
}

/** Denied identifiers aggregated per (policy, minute) per flush, as a multiple of topK. */
const TOP_DENIED_HEADROOM = 10;
/** Candidate rules one event may name (a policy has far fewer): bounds the fields it adds. */
const MAX_CANDIDATE_RULES = 32;
/** Claimed alerts held while the stream cannot be written; older ones are dropped beyond. */
const MAX_WAITING_ALERTS = 10_000;

/**
 * Usage accounting off the hot path: `record` aggregates in memory (no I/O, never throws); a
 * timer flushes the aggregate once a second, one pipeline per Redis node.
 *
 * Per second and per (tenant, policy): `allowed`, `denied:<reason>`, `shadow_denied`,
 * `candidate_denied`, `fail_open`, `cost` (the cost of allowed decisions), and per rule
 * `denied_by:<rule>`, `shadow_by:<rule>` and `candidate_by:<rule>` (see `keys.ts`). Per minute: the top denied
 * identifiers (denials only) and the heavy hitters by cost (what allowed checks charged; a
 * reservation counts its estimate). The decision log gets every denial, every shadow denial (the
 * denials a shadow policy would have made) and a sample of the other allows. Plus each API key's
 * last use. And the threshold alerts: see `thresholdCrossings` (detection, in `record`) and
 * `alertClaimCommands` (one claim per alert across data planes, in the flush pipeline); a claimed
 * alert is then added to the alert stream (one XADD pipeline, only when something was claimed).
 *
 * A failed command's share goes back into memory and is retried by the next flush, so counts
 * reach Redis exactly once when Redis refuses or cannot be reached. A command whose reply is
 * lost after Redis ran it (the connection dropped mid-flight) is retried too and may count twice:
 * counters prefer a rare double count to a silent loss.
 */
export class UsageRecorder {
  private readonly redis: Redis | Cluster;
  private readonly settings: FlushSettings;
  private readonly flushIntervalMs: number;
  private readonly allowSampleRate: number;
  private readonly random: () => number;
  private readonly clock: () => number;
  private readonly onFlushError: ((error: Error) => void) | undefined;
  private readonly limits: AggregateLimits;
  private readonly drops: DropCounts = { overCap: 0, topDeniedOverflow: 0, topCostPruned: 0 };
  private readonly counters = {
    eventsRecorded: 0,
    settlesRecorded: 0,
    eventsInvalid: 0,
    flushes: 0,
    flushFailures: 0,
    commandsSent: 0,
    droppedExpired: 0,
    alertsDetected: 0,
    alertsClaimed: 0,
    alertsDuplicate: 0,
    alertsWithoutEndpoint: 0,
    alertsPublished: 0,
    alertsDropped: 0,
  };
  private readonly alertsOn: boolean;
  private readonly alertStreamMaxLen: number;
  /** Claimed alerts not yet in the stream, oldest first. */
  private waitingAlerts: PendingAlert[] = [];
  private readonly onClaimed = (outcome: ClaimOutcome): void => {
    this.counters.alertsClaimed += outcome.claimed.length;
    this.counters.alertsDuplicate += outcome.duplicates;
    this.counters.alertsWithoutEndpoint += outcome.withoutEndpoint;
    this.waitingAlerts.push(...outcome.claimed);
  };
  private live: UsageAggregate;
  private inFlight: UsageAggregate | undefined;
  /** The last queued flush: each flush starts after the previous one ended. */
  private tail: Promise<void> = Promise.resolve();
  private queuedFlushes = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: UsageRecorderOptions) {
    assertPrefix(options.prefix);
    this.redis = options.redis;
    const topK = integerOption('topK', options.topK, 100, 10_000);
    this.settings = {
      prefix: options.prefix,
      retentionSeconds: integerOption('retentionSeconds', options.retentionSeconds, 900, 2_678_400),
      topK,
      decisionLogMaxLen: integerOption(
        'decisionLogMaxLen',
        options.decisionLogMaxLen,
        10_000,
        1_000_000,
      ),
    };
    this.flushIntervalMs = integerOption('flushIntervalMs', options.flushIntervalMs, 1000, 60_000);
    const rate = options.allowSampleRate ?? 0.01;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) {
      throw new UsageInputError('allowSampleRate: expected a number from 0 to 1');
    }
    this.allowSampleRate = rate;
    this.limits = {
      maxEntries: integerOption('maxPendingEntries', options.maxPendingEntries, 100_000, 1e7),
      logLimit: this.settings.decisionLogMaxLen,
      identifiersPerMinute: topK * TOP_DENIED_HEADROOM,
    };
    this.random = options.random ?? Math.random;
    this.clock = options.clock ?? Date.now;
    this.onFlushError = options.onFlushError;
    this.alertsOn = options.thresholdAlerts ?? true;
    this.alertStreamMaxLen = integerOption(
      'alertStreamMaxLen',
      options.alertStreamMaxLen,
      100_000,
      10_000_000,
    );
    // before any pipeline is created: pipelines copy the connection's commands
    usageScripts.register(this.redis);
    this.live = this.newAggregate();
  }

  /** Synchronous, in memory, O(1); a malformed event is counted in `eventsInvalid`, not thrown. */
  record(event: DecisionEvent): void {
    try {
      if (this.aggregate(event)) this.counters.eventsRecorded += 1;
      else this.counters.eventsInvalid += 1;
    } catch {
      // a hostile getter or a throwing `random` must not break a check
      this.counters.eventsInvalid += 1;
    }
  }

  /**
   * Synchronous like `record`: adds `actualCost - estimate` to the cost of the settle's second
   * (the check's own second may be flushed already; per-minute roll-ups and ranges see the sum).
   */
  recordSettle(event: SettleEvent): void {
    try {
      if (this.aggregateSettle(event)) this.counters.settlesRecorded += 1;
      else this.counters.eventsInvalid += 1;
    } catch {
      this.counters.eventsInvalid += 1;
    }
  }

  /** Flushes every `flushIntervalMs` (the timer does not keep the process alive). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // a slow flush delays the next one instead of piling up behind it
      if (this.queuedFlushes > 0) return;
      this.flush().catch((error: unknown) => this.onFlushError?.(toError(error)));
    }, this.flushIntervalMs);
    this.timer.unref();
  }

  /**
   * Writes what was recorded so far, one pipeline per Redis node; sends nothing when nothing
   * was recorded. Never overlaps another flush: it starts when the previous one has ended.
   * Rejects with `UsageFlushError` when commands failed; their share is kept for the next flush.
   */
  flush(): Promise<void> {
    this.queuedFlushes += 1;
    const run = this.tail
      .then(() => this.flushOnce())
      .finally(() => {
        this.queuedFlushes -= 1;
      });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Stops the timer and flushes a last time (rejects if that flush fails). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  stats(): UsageStats {
    return {
      ...this.counters,
      pendingEntries: this.live.entries + (this.inFlight?.entries ?? 0),
      droppedOverCap: this.drops.overCap,
      droppedTopDenied: this.drops.topDeniedOverflow,
      prunedTopCost: this.drops.topCostPruned,
      alertsWaiting: this.waitingAlerts.length,
    };
  }

  private aggregate(event: DecisionEvent): boolean {
    if (!isValidEvent(event)) return false;
    // decided first: should `random` throw, nothing of the event has been counted yet
    const logged = !event.allowed || event.shadowDenied || this.sampleAllow();
    const live = this.live;
    // a missing container below means the memory cap was reached: counted in drops
    const tenant = live.tenant(event.tenantId);
    if (tenant === undefined) return true;
    live.touchLastUsed(tenant, event.keyId, event.at);
    // a few comparisons per quota rule; allocates only when a threshold is crossed
    const crossed = this.alertsOn ? thresholdCrossings(event) : undefined;
    if (crossed !== undefined) {
      this.counters.alertsDetected += crossed.length;
      for (const alert of crossed) live.addAlert(tenant, alert);
    }
    const policy = live.policy(tenant, event.policy);
    if (policy === undefined) return true;

    const counters = live.second(policy, Math.floor(event.at / 1000));
    if (counters !== undefined) {
      if (event.allowed) {
        live.add(counters, FIELD_ALLOWED, 1);
        if (event.cost > 0) live.add(counters, FIELD_COST, event.cost);
        if (event.reason === 'fail-open') live.add(counters, FIELD_FAIL_OPEN, 1);
      } else {
        live.add(counters, FIELD_DENIED_PREFIX + event.reason, 1);
        if (event.deniedBy !== undefined) {
          live.add(counters, FIELD_DENIED_BY_PREFIX + event.deniedBy, 1);
        }
      }
      if (event.shadowDenied) {
        live.add(counters, FIELD_SHADOW_DENIED, 1);
        if (event.deniedBy !== undefined) {
          live.add(counters, FIELD_SHADOW_BY_PREFIX + event.deniedBy, 1);
        }
      }
      if (event.candidateDenied) {
        live.add(counters, FIELD_CANDIDATE_DENIED, 1);
        for (const rule of event.candidatesDeniedBy ?? []) {
          live.add(counters, FIELD_CANDIDATE_BY_PREFIX + rule, 1);
        }
      }
    }
    if (!event.allowed) {
      const identifiers = live.minute(policy, Math.floor(event.at / 60_000));
      if (identifiers !== undefined) live.addDenied(identifiers, event.identifier, 1);
    } else if (event.cost > 0) {
      const identifiers = live.costMinute(policy, Math.floor(event.at / 60_000));
      if (identifiers !== undefined) live.addCost(identifiers, event.identifier, event.cost);
    }
    if (logged) {
      live.addLog(policy, {
        at: event.at,
        identifier: event.identifier,
        outcome: event.allowed ? 'allowed' : 'denied',
        reason: event.reason,
        deniedBy: event.deniedBy,
        overrideId: event.overrideId,
        cost: event.cost,
        shadowDenied: event.shadowDenied,
        candidatesDeniedBy: event.candidatesDeniedBy,
        // references: serialized by the flush, off the check's path
        rules: event.rules,
        answer: event.answer,
      });
    }
    return true;
  }

  private aggregateSettle(event: SettleEvent): boolean {
    if (
      !matches(ID_PATTERN, event.tenantId) ||
      !matches(NAME_PATTERN, event.policy) ||
      !matches(ID_PATTERN, event.keyId) ||
      !Number.isSafeInteger(event.at) ||
      event.at < 0 ||
      !Number.isSafeInteger(event.estimate) ||
      event.estimate < 0 ||
      !Number.isSafeInteger(event.actualCost) ||
      event.actualCost < 0
    ) {
      return false;
    }
    const delta = event.actualCost - event.estimate;
    const live = this.live;
    const tenant = live.tenant(event.tenantId);
    if (tenant === undefined) return true;
    live.touchLastUsed(tenant, event.keyId, event.at);
    if (delta === 0) return true;
    const policy = live.policy(tenant, event.policy);
    if (policy === undefined) return true;
    const counters = live.second(policy, Math.floor(event.at / 1000));
    if (counters !== undefined) live.add(counters, FIELD_COST, delta);
    return true;
  }

  private sampleAllow(): boolean {
    const rate = this.allowSampleRate;
    return rate >= 1 || (rate > 0 && this.random() < rate);
  }

  /** The batch's commands, then (its alerts claimed by then) the claimed alerts' XADDs. */
  private async flushOnce(): Promise<void> {
    let failure: unknown;
    try {
      await this.flushBatch();
    } catch (error) {
      failure = error;
    }
    try {
      await this.publishAlerts();
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) throw failure;
  }

  private commandsOf(batch: UsageAggregate): FlushCommand[] {
    const commands = flushCommands(batch, this.settings);
    commands.push(...alertClaimCommands(batch, this.settings.prefix, this.onClaimed));
    return commands;
  }

  private async flushBatch(): Promise<void> {
    const batch = this.live;
    if (batch.entries === 0) return;
    this.live = this.newAggregate();
    const commands = this.commandsOf(batch);
    // only empty containers (the memory cap refused their content): nothing to send
    if (commands.length === 0) return;
    this.inFlight = batch;
    try {
      const { failed, firstError } = await this.send(commands);
      this.counters.commandsSent += commands.length;
      if (failed.length === 0) {
        this.counters.flushes += 1;
        return;
      }
      this.counters.flushFailures += 1;
      this.keepForRetry(failed);
      throw new UsageFlushError(failed.length, commands.length, firstError);
    } finally {
      this.inFlight = undefined;
    }
  }

  /**
   * Puts failed commands' shares back ahead of what was recorded meanwhile, so the next flush
   * writes the log in time order; the memory cap applies to both, older data first.
   */
  private keepForRetry(failed: readonly FlushCommand[]): void {
    const recorded = this.live;
    this.live = this.newAggregate();
    const nowSecond = Math.floor(this.clock() / 1000);
    for (const command of failed) {
      if (command.staleFrom !== undefined && command.staleFrom <= nowSecond) {
        this.counters.droppedExpired += 1;
      } else {
        command.restore(this.live);
      }
    }
    for (const command of this.commandsOf(recorded)) command.restore(this.live);
  }

  /**
   * Adds the claimed alerts to the alert stream: one pipeline to the stream's node. Those whose
   * XADD failed wait for the next flush (their claim is held already); a duplicate XADD after a
   * lost reply is harmless, the worker admits each alert once per endpoint.
   */
  private async publishAlerts(): Promise<void> {
    const alerts = this.waitingAlerts;
    if (alerts.length === 0) return;
    this.waitingAlerts = [];
    const key = quotaAlertStreamKey(this.settings.prefix);
    const pipeline = this.redis.pipeline();
    for (const alert of alerts) {
      pipeline.xadd(key, 'MAXLEN', '~', this.alertStreamMaxLen, '*', ...quotaAlertFields(alert));
    }
    let replies: [Error | null, unknown][] | null = null;
    let pipelineError: unknown = new Error('pipeline returned no replies');
    try {
      replies = await pipeline.exec();
    } catch (error) {
      pipelineError = error;
    }
    let firstError: unknown;
    const failed = alerts.filter((_, index) => {
      const error = replies ? replies[index]?.[0] : pipelineError;
      if (error) firstError ??= error;
      return Boolean(error);
    });
    this.counters.alertsPublished += alerts.length - failed.length;
    if (failed.length === 0) return;
    const waiting = [...failed, ...this.waitingAlerts];
    const over = waiting.length - MAX_WAITING_ALERTS;
    if (over > 0) this.counters.alertsDropped += over;
    this.waitingAlerts = over > 0 ? waiting.slice(over) : waiting;
    throw new UsageFlushError(failed.length, alerts.length, firstError);
  }

  /** One pipeline per node; returns the commands that failed (Redis error or no reply). */
  private async send(
    commands: FlushCommand[],
  ): Promise<{ failed: FlushCommand[]; firstError: unknown }> {
    const failed: FlushCommand[] = [];
    let firstError: unknown;
    let groups: FlushCommand[][] = [commands];
    if (isCluster(this.redis)) {
      const routed = groupBySlotOwner(commands, clusterSlotOwner(this.redis));
      groups = [...routed.groups.values()];
      const [first] = routed.unrouted;
      if (first !== undefined) {
        failed.push(...routed.unrouted);
        firstError = new Error(`no cluster node known for the slot of ${first.key} (not ready?)`);
      }
    }
    await Promise.all(
      groups.map(async (group) => {
        const pipeline = this.redis.pipeline();
        for (const command of group) command.send(pipeline);
        let replies: [Error | null, unknown][] | null = null;
        let pipelineError: unknown = new Error('pipeline returned no replies');
        try {
          replies = await pipeline.exec();
        } catch (error) {
          pipelineError = error;
        }
        group.forEach((command, index) => {
          const error = replies ? replies[index]?.[0] : pipelineError;
          if (error) {
            failed.push(command);
            firstError ??= error;
          } else {
            command.onReply?.(replies?.[index]?.[1]);
          }
        });
      }),
    );
    return { failed, firstError };
  }

  private newAggregate(): UsageAggregate {
    return new UsageAggregate(this.limits, this.drops);
  }
}

function isCluster(redis: Redis | Cluster): redis is Cluster {
  return redis.isCluster;
}

function isValidEvent(event: DecisionEvent): boolean {
  const { identifier, deniedBy, overrideId } = event;
  return (
    matches(ID_PATTERN, event.tenantId) &&
    matches(NAME_PATTERN, event.policy) &&
    matches(ID_PATTERN, event.keyId) &&
    Number.isSafeInteger(event.at) &&
    event.at >= 0 &&
    typeof identifier === 'string' &&
    identifier.length > 0 &&
    // 256 bytes (the engine's limit) are at most 256 UTF-16 units
    identifier.length <= 256 &&
    typeof event.allowed === 'boolean' &&
    matches(REASON_PATTERN, event.reason) &&
    (deniedBy === undefined || matches(NAME_PATTERN, deniedBy)) &&
    (overrideId === undefined || matches(ID_PATTERN, overrideId)) &&
    Number.isSafeInteger(event.cost) &&
    event.cost >= 0 &&
    typeof event.shadowDenied === 'boolean' &&
    typeof event.candidateDenied === 'boolean' &&
    (event.candidatesDeniedBy === undefined ||
      (Array.isArray(event.candidatesDeniedBy) &&
        event.candidatesDeniedBy.length <= MAX_CANDIDATE_RULES &&
        event.candidatesDeniedBy.every((rule) => matches(NAME_PATTERN, rule))))
  );
}

/** `RegExp.test` would turn undefined into the string "undefined", which is a valid id. */
function matches(pattern: RegExp, value: unknown): boolean {
  return typeof value === 'string' && pattern.test(value);
}

function integerOption(
  name: string,
  value: number | undefined,
  fallback: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UsageInputError(`${name}: expected an integer from 1 to ${max}`);
  }
  return value;
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
