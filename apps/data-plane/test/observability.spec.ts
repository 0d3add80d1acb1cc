import { revokeApiKey } from '@sluice/policy';
import { readSeconds } from '@sluice/usage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import {
  apiKey,
  bucket,
  check,
  policy,
  publish,
  request,
  startApp,
  until,
  type TestApp,
} from './support';

let app: TestApp;
let secret: string;

beforeAll(async () => {
  app = await startApp({ DATA_PLANE_USAGE_FLUSH_MS: '100' });
  await publish(app.t, 'tnt_a', [policy('api', { rules: [bucket('burst', 1)] })]);
  secret = await apiKey(app.t, 'tnt_a');
});
afterAll(async () => {
  await app.close();
});

describe('probes', () => {
  it('answers GET /healthz with its name and version', async () => {
    const answer = await request(app.url, '/healthz');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'ok',
      service: 'data-plane',
      version: packageJson.version,
    });
  });

  it('is ready while Redis answers PING', async () => {
    const answer = await request(app.url, '/readyz');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok', checks: { redis: 'ok' } });
  });
});

describe('usage and metrics', () => {
  it('counts decisions by outcome and reason, times them, and exposes the usage recorder', async () => {
    const startedAt = Math.floor(Date.now() / 1000);
    await check(app.url, secret, { policy: 'api', identifier: 'm' });
    await check(app.url, secret, { policy: 'api', identifier: 'm' });
    await check(app.url, secret, { policy: 'api', identifier: 'm' });

    // the recorder flushed the checks to Redis, off the hot path (maybe over several flushes):
    // nothing is left in memory, and the flush that wrote the last of it has ended
    await until(async () => {
      const text = (await request(app.url, '/metrics')).body as string;
      return /^sluice_usage_pending_entries 0$/m.test(text);
    });
    const rows = await readSeconds(
      app.t.redis,
      app.t.prefix,
      'tnt_a',
      'api',
      startedAt,
      Math.floor(Date.now() / 1000),
    );
    expect({
      allowed: rows.reduce((sum, row) => sum + row.allowed, 0),
      denied: rows.reduce((sum, row) => sum + (row.deniedByReason['rule'] ?? 0), 0),
    }).toEqual({ allowed: 1, denied: 2 });

    const answer = await request(app.url, '/metrics');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/plain/);
    const text = answer.body as string;
    expect(text).toMatch(/^sluice_decisions_total\{outcome="allowed",reason="allowed"\} 1$/m);
    expect(text).toMatch(/^sluice_decisions_total\{outcome="denied",reason="rule"\} 2$/m);
    expect(text).toMatch(/^sluice_check_duration_seconds_count\{stage="engine"\} 3$/m);
    expect(text).toMatch(/^sluice_check_duration_seconds_count\{stage="total"\} 3$/m);
    expect(text).toMatch(
      /^sluice_check_duration_seconds_bucket\{le="0\.001",stage="total"\} \d+$/m,
    );
    expect(text).toMatch(/^sluice_usage_events_recorded_total 3$/m);
    expect(text).toMatch(/^sluice_usage_flushes_total [1-9]\d*$/m);
    expect(text).toMatch(/^sluice_usage_pending_entries \d+$/m);
    expect(text).toMatch(/^sluice_usage_dropped_total\{cause="over_cap"\} 0$/m);
    // a token bucket has no quota window: nothing to alert on
    expect(text).toMatch(/^sluice_quota_alerts_total\{stage="detected"\} 0$/m);
    expect(text).toMatch(/^sluice_quota_alerts_waiting 0$/m);
    expect(text).toMatch(/^sluice_redis_circuits_open 0$/m);
    expect(text).toMatch(/^sluice_redis_circuit_openings_total 0$/m);
    expect(text).toMatch(/^sluice_redis_errors_total\{source="engine"\} 0$/m);
    // Node's default metrics are there too
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });
});

describe('policy cache metrics', () => {
  it('exports lookups, loads, invalidations by cause and entries per cache', async () => {
    const own = await startApp({ DATA_PLANE_KEY_RECHECK_MS: '60000' });
    try {
      await publish(own.t, 'tnt_c', [policy('api')]);
      const key = await apiKey(own.t, 'tnt_c');
      for (let i = 0; i < 3; i += 1) await check(own.url, key, { policy: 'api', identifier: 'c' });
      let text = '';
      const value = (series: string) => {
        const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
        return line === undefined ? undefined : Number(line.slice(series.length + 1));
      };
      await revokeApiKey(own.t.redis, own.t.prefix, key);
      // the message has dropped the key before the next check (which would otherwise still pass
      // and look the tenant up once more)
      await until(async () => {
        text = (await request(own.url, '/metrics')).body as string;
        return value('sluice_cache_invalidations_total{cache="key",cause="message"}') === 1;
      });
      expect((await check(own.url, key, { policy: 'api', identifier: 'c' })).status).toBe(401);

      text = (await request(own.url, '/metrics')).body as string;
      // the tenant: read once, then answered from memory
      expect(value('sluice_cache_lookups_total{cache="tenant",result="miss"}')).toBe(1);
      expect(value('sluice_cache_lookups_total{cache="tenant",result="hit"}')).toBe(2);
      expect(value('sluice_cache_loads_total{cache="tenant"}')).toBe(1);
      expect(value('sluice_cache_entries{cache="tenant"}')).toBe(1);
      // the key: read, hit twice, dropped by its revocation message, read again (now unknown)
      expect(value('sluice_cache_lookups_total{cache="key",result="hit"}')).toBeGreaterThanOrEqual(
        2,
      );
      expect(value('sluice_cache_loads_total{cache="key"}')).toBeGreaterThanOrEqual(2);
      expect(value('sluice_cache_invalidations_total{cache="key",cause="message"}')).toBe(1);
      expect(value('sluice_cache_invalidations_total{cache="key",cause="recheck"}')).toBe(0);
      expect(value('sluice_cache_invalidations_total{cache="tenant",cause="message"}')).toBe(0);
    } finally {
      await own.close();
    }
  });
});

describe('circuit metrics', () => {
  it('counts the policies whose circuit is open, while the others keep deciding in Redis', async () => {
    const own = await startApp({
      DATA_PLANE_BREAKER_FAILURES: '2',
      DATA_PLANE_BREAKER_OPEN_MS: '60000',
    });
    try {
      const closed = { failMode: 'closed' as const };
      await publish(own.t, 'tnt_m', [
        policy('broken', { id: 'pol_broken', ...closed }),
        policy('healthy', { id: 'pol_healthy', ...closed }),
      ]);
      const key = await apiKey(own.t, 'tnt_m');
      const status = async (name: string) =>
        (await check(own.url, key, { policy: name, identifier: 'u' })).status;
      expect(await status('broken')).toBe(200);
      // a string where the token bucket keeps a hash: the policy's Lua call fails (WRONGTYPE)
      for await (const keys of own.t.redis.scanStream({
        match: `${own.t.prefix}*tnt_m.pol_broken*`,
      })) {
        for (const stored of keys as string[]) await own.t.redis.set(stored, 'not a bucket');
      }
      expect([await status('broken'), await status('broken')]).toEqual([503, 503]);
      expect(await status('healthy')).toBe(200);

      const text = (await request(own.url, '/metrics')).body as string;
      expect(text).toMatch(/^sluice_redis_circuits_open 1$/m);
      expect(text).toMatch(/^sluice_redis_circuit_openings_total 1$/m);
      expect(text).toMatch(/^sluice_redis_errors_total\{source="engine"\} 2$/m);
    } finally {
      await own.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('writes the usage still in memory when the app closes', async () => {
    // no timer-driven flush during the test: only the shutdown's final flush can write
    const own = await startApp({ DATA_PLANE_USAGE_FLUSH_MS: '60000' });
    await publish(own.t, 'tnt_s', [policy('api')]);
    const key = await apiKey(own.t, 'tnt_s');
    const startedAt = Math.floor(Date.now() / 1000);
    await check(own.url, key, { policy: 'api', identifier: 'x' });
    await check(own.url, key, { policy: 'api', identifier: 'y' });

    await own.app.close();

    const rows = await readSeconds(
      own.t.redis,
      own.t.prefix,
      'tnt_s',
      'api',
      startedAt,
      Math.floor(Date.now() / 1000),
    );
    await own.t.cleanup();
    expect(rows.reduce((sum, row) => sum + row.allowed, 0)).toBe(2);
  });
});

describe('GET /docs/openapi.json', () => {
  interface Document {
    openapi: string;
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    components: { schemas: Record<string, Record<string, unknown>> };
  }

  it('is OpenAPI 3.1 JSON describing every route, with every $ref resolving', async () => {
    const answer = await request(app.url, '/docs/openapi.json');
    expect(answer.status).toBe(200);
    const document = answer.body as Document;

    expect(document.openapi).toBe('3.1.0');
    expect(
      Object.entries(document.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => key !== 'parameters')
          .map((method) => `${method.toUpperCase()} ${path}`),
      ),
    ).toEqual([
      'POST /v1/check',
      'POST /v1/settle',
      'POST /v1/release',
      'POST /v1/webhooks',
      'GET /v1/authorize',
      'GET /v1/limits/{policy}/{identifier}',
      'DELETE /v1/limits/{policy}/{identifier}',
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
      'GET /docs/openapi.json',
    ]);
    for (const item of Object.values(document.paths)) {
      for (const [key, operation] of Object.entries(item)) {
        if (key !== 'parameters') expect(Object.keys(operation.responses ?? {})).not.toEqual([]);
      }
    }
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const name = /#\/components\/schemas\/([^"]+)"/.exec(ref)?.[1];
      expect(name && document.components.schemas[name], ref).toBeTruthy();
    }
  });

  it('describes the check body and result from the schemas the routes use', async () => {
    const document = (await request(app.url, '/docs/openapi.json')).body as Document;
    const { CheckRequest, CheckResult, Problem } = document.components.schemas;

    expect(CheckRequest).toMatchObject({
      type: 'object',
      required: ['policy', 'identifier'],
      additionalProperties: false,
      properties: { cost: { type: 'integer', minimum: 0, maximum: 1_000_000_000 } },
    });
    expect(CheckResult).toMatchObject({
      properties: { reason: { enum: expect.arrayContaining(['allowed', 'rule', 'fail-closed']) } },
    });
    expect((Problem as { properties: { type: { enum: string[] } } }).properties.type.enum).toEqual(
      expect.arrayContaining([
        'https://sluice.dev/problems/rate-limited',
        'https://sluice.dev/problems/temporary-reduced-capacity',
        'https://sluice.dev/problems/tenant-suspended',
        'https://sluice.dev/problems/invalid-request',
        'https://sluice.dev/problems/unauthorized',
        'https://sluice.dev/problems/forbidden',
        'https://sluice.dev/problems/policy-not-found',
        'https://sluice.dev/problems/reservation-not-found',
        'https://sluice.dev/problems/lease-not-found',
        'https://sluice.dev/problems/reservations-disabled',
        'about:blank',
      ]),
    );
  });

  it('describes settle and release, and the ids and concurrency rules a check answers with', async () => {
    const document = (await request(app.url, '/docs/openapi.json')).body as Document;
    const { SettleRequest, ReleaseRequest, SettleResult, CheckResult, RuleResult } =
      document.components.schemas;

    expect(SettleRequest).toMatchObject({
      required: ['reservationId', 'actualCost'],
      additionalProperties: false,
      properties: { actualCost: { type: 'integer', minimum: 0, maximum: 1_000_000_000 } },
    });
    expect(ReleaseRequest).toMatchObject({ required: ['leaseId'], additionalProperties: false });
    expect(SettleResult).toMatchObject({
      required: expect.arrayContaining(['alreadySettled', 'estimate', 'actualCost', 'rules']),
    });
    expect(Object.keys(CheckResult!['properties'] as object)).toEqual(
      expect.arrayContaining([
        'reservationId',
        'reservationExpiresAt',
        'leaseId',
        'leaseExpiresAt',
      ]),
    );
    expect(RuleResult).toMatchObject({
      properties: { algorithm: { enum: expect.arrayContaining(['gcra', 'concurrency']) } },
    });
    expect(Object.keys(document.paths['/v1/settle']!['post']!.responses!)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '503']),
    );
  });
});
