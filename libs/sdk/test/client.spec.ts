import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AuthenticationError,
  ForbiddenError,
  NotFoundError,
  SluiceError,
  UnavailableError,
  ValidationError,
  type CheckResult,
} from '../src';
import { bucket, clientFor, closedPortUrl, silentServer, tenants, type Tenant } from './support';

const seed = tenants();
let tenant: Tenant;
let identifiers = 0;
const who = () => `user-${(identifiers += 1)}`;

beforeAll(async () => {
  tenant = await seed.create([
    { name: 'api', rules: [bucket('burst', 2)] },
    { name: 'bulk', rules: [bucket('burst', 100)] },
  ]);
});
afterAll(async () => {
  await seed.close();
});

describe('check()', () => {
  it('answers the data plane’s result and its rate-limit headers', async () => {
    const client = clientFor(tenant.apiKey);
    const identifier = who();
    const result = await client.check({ policy: 'api', identifier });

    expect(result).toMatchObject({
      allowed: true,
      reason: 'allowed',
      policy: 'api',
      identifier,
      limit: 2,
      remaining: 1,
      rules: [{ name: 'burst', algorithm: 'token_bucket', allowed: true, remaining: 1 }],
    });
    expect(result.headers).toEqual({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': expect.stringMatching(/^\d+$/),
      'RateLimit-Policy': '"burst";q=2;w=2000',
      RateLimit: expect.stringMatching(/^"burst";r=1;t=\d+$/),
    });
  });

  it('answers a denial as a result (not an error), with Retry-After', async () => {
    const client = clientFor(tenant.apiKey);
    const identifier = who();
    await client.check({ policy: 'api', identifier, cost: 2 });
    const denied = await client.check({ policy: 'api', identifier });

    expect(denied).toMatchObject({ allowed: false, reason: 'rule', deniedBy: 'burst' });
    expect(denied.retryAfterMs).toBeGreaterThan(0);
    expect(Number(denied.headers['Retry-After'])).toBe(Math.ceil(denied.retryAfterMs / 1000));
  });

  it('consumes nothing on a dry run; inspect() peeks and reset() (admin) starts afresh', async () => {
    const client = clientFor(tenant.apiKey);
    const admin = clientFor(await tenant.key({ scopes: ['check', 'admin'] }));
    const identifier = who();
    await client.check({ policy: 'bulk', identifier, cost: 10 });
    const dry = await client.check({ policy: 'bulk', identifier, cost: 50, dryRun: true });

    expect(dry).toMatchObject({ allowed: true, remaining: 40 });
    expect((await client.inspect('bulk', identifier)).remaining).toBe(90);
    await admin.reset('bulk', identifier);
    expect((await client.inspect('bulk', identifier)).remaining).toBe(100);
  });

  it('inspects identifiers that need URL encoding', async () => {
    const client = clientFor(tenant.apiKey);
    const identifier = `a/b ?#%-${who()}-zoë`;
    await client.check({ policy: 'bulk', identifier, cost: 3 });

    expect(await client.inspect('bulk', identifier)).toMatchObject({ identifier, remaining: 97 });
  });

  it('sends User-Agent with the application’s token first', async () => {
    const seen: string[] = [];
    const client = clientFor(tenant.apiKey, {
      userAgent: 'acme-api/2.1',
      fetch: (input, init) => {
        seen.push(new Headers(init?.headers).get('user-agent') ?? '');
        return fetch(input, init);
      },
    });
    await client.check({ policy: 'bulk', identifier: who() });

    expect(seen).toEqual(['acme-api/2.1 sluice-sdk-node/0.1.0']);
  });
});

describe('typed errors for 4xx answers', () => {
  it('401 AuthenticationError for an unknown key', async () => {
    const client = clientFor('sk_live_00000000000000000000000000000000');
    const error = await client.check({ policy: 'api', identifier: who() }).catch((e) => e);

    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      type: 'https://sluice.dev/problems/unauthorized',
      detail: expect.stringMatching(/not valid/),
      problem: { status: 401, instance: '/v1/check' },
    });
  });

  it('403 ForbiddenError for a policy the key may not use, and reset() without admin', async () => {
    const restricted = clientFor(await tenant.key({ policies: ['bulk'] }));
    const error = await restricted.check({ policy: 'api', identifier: who() }).catch((e) => e);
    const reset = await clientFor(tenant.apiKey)
      .reset('bulk', who())
      .catch((e) => e);

    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, type: 'https://sluice.dev/problems/forbidden' });
    expect(reset).toBeInstanceOf(ForbiddenError);
  });

  it('404 NotFoundError for an unknown policy', async () => {
    const error = await clientFor(tenant.apiKey)
      .check({ policy: 'nope', identifier: who() })
      .catch((e) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      type: 'https://sluice.dev/problems/policy-not-found',
    });
  });

  it('400 ValidationError with every rejected field', async () => {
    const error = await clientFor(tenant.apiKey)
      .check({ policy: 'api', identifier: 'x'.repeat(257), cost: -1 })
      .catch((e) => e);

    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(SluiceError);
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([
      { field: 'identifier', message: expect.any(String) },
      { field: 'cost', message: expect.any(String) },
    ]);
  });

  it('4xx errors are thrown whatever the fail mode: they are not outages', async () => {
    const client = clientFor('sk_live_00000000000000000000000000000000', { failMode: 'open' });

    await expect(client.check({ policy: 'api', identifier: who() })).rejects.toBeInstanceOf(
      AuthenticationError,
    );
  });
});

describe('enforce() (gateway mode)', () => {
  it('allowed: the result; denied: the data plane’s 429 problem with the headers', async () => {
    const client = clientFor(tenant.apiKey);
    const identifier = who();
    const first = await client.enforce({ policy: 'api', identifier, cost: 2 });
    const denied = await client.enforce({ policy: 'api', identifier });

    expect(first).toMatchObject({ allowed: true, result: { allowed: true, remaining: 0 } });
    expect(denied).toMatchObject({
      allowed: false,
      status: 429,
      problem: {
        type: 'https://sluice.dev/problems/rate-limited',
        status: 429,
        detail: expect.stringMatching(/^Rate limit of 2 requests per 2000 seconds exceeded/),
        'violated-policies': ['burst'],
      },
      headers: { 'X-RateLimit-Remaining': '0', 'Retry-After': expect.stringMatching(/^\d+$/) },
    });
  });

  it('a suspended tenant: the 403 tenant-suspended problem', async () => {
    const frozen = await seed.create([{ name: 'api', rules: [bucket('burst', 5)] }], {
      status: 'suspended',
    });
    const enforcement = await clientFor(frozen.apiKey).enforce({
      policy: 'api',
      identifier: who(),
    });

    expect(enforcement).toMatchObject({
      allowed: false,
      status: 403,
      problem: { type: 'https://sluice.dev/problems/tenant-suspended' },
    });
  });
});

describe('when the data plane cannot answer', () => {
  it('fails closed: UnavailableError (network) for a refused connection', async () => {
    const client = clientFor(tenant.apiKey, { baseUrl: await closedPortUrl(), failMode: 'closed' });
    const error = await client.check({ policy: 'api', identifier: who() }).catch((e) => e);

    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ reason: 'network', status: undefined });
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('fails open: an allowed client-fail-open result, and onError is told', async () => {
    const onError = vi.fn();
    const client = clientFor(tenant.apiKey, { baseUrl: await closedPortUrl(), onError });
    const request = { policy: 'api', identifier: who() };
    const results: CheckResult[] = [
      await client.check(request),
      ((await client.enforce(request)) as { result: CheckResult }).result,
    ];

    for (const result of results) {
      expect(result).toMatchObject({
        ...request,
        allowed: true,
        reason: 'client-fail-open',
        rules: [],
        headers: {},
      });
    }
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledWith(expect.any(UnavailableError), 'check');
  });

  it('times out after timeoutMs: UnavailableError (timeout), or fail-open', async () => {
    const server = await silentServer();
    try {
      const closed = clientFor(tenant.apiKey, {
        baseUrl: server.url,
        timeoutMs: 100,
        failMode: 'closed',
      });
      const open = clientFor(tenant.apiKey, { baseUrl: server.url, timeoutMs: 100 });
      const request = { policy: 'api', identifier: who() };

      await expect(closed.check(request)).rejects.toMatchObject({
        name: 'UnavailableError',
        reason: 'timeout',
        message: 'No answer from the data plane within 100 ms.',
      });
      await expect(open.check(request)).resolves.toMatchObject({ reason: 'client-fail-open' });
      // a per-request timeout wins over the client's
      await expect(
        clientFor(tenant.apiKey, { baseUrl: server.url, failMode: 'closed' }).check(request, {
          timeoutMs: 50,
        }),
      ).rejects.toMatchObject({ reason: 'timeout', message: /within 50 ms/ });
    } finally {
      await server.close();
    }
  });

  it('a caller’s abort is thrown as is, not answered by the fail mode', async () => {
    const server = await silentServer();
    try {
      const client = clientFor(tenant.apiKey, { baseUrl: server.url });
      const controller = new AbortController();
      const pending = client.check(
        { policy: 'api', identifier: who() },
        {
          signal: controller.signal,
        },
      );
      controller.abort(new Error('caller gave up'));

      await expect(pending).rejects.toThrow('caller gave up');
    } finally {
      await server.close();
    }
  });

  it('a 200 that is not the data plane’s (an HTML page from a proxy) is UnavailableError', async () => {
    const portal = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in to the Wi-Fi</html>');
    });
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = portal.address() as AddressInfo;
      const client = clientFor(tenant.apiKey, {
        baseUrl: `http://127.0.0.1:${port}`,
        failMode: 'closed',
      });

      await expect(client.check({ policy: 'api', identifier: who() })).rejects.toMatchObject({
        name: 'UnavailableError',
        reason: 'invalid-response',
        status: 200,
      });
    } finally {
      await new Promise((resolve) => portal.close(resolve));
    }
  });
});
