import { RateLimitedError, SluiceClient } from '@sluice/sdk';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEMO_FAILING_ENDPOINT, DEMO_WEBHOOK_ENDPOINT } from './seed';

export interface DemoTrafficOptions {
  dataPlaneUrl: string;
  apiKey: string;
  /** Told once per kind of failure (the data plane restarting, say); the traffic goes on. */
  onError?: (what: string, error: unknown) => void;
  random?: () => number;
}

/** What the generator sent, by kind: for its log line and its test. */
export interface DemoTrafficCounts {
  checks: number;
  denied: number;
  llmCalls: number;
  webhooks: number;
  failures: number;
}

export interface DemoTraffic {
  counts(): DemoTrafficCounts;
  /** Stops every loop and waits for the requests in flight. */
  stop(): Promise<void>;
}

/**
 * Steady users: one check of `api` every 200 ms, each time from one of 1,000 users: about 430 a
 * day each, well within the free plan's 1,000 a day.
 */
const STEADY = { everyMs: 200, users: 1000 };
/** Two abusive identifiers, each checking `api` 5 times a second against a refill of 1. */
const ABUSIVE = { everyMs: 100, identifiers: ['demo-scraper-1', 'demo-scraper-2'] };
/** LLM calls on `llm-tokens`: reserved at an estimate, settled at their usage. */
const LLM = { everyMs: 700, assistants: 6, estimate: 1500, heavyEstimate: 4000 };
/** Webhook events: to the working receiver every second, to the failing one every 5 s. */
const WEBHOOKS = { everyMs: 1000, failingEvery: 5 };

/**
 * `npm start`'s demo traffic, so every view of the console is alive at first open: steady users
 * well within the `api` policy, two abusive identifiers it denies most of the time, LLM calls on
 * `llm-tokens` (a reservation at an estimate, a simulated call, a settle at the tokens it used;
 * one heavy assistant runs through its tokens), and webhook events to the demo receiver and to an
 * endpoint whose receiver is down. Bounded: each loop waits for its request before its next tick,
 * so a slow data plane slows the traffic instead of piling requests up. Identifiers start with
 * `demo-`, apart from the README's examples.
 */
export function startDemoTraffic(options: DemoTrafficOptions): DemoTraffic {
  const random = options.random ?? Math.random;
  const counts: DemoTrafficCounts = { checks: 0, denied: 0, llmCalls: 0, webhooks: 0, failures: 0 };
  const reported = new Set<string>();
  const fail = (what: string, error: unknown) => {
    counts.failures += 1;
    if (reported.has(what)) return;
    reported.add(what);
    options.onError?.(what, error);
  };
  const sluice = new SluiceClient({
    baseUrl: options.dataPlaneUrl,
    apiKey: options.apiKey,
    userAgent: 'sluice-demo-traffic',
    failMode: 'closed',
    onError: (error, operation) => fail(operation, error),
  });
  const pick = (n: number) => Math.floor(random() * n);
  const abort = new AbortController();

  const check = async (identifier: string) => {
    const result = await sluice.check({ policy: 'api', identifier });
    counts.checks += 1;
    if (!result.allowed) counts.denied += 1;
  };

  let abusive = 0;
  const llmCall = async (tick: number) => {
    const heavy = tick % 3 === 0;
    const identifier = heavy ? 'demo-assistant-heavy' : `demo-assistant-${pick(LLM.assistants)}`;
    const estimate = heavy ? LLM.heavyEstimate : LLM.estimate;
    try {
      await sluice.limit(
        async () => {
          await sleep(200 + pick(600), undefined, { signal: abort.signal }).catch(() => undefined);
          return { tokens: Math.round(estimate * (0.2 + random() * 0.8)) };
        },
        { policy: 'llm-tokens', identifier, estimate, cost: (reply) => reply.tokens },
      );
      counts.llmCalls += 1;
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      counts.denied += 1;
    }
  };

  let events = 0;
  const webhook = async () => {
    events += 1;
    const endpoint =
      events % WEBHOOKS.failingEvery === 0 ? DEMO_FAILING_ENDPOINT : DEMO_WEBHOOK_ENDPOINT;
    const response = await fetch(`${options.dataPlaneUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint, type: 'demo.order_created', payload: { order: events } }),
      signal: abort.signal,
    });
    await response.arrayBuffer();
    // 429: the endpoint's queue is full (the failing one fills up): the next event tries again
    if (!response.ok && response.status !== 429)
      throw new Error(`webhooks answered ${response.status}`);
    if (response.ok) counts.webhooks += 1;
  };

  const loops = [
    every('steady checks', STEADY.everyMs, () => check(`demo-user-${pick(STEADY.users)}`)),
    every('abusive checks', ABUSIVE.everyMs, () =>
      check(ABUSIVE.identifiers[abusive++ % ABUSIVE.identifiers.length] ?? 'demo-scraper-1'),
    ),
    every('LLM calls', LLM.everyMs, llmCall),
    every('webhook events', WEBHOOKS.everyMs, webhook),
  ].map((loop) => loop(abort.signal, fail));

  return {
    counts: () => ({ ...counts }),
    stop: async () => {
      abort.abort();
      await Promise.all(loops);
    },
  };
}

/** A loop that runs `step` every `everyMs` (the next tick waits for the step) until aborted. */
function every(
  what: string,
  everyMs: number,
  step: (tick: number) => Promise<void>,
): (signal: AbortSignal, fail: (what: string, error: unknown) => void) => Promise<void> {
  return async (signal, fail) => {
    for (let tick = 0; !signal.aborted; tick += 1) {
      const started = Date.now();
      try {
        await step(tick);
      } catch (error) {
        if (signal.aborted) return;
        fail(what, error);
      }
      const wait = Math.max(0, everyMs - (Date.now() - started));
      await sleep(wait, undefined, { signal }).catch(() => undefined);
    }
  };
}
