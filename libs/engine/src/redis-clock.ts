import type { RedisLike } from '@sluice/algorithms';

/** Ms epoch from the monotonic clock: wall-clock steps between two syncs do not move it. */
const localNow = (): number => performance.timeOrigin + performance.now();

/**
 * The Redis server's clock as seen from this process: the local monotonic clock plus an offset
 * measured with TIME. Of a few samples the one with the shortest round trip is kept; the offset
 * is then off by at most half that round trip, however far the two machines' clocks disagree.
 * Before the first sync (or while every sync fails) the offset is 0: the local wall clock.
 */
export class RedisClock {
  private offsetMs = 0;
  private roundTripMs: number | undefined;

  constructor(private readonly redis: RedisLike) {}

  /** Ms epoch on the Redis clock (estimated). */
  now(): number {
    return localNow() + this.offsetMs;
  }

  /** How far `now()` may be from the Redis clock (half the kept round trip); unknown before a sync. */
  get uncertaintyMs(): number | undefined {
    return this.roundTripMs === undefined ? undefined : this.roundTripMs / 2;
  }

  /** Measures the offset again (`samples` TIME calls, one after the other). */
  async sync(samples = 3): Promise<void> {
    let best: { offsetMs: number; roundTripMs: number } | undefined;
    for (let i = 0; i < samples; i += 1) {
      const sent = localNow();
      const [seconds, micros] = await this.redis.time();
      const received = localNow();
      const redisMs = Number(seconds) * 1000 + Number(micros) / 1000;
      const roundTripMs = received - sent;
      // TIME was read somewhere in the round trip: its middle is the best guess
      if (!best || roundTripMs < best.roundTripMs) {
        best = { offsetMs: redisMs - (sent + received) / 2, roundTripMs };
      }
    }
    if (!best) return;
    this.offsetMs = best.offsetMs;
    this.roundTripMs = best.roundTripMs;
  }
}
