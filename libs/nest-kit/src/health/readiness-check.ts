export type ReadinessResult = { ready: true } | { ready: false; detail: string };

/**
 * One dependency /readyz waits for. Implementations are providers (e.g. `RedisReadinessCheck`)
 * and must bound their own time: a probe that hangs is as bad as one that fails.
 */
export interface ReadinessCheck {
  /** Key in the ready body's `checks`, e.g. `redis`. */
  readonly name: string;
  /** A rejection counts as not ready, its message as the detail. */
  check(): Promise<ReadinessResult>;
}
