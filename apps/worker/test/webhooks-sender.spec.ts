import { parseEnv } from '@sluice/config';
import { afterEach, describe, expect, it } from 'vitest';
import { envSchema } from '../src/env';
import { WebhookSender, type SendResult } from '../src/webhooks/webhook-sender';
import { startReceiver, until, type Answer, type Receiver } from './webhooks-support';

/** The endpoint's in-flight limit, hence its socket cap. */
const MAX_IN_FLIGHT = 2;
const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;
/** Larger than any loopback socket buffers (here up to 32 MiB received + 4 MiB sent) can hold. */
const HUGE_BODY = 256 * 1024 * 1024;

let sender: WebhookSender;
const receivers: Receiver[] = [];

afterEach(async () => {
  sender?.onApplicationShutdown();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(answers: Answer[]): Promise<Receiver> {
  const started = await startReceiver(answers);
  receivers.push(started);
  return started;
}

function newSender(): WebhookSender {
  sender = new WebhookSender(
    parseEnv(envSchema, {
      DATABASE_URL: 'postgresql://127.0.0.1/unused',
      WORKER_WEBHOOK_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
    }),
  );
  return sender;
}

/**
 * One attempt to `endpointId`, failing the test if it has not ended 15 s after its timeout: an
 * attempt that ignores its deadline hangs, while a loaded machine only ends it a little late.
 */
async function attempt(endpointId: string, url: string, timeoutMs: number): Promise<SendResult> {
  const deadline = timeoutMs + 15_000;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the attempt had not ended after ${deadline} ms`)),
      deadline,
    );
  });
  try {
    return await Promise.race([
      sender.send({ id: endpointId, url }, LOOPBACK, {}, '{}', timeoutMs),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('webhook sender limits', () => {
  it('ends an attempt whose answer trickles at its timeout, and closes the connection', async () => {
    // headers at once, then a byte of body every 100 ms, never ending
    const trickling = await receiver([{ status: 200, trickleMs: 100 }]);
    newSender();

    const result = await attempt('wh_trickle', trickling.url, 500);

    expect(result).toMatchObject({ ok: false, status: 200 });
    expect(result.error).toMatch(/not finished within 500 ms/);
    // the close of the connection and the end of its answer are reported apart
    await until(
      'the receiver sees its connection closed',
      () => trickling.connections.open === 0 && trickling.ends.length > 0,
    );
    expect(trickling.ends).toEqual([expect.objectContaining({ finished: false })]);
    expect(trickling.ends[0]!.bodyBytes).toBeGreaterThan(0);
  });

  it('reads a huge answer only up to its cap, then closes the connection', async () => {
    const huge = await receiver([{ status: 200, bodyBytes: HUGE_BODY }]);
    newSender();

    const result = await attempt('wh_huge', huge.url, 1000);

    // the receiver said 200: the delivery counts, the rest of its body is not wanted
    expect(result).toMatchObject({ ok: true, status: 200, error: undefined });
    await until(
      'the receiver sees its connection closed',
      () => huge.connections.open === 0 && huge.ends.length > 0,
    );
    const [end] = huge.ends;
    expect(end?.finished).toBe(false);
    // what left the receiver is at most the cap plus what the sockets' buffers took in
    expect(end!.bodyBytes).toBeLessThan(HUGE_BODY / 4);
  });

  it('keeps the connection of an answer read to its end for the next attempt', async () => {
    const sink = await receiver([{ status: 200, bodyBytes: 4096 }]);
    newSender();

    for (let i = 0; i < 3; i += 1) {
      expect(await attempt('wh_keep', sink.url, 1000)).toMatchObject({ ok: true, status: 200 });
    }

    expect(sink.connections).toMatchObject({ opened: 1, open: 1 });
    expect(sink.ends.every((end) => end.finished)).toBe(true);
  });

  it('never opens more connections to one endpoint than its in-flight limit', async () => {
    const slow = await receiver([{ status: 200, delayMs: 200 }]);
    newSender();

    const results = await Promise.all(
      Array.from({ length: 4 * MAX_IN_FLIGHT }, () => attempt('wh_busy', slow.url, 5000)),
    );

    expect(results.every((result) => result.ok)).toBe(true);
    // the receiver's thread reports each request apart from its answer: the report of the last
    // one may come in just after the answer
    await until('every request reported', () => slow.arrivals.length >= 4 * MAX_IN_FLIGHT);
    expect(slow.arrivals).toHaveLength(4 * MAX_IN_FLIGHT);
    expect(slow.connections.maxOpen).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    expect(slow.connections.opened).toBeLessThanOrEqual(MAX_IN_FLIGHT);
  });
});
