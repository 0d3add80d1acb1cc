/** A reading of an endpoint's counters (they only grow), at a time in ms. */
export interface QueueSample {
  at: number;
  delivered: number;
  failed: number;
}

/** The span the rates are read over (ms). */
export const RATE_WINDOW_MS = 30_000;

/** `samples` with `sample` added, those older than the window before it dropped. */
export function addSample(samples: readonly QueueSample[], sample: QueueSample): QueueSample[] {
  return [...samples.filter((s) => s.at >= sample.at - RATE_WINDOW_MS), sample];
}

/**
 * Deliveries and failed attempts per second between the oldest and newest sample; undefined
 * until two samples a second apart exist.
 */
export function ratesOf(
  samples: readonly QueueSample[],
): { deliveredPerSec: number; failedPerSec: number } | undefined {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < 1000) return undefined;
  const seconds = (last.at - first.at) / 1000;
  return {
    deliveredPerSec: Math.max(0, last.delivered - first.delivered) / seconds,
    failedPerSec: Math.max(0, last.failed - first.failed) / seconds,
  };
}
