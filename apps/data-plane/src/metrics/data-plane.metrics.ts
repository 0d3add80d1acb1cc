import { Injectable } from '@nestjs/common';
import type {
  CacheCounters,
  CheckResult,
  CircuitStats,
  DecisionReason,
  PolicyCacheStats,
  ReleaseResult,
  SettleResult,
} from '@sluice/engine';
import type { UsageStats } from '@sluice/usage';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** From 50 µs to 1 s: a warm check takes well under a millisecond, a Redis timeout up to 1 s. */
const LATENCY_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1,
];

type RedisErrorSource = 'engine' | 'usage' | 'connection';

/** What the usage, cache and circuit metrics read at scrape time (set once the engine exists). */
export interface MetricSources {
  usage: () => UsageStats;
  cache: () => PolicyCacheStats;
  circuits: () => CircuitStats;
}

interface Observer {
  inc(value?: number): void;
}

/** The `cache` label: the policy cache's two caches, by what they hold. */
const CACHES = { tenant: 'tenants', key: 'keys' } as const satisfies Record<
  string,
  keyof PolicyCacheStats
>;

/**
 * The data plane's Prometheus metrics, on the app's registry. A check costs one counter increment
 * and two histogram observations (about 1 µs in prom-client); the label children are built once.
 * Usage, cache and circuit figures cost nothing per check: they are read when Prometheus scrapes.
 */
@Injectable()
export class DataPlaneMetrics {
  private readonly decisions: Counter<'outcome' | 'reason'>;
  private readonly decisionChildren = new Map<
    DecisionReason,
    [denied: Observer, allowed: Observer]
  >();
  private readonly engineSeconds: { observe(value: number): void };
  private readonly totalSeconds: { observe(value: number): void };
  private readonly redisErrors: Record<RedisErrorSource, Observer>;
  private readonly settles: Record<'settled' | 'already_settled' | 'not_found', Observer>;
  private readonly settleDelta: Record<'overrun' | 'refund', Observer>;
  private readonly releases: Record<'released' | 'not_held' | 'not_found', Observer>;
  private sources: MetricSources | undefined;
  /** Decisions since the process started, for its heartbeat. */
  readonly decisionTotals = { allowed: 0, denied: 0 };

  constructor(registry: Registry) {
    const registers = [registry];
    this.decisions = new Counter({
      name: 'sluice_decisions_total',
      help: 'Checks decided, by outcome (allowed or denied) and reason (the engine reason code).',
      labelNames: ['outcome', 'reason'],
      registers,
    });
    const latency = new Histogram({
      name: 'sluice_check_duration_seconds',
      help: 'Time of a check: in the engine (key, policy, Redis call) and in total (handler, validation and reply included).',
      labelNames: ['stage'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.engineSeconds = latency.labels('engine');
    this.totalSeconds = latency.labels('total');
    const errors = new Counter({
      name: 'sluice_redis_errors_total',
      help: 'Redis failures: failed or timed-out checks and background cache reads (engine), usage flushes (usage), connection errors, one per failed (re)connection attempt (connection).',
      labelNames: ['source'],
      registers,
    });
    this.redisErrors = {
      engine: errors.labels('engine'),
      usage: errors.labels('usage'),
      connection: errors.labels('connection'),
    };
    const settles = new Counter({
      name: 'sluice_settles_total',
      help: 'Settles answered, by outcome: settled now, already settled before (nothing changed), not found (unknown, expired or foreign; 404).',
      labelNames: ['outcome'],
      registers,
    });
    this.settles = {
      settled: settles.labels('settled'),
      already_settled: settles.labels('already_settled'),
      not_found: settles.labels('not_found'),
    };
    const delta = new Counter({
      name: 'sluice_settle_delta_units_total',
      help: 'How far first settles were from their estimates: units of overrun (actual above the estimate, charged) and of refund (below it) asked for.',
      labelNames: ['direction'],
      registers,
    });
    this.settleDelta = { overrun: delta.labels('overrun'), refund: delta.labels('refund') };
    const releases = new Counter({
      name: 'sluice_releases_total',
      help: 'Lease releases answered, by outcome: released, not held any more (released before or expired), not found (404).',
      labelNames: ['outcome'],
      registers,
    });
    this.releases = {
      released: releases.labels('released'),
      not_held: releases.labels('not_held'),
      not_found: releases.labels('not_found'),
    };
    // exported at 0 from the start, so an alert on their rate has a series before any event
    for (const observer of [
      ...Object.values(this.redisErrors),
      ...Object.values(this.settles),
      ...Object.values(this.settleDelta),
      ...Object.values(this.releases),
    ]) {
      observer.inc(0);
    }
    this.registerSourceMetrics(registers);
  }

  /** Connects the scrape-time gauges to the engine and recorder. */
  readFrom(sources: MetricSources): void {
    this.sources = sources;
  }

  /** One decided check, with its engine and total time in milliseconds. */
  decided(result: CheckResult, engineMs: number, totalMs: number): void {
    let children = this.decisionChildren.get(result.reason);
    if (!children) {
      children = [
        this.decisions.labels('denied', result.reason),
        this.decisions.labels('allowed', result.reason),
      ];
      this.decisionChildren.set(result.reason, children);
    }
    children[result.allowed ? 1 : 0].inc();
    this.decisionTotals[result.allowed ? 'allowed' : 'denied'] += 1;
    this.engineSeconds.observe(engineMs / 1000);
    this.totalSeconds.observe(totalMs / 1000);
  }

  /** One settle answered: its result, or `not-found` (404). */
  settled(result: SettleResult | 'not-found'): void {
    if (result === 'not-found') {
      this.settles.not_found.inc();
      return;
    }
    if (result.alreadySettled) {
      this.settles.already_settled.inc();
      return;
    }
    this.settles.settled.inc();
    const delta = result.actualCost - result.estimate;
    if (delta > 0) this.settleDelta.overrun.inc(delta);
    else if (delta < 0) this.settleDelta.refund.inc(-delta);
  }

  /** One release answered: its result, or `not-found` (404). */
  released(result: ReleaseResult | 'not-found'): void {
    if (result === 'not-found') this.releases.not_found.inc();
    else if (result.released) this.releases.released.inc();
    else this.releases.not_held.inc();
  }

  redisError(source: RedisErrorSource): void {
    this.redisErrors[source].inc();
  }

  private registerSourceMetrics(registers: Registry[]): void {
    // arrow functions: inside `collect`, `this` is the metric
    const usage = () => this.sources?.usage();
    const cache = () => this.sources?.cache();
    const circuits = () => this.sources?.circuits();
    const usageCounter = (name: string, help: string, pick: (stats: UsageStats) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          const stats = usage();
          if (!stats) return;
          this.reset();
          this.inc(pick(stats));
        },
      });
    usageCounter(
      'sluice_usage_events_recorded_total',
      'Decisions aggregated for usage accounting.',
      (s) => s.eventsRecorded,
    );
    usageCounter(
      'sluice_usage_events_invalid_total',
      'Malformed decision events the usage recorder ignored.',
      (s) => s.eventsInvalid,
    );
    usageCounter(
      'sluice_usage_flushes_total',
      'Usage flushes whose every command succeeded.',
      (s) => s.flushes,
    );
    usageCounter(
      'sluice_usage_flush_failures_total',
      'Usage flushes with a failed command (its share is retried at the next flush).',
      (s) => s.flushFailures,
    );
    usageCounter(
      'sluice_usage_commands_sent_total',
      'Redis commands usage flushes sent.',
      (s) => s.commandsSent,
    );
    new Counter({
      name: 'sluice_quota_alerts_total',
      help: 'Quota threshold crossings by stage: detected in process, claimed in Redis (first for their window), duplicate (another data plane claimed it), without_endpoint (the tenant has no enabled endpoint), published to the alert stream, dropped (too many waiting for the stream).',
      labelNames: ['stage'],
      registers,
      collect() {
        const stats = usage();
        if (!stats) return;
        this.reset();
        this.labels('detected').inc(stats.alertsDetected);
        this.labels('claimed').inc(stats.alertsClaimed);
        this.labels('duplicate').inc(stats.alertsDuplicate);
        this.labels('without_endpoint').inc(stats.alertsWithoutEndpoint);
        this.labels('published').inc(stats.alertsPublished);
        this.labels('dropped').inc(stats.alertsDropped);
      },
    });
    new Gauge({
      name: 'sluice_quota_alerts_waiting',
      help: 'Claimed quota alerts waiting for the alert stream (Redis refused the last attempt).',
      registers,
      collect() {
        const stats = usage();
        if (stats) this.set(stats.alertsWaiting);
      },
    });
    new Gauge({
      name: 'sluice_usage_pending_entries',
      help: 'Usage entries waiting in memory for the next flush.',
      registers,
      collect() {
        const stats = usage();
        if (stats) this.set(stats.pendingEntries);
      },
    });
    new Counter({
      name: 'sluice_usage_dropped_total',
      help: 'Usage entries dropped: over the memory cap, past retention when retried, beyond the top-denied headroom, or the cheapest charged identifiers pruned from a flush (top_cost).',
      labelNames: ['cause'],
      registers,
      collect() {
        const stats = usage();
        if (!stats) return;
        this.reset();
        this.labels('over_cap').inc(stats.droppedOverCap);
        this.labels('expired').inc(stats.droppedExpired);
        this.labels('top_denied').inc(stats.droppedTopDenied);
        this.labels('top_cost').inc(stats.prunedTopCost);
      },
    });
    /** A counter per cache (tenant, key) and value of `label`, each read from its counters. */
    const cacheCounter = (
      name: string,
      help: string,
      label: string,
      picks: Record<string, (counters: CacheCounters) => number>,
    ) =>
      new Counter({
        name,
        help,
        labelNames: ['cache', label],
        registers,
        collect() {
          const stats = cache();
          if (!stats) return;
          this.reset();
          for (const [name, field] of Object.entries(CACHES)) {
            for (const [value, pick] of Object.entries(picks)) {
              this.labels({ cache: name, [label]: value }).inc(pick(stats[field]));
            }
          }
        },
      });
    cacheCounter(
      'sluice_cache_lookups_total',
      'Policy cache lookups of tenants and API keys: answered from memory (hit) or waiting for Redis (miss).',
      'result',
      { hit: (c) => c.hits, miss: (c) => c.misses },
    );
    new Counter({
      name: 'sluice_cache_loads_total',
      help: 'Reads from Redis that filled the policy cache: one per miss (however many lookups waited for it) and per refresh.',
      labelNames: ['cache'],
      registers,
      collect() {
        const stats = cache();
        if (!stats) return;
        this.reset();
        for (const [name, field] of Object.entries(CACHES)) {
          this.labels(name).inc(stats[field].loads);
        }
      },
    });
    cacheCounter(
      'sluice_cache_invalidations_total',
      'Cached tenants and keys dropped or refreshed, because a change message said so or the re-check found them changed (a lost message).',
      'cause',
      { message: (c) => c.invalidatedByMessage, recheck: (c) => c.invalidatedByRecheck },
    );
    new Gauge({
      name: 'sluice_cache_entries',
      help: 'Tenants and API keys held in the policy cache.',
      labelNames: ['cache'],
      registers,
      collect() {
        const stats = cache();
        if (!stats) return;
        for (const [name, field] of Object.entries(CACHES)) {
          this.labels(name).set(stats[field].entries);
        }
      },
    });
    // per policy, the circuits are counted rather than labelled: a label per policy would grow
    // with the tenants
    new Gauge({
      name: 'sluice_redis_circuits_open',
      help: 'Policies whose Redis circuit is open now: their checks are answered by their fail mode without a call.',
      registers,
      collect() {
        const stats = circuits();
        if (stats) this.set(stats.open);
      },
    });
    new Counter({
      name: 'sluice_redis_circuit_openings_total',
      help: "Times a policy's Redis circuit opened after consecutive failures or timeouts (a failed probe re-opening it is not counted).",
      registers,
      collect() {
        const stats = circuits();
        if (!stats) return;
        this.reset();
        this.inc(stats.openings);
      },
    });
  }
}
