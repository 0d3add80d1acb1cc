import { describe, expect, it } from 'vitest';
import { addSample, ratesOf, RATE_WINDOW_MS, type QueueSample } from './queue-rates';

const at = (seconds: number, delivered: number, failed = 0): QueueSample => ({
  at: seconds * 1000,
  delivered,
  failed,
});

describe('the queue’s rates', () => {
  it('are the counters’ growth per second between the oldest and newest reading', () => {
    let samples: QueueSample[] = [];
    for (const sample of [at(0, 10, 1), at(2, 14, 1), at(4, 20, 3)]) {
      samples = addSample(samples, sample);
    }
    expect(ratesOf(samples)).toEqual({ deliveredPerSec: 2.5, failedPerSec: 0.5 });
  });

  it('forget readings older than the window', () => {
    const samples = addSample([at(0, 0), at(10, 50)], at(RATE_WINDOW_MS / 1000 + 5, 100));
    expect(samples.map((s) => s.at)).toEqual([10_000, 35_000]);
    expect(ratesOf(samples)?.deliveredPerSec).toBe(2);
  });

  it('wait for two readings a second apart', () => {
    expect(ratesOf([at(0, 0)])).toBeUndefined();
    expect(
      ratesOf([
        { at: 0, delivered: 0, failed: 0 },
        { at: 500, delivered: 3, failed: 0 },
      ]),
    ).toBeUndefined();
  });
});
