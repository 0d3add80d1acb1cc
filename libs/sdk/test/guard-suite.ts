import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UnavailableError, type SluiceClient } from '../src';
import {
  bucket,
  clientFor,
  closedPortUrl,
  dataPlane,
  gate,
  silentServer,
  tenants,
  type Tenant,
} from './support';

export interface GuardAppOptions {
  client: SluiceClient;
  policy: string;
  /** `header`: the identifier is the `x-user` header; `ip`: the adapter's default. */
  identify: 'header' | 'ip';
  /** Runs in the route handler, once the guard let the request through. */
  handle: () => Promise<void> | void;
}

/**
 * A real app of the framework with the adapter in front of `GET /hello`, which runs `handle` and
 * answers 200 `{ reason, remaining }` from the check result the adapter exposes to handlers.
 */
export type StartGuardApp = (options: GuardAppOptions) => Promise<GuardApp>;

export interface GuardApp {
  url: string;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

async function get(app: GuardApp, user?: string): Promise<Reply> {
  const response = await fetch(`${app.url}/hello?token=secret`, {
    headers: user === undefined ? {} : { 'x-user': user },
  });
  const text = await response.text();
  const json = /json/.test(response.headers.get('content-type') ?? '');
  return {
    status: response.status,
    headers: response.headers,
    body: json ? JSON.parse(text) : text,
  };
}

const RATE_LIMIT_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'ratelimit',
  'retry-after',
];

/** No rate-limit header at all (fail-open results and refusals without rule figures). */
function expectNoRateLimitHeaders(reply: Reply): void {
  for (const name of RATE_LIMIT_HEADERS) expect(reply.headers.get(name)).toBeNull();
}

function expectProblem(reply: Reply, status: number, type: string): void {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  // the caller's path (without its query), not the data plane's
  expect(reply.body).toMatchObject({ type, status, title: expect.any(String), instance: '/hello' });
}

/** The same promises for every adapter: headers, denial, fail modes, configuration errors. */
export function describeGuard(framework: string, start: StartGuardApp): void {
  describe(`${framework} against the real data plane`, () => {
    const seed = tenants();
    const apps: GuardApp[] = [];
    let tenant: Tenant;
    let handled = 0;
    let users = 0;
    const who = () => `${framework}-user-${(users += 1)}`;

    const open = async (over: Partial<GuardAppOptions> = {}) => {
      const app = await start({
        client: clientFor(tenant.apiKey),
        policy: 'api',
        identify: 'header',
        handle: () => void (handled += 1),
        ...over,
      });
      apps.push(app);
      return app;
    };

    beforeAll(async () => {
      tenant = await seed.create([
        { name: 'api', rules: [bucket('burst', 2)] },
        { name: 'wide', rules: [bucket('burst', 1000)] },
      ]);
    });
    afterAll(async () => {
      await Promise.all(apps.map((app) => app.close()));
      await seed.close();
    });

    it('lets a request through with the data plane’s rate-limit headers on the response', async () => {
      const app = await open();
      const reply = await get(app, who());

      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ reason: 'allowed', remaining: 1 });
      expect(reply.headers.get('x-ratelimit-limit')).toBe('2');
      expect(reply.headers.get('x-ratelimit-remaining')).toBe('1');
      expect(reply.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
      expect(reply.headers.get('ratelimit-policy')).toBe('"burst";q=2;w=2000');
      expect(reply.headers.get('ratelimit')).toMatch(/^"burst";r=1;t=\d+$/);
      expect(reply.headers.get('retry-after')).toBeNull();
    });

    it('answers a denial 429 with the data plane’s problem+json, and never runs the handler', async () => {
      const app = await open();
      const user = who();
      await get(app, user);
      await get(app, user);
      const before = handled;
      const denied = await get(app, user);

      expectProblem(denied, 429, 'https://sluice.dev/problems/rate-limited');
      expect(denied.body).toMatchObject({
        detail: expect.stringMatching(/^Rate limit of 2 requests per 2000 seconds exceeded\./),
        'violated-policies': ['burst'],
      });
      expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(denied.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(denied.headers.get('ratelimit-policy')).toBe('"burst";q=2;w=2000');
      expect(handled).toBe(before);
    });

    it('limits by the client address by default', async () => {
      const app = await open({ policy: 'wide', identify: 'ip' });
      const inspect = () => clientFor(tenant.apiKey).inspect('wide', '127.0.0.1');
      const before = (await inspect()).remaining;
      const reply = await get(app);

      expect(reply.status).toBe(200);
      expect((await inspect()).remaining).toBe(before - 1);
    });

    it('passes a suspended tenant’s 403 tenant-suspended problem on', async () => {
      const frozen = await seed.create([{ name: 'api', rules: [bucket('burst', 5)] }], {
        status: 'suspended',
      });
      const app = await open({ client: clientFor(frozen.apiKey) });

      expectProblem(await get(app, who()), 403, 'https://sluice.dev/problems/tenant-suspended');
    });

    it('hands configuration errors (an unknown policy) to the framework: 500, no handler', async () => {
      const app = await open({ policy: 'no-such-policy' });
      const before = handled;
      const reply = await get(app, who());

      expect(reply.status).toBe(500);
      expect(handled).toBe(before);
    });

    describe('when the data plane cannot answer', () => {
      it('fails closed: 503 problem+json naming nothing internal, no handler', async () => {
        const baseUrl = await closedPortUrl();
        const client = clientFor(tenant.apiKey, { baseUrl, failMode: 'closed' });
        const app = await open({ client });
        const before = handled;
        const reply = await get(app, who());

        expectProblem(reply, 503, 'https://sluice.dev/problems/temporary-reduced-capacity');
        expect(JSON.stringify(reply.body)).not.toContain(new URL(baseUrl).port);
        expectNoRateLimitHeaders(reply);
        expect(handled).toBe(before);
      });

      it('fails open: the handler runs with a client-fail-open result, onError is told', async () => {
        const onError = vi.fn();
        const client = clientFor(tenant.apiKey, { baseUrl: await closedPortUrl(), onError });
        const app = await open({ client });
        const reply = await get(app, who());

        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({ reason: 'client-fail-open', remaining: 0 });
        expectNoRateLimitHeaders(reply);
        expect(onError).toHaveBeenCalledWith(expect.any(UnavailableError), 'check');
      });

      it('times out after timeoutMs, then fails closed or open', async () => {
        const server = await silentServer();
        try {
          const closed = await open({
            client: clientFor(tenant.apiKey, {
              baseUrl: server.url,
              timeoutMs: 100,
              failMode: 'closed',
            }),
          });
          const opened = await open({
            client: clientFor(tenant.apiKey, { baseUrl: server.url, timeoutMs: 100 }),
          });

          expectProblem(
            await get(closed, who()),
            503,
            'https://sluice.dev/problems/temporary-reduced-capacity',
          );
          expect(await get(opened, who())).toMatchObject({
            status: 200,
            body: { reason: 'client-fail-open' },
          });
        } finally {
          await server.close();
        }
      });
    });

    describe.skipIf(!dataPlane.features.release)('concurrency leases', () => {
      let leased: Tenant;

      beforeAll(async () => {
        leased = await seed.create([
          {
            name: 'inflight',
            rules: [{ name: 'inflight', algorithm: 'concurrency', limit: 1, leaseTtlMs: 60_000 }],
          },
        ]);
      });

      it('holds a lease while the request is in flight and releases it when the response is done', async () => {
        const held = gate();
        let first = true;
        const app = await open({
          client: clientFor(leased.apiKey),
          policy: 'inflight',
          handle: () => {
            if (!first) return undefined;
            first = false;
            return held.opened;
          },
        });
        const user = who();
        const inFlight = () => clientFor(leased.apiKey).inspect('inflight', user);
        const pending = get(app, user);
        await vi.waitUntil(async () => (await inFlight()).remaining === 0, { timeout: 30_000 });

        expectProblem(await get(app, user), 429, 'https://sluice.dev/problems/rate-limited');
        held.open();
        expect((await pending).status).toBe(200);
        await vi.waitUntil(async () => (await inFlight()).remaining === 1, { timeout: 30_000 });
        expect((await get(app, user)).status).toBe(200);
      });
    });
  });
}
