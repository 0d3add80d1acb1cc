import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import {
  type BeatOf,
  HEARTBEAT_FORMAT,
  type HeartbeatService,
  instanceName,
  redisTimeMs,
  removeHeartbeat,
  writeHeartbeat,
} from './heartbeat';

export interface HeartbeatWriterOptions<S extends HeartbeatService> {
  redis: Redis;
  prefix: string;
  service: S;
  version: string;
  intervalMs: number;
  /** This beat's details; `roundTripMs` is the round trip of the TIME call just made. */
  collect: (roundTripMs: number) => BeatOf<S> | Promise<BeatOf<S>>;
  /** A beat failed (Redis down, say): reported once per run of failures; the next is tried on time. */
  onError?: (error: unknown) => void;
}

/**
 * Writes a heartbeat at start and every `intervalMs` (never two at once), and removes it on
 * stop, so a clean shutdown leaves no silent instance behind.
 */
export class HeartbeatWriter<S extends HeartbeatService> {
  readonly instance = instanceName();
  private startedAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  private failing = false;

  constructor(private readonly options: HeartbeatWriterOptions<S>) {}

  start(): void {
    if (this.timer) return;
    this.beat();
    this.timer = setInterval(() => this.beat(), this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    const { redis, prefix, service } = this.options;
    if (redis.status === 'ready') await removeHeartbeat(redis, prefix, service, this.instance);
  }

  private beat(): void {
    if (this.beating) return;
    this.beating = this.write()
      .then(
        () => void (this.failing = false),
        (error: unknown) => {
          if (!this.failing) this.options.onError?.(error);
          this.failing = true;
        },
      )
      .finally(() => (this.beating = undefined));
  }

  private async write(): Promise<void> {
    const { redis, prefix, service, version, intervalMs, collect } = this.options;
    const sent = performance.now();
    const at = await redisTimeMs(redis);
    const roundTripMs = performance.now() - sent;
    this.startedAt ??= at;
    await writeHeartbeat(redis, prefix, service, {
      format: HEARTBEAT_FORMAT,
      instance: this.instance,
      version,
      host: hostname(),
      pid: process.pid,
      startedAt: this.startedAt,
      at,
      intervalMs,
      details: await collect(roundTripMs),
    });
  }
}
