import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  type TestDatabase,
  type TestRedis,
} from '@sluice/testing';
import { readApiKey, readTenant } from '@sluice/policy';
import { RateLimitedError, SluiceClient } from '@sluice/sdk';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/net';
import { repoRoot } from '../src/paths';

/** The processes `pid` started, and theirs (Linux's /proc; none where it cannot be read). */
async function descendants(pid: number): Promise<number[]> {
  const children: number[] = [];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => []);
  for (const task of tasks) {
    const list = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    children.push(...list.split(/\s+/).filter(Boolean).map(Number));
  }
  const below = await Promise.all(children.map(descendants));
  return [...children, ...below.flat()];
}

// `npm start` end to end, minus the build (Nx builds the apps before this target runs): it must
// migrate and seed the database it is given, start all four apps and stop them on SIGINT.
describe('npm start', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let dataDir: string;
  let child: ChildProcess;
  let output = '';
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = createTestRedis('start');
    // a data folder that does not exist yet, as on a fresh checkout
    dataDir = join(await mkdtemp(join(tmpdir(), 'sluice-start-')), 'data');
    for (const name of [
      'CONTROL_PLANE_PORT',
      'DATA_PLANE_PORT',
      'WORKER_PORT',
      'DASHBOARD_PORT',
      'SLUICE_DEMO_RECEIVER_PORT',
    ]) {
      ports[name] = await freePort();
    }
    child = spawn(
      process.execPath,
      // as the root package.json's start script runs it: one process, so SIGINT reaches main.ts
      [
        '--conditions=@sluice/source',
        '--import',
        'tsx',
        join(repoRoot, 'tools/dev/src/main.ts'),
        'start',
        '--no-build',
      ],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          // the database it is given, even where the embedded server is forced for the run
          SLUICE_EMBEDDED_POSTGRES: undefined,
          DATABASE_URL: db.url,
          SLUICE_KEY_PREFIX: redis.prefix,
          SLUICE_DATA_DIR: dataDir,
          ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      'npm start to report the apps running',
      async () => {
        if (child.exitCode !== null) throw new Error(`start exited early:\n${output}`);
        return output.includes('press Ctrl-C to stop');
      },
      120_000,
      250,
    );
  }, 150_000);

  afterAll(async () => {
    // After a failed test the apps may outlive their supervisor: stop them by the PIDs it printed,
    // and by what it started (also when it failed before printing them, e.g. mid-start).
    const pids = [...output.matchAll(/\(pid (\d+)\)/g)].map(([, pid]) => Number(pid));
    if (child?.pid !== undefined && child.exitCode === null) {
      pids.push(...(await descendants(child.pid)));
      child.kill('SIGKILL');
    }
    for (const pid of new Set(pids)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await db?.drop();
    await redis?.cleanup();
    if (dataDir) await rm(dirname(dataDir), { recursive: true, force: true });
  });

  it('prints every app URL and each answers /healthz', async () => {
    const expected = {
      'control-plane': ports['CONTROL_PLANE_PORT'],
      'data-plane': ports['DATA_PLANE_PORT'],
      worker: ports['WORKER_PORT'],
      dashboard: ports['DASHBOARD_PORT'],
    };
    for (const [service, port] of Object.entries(expected)) {
      const url = `http://127.0.0.1:${port}`;
      expect(output).toContain(url);
      const response = await fetch(`${url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok', service });
    }
  });

  it('migrated and seeded the database it was given', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ slug: string; plan: string }>(
        'select t.slug, p.slug as plan from "Tenant" t join "Plan" p on p.id = t."planId"',
      );
      expect(rows).toEqual([{ slug: 'demo', plan: 'free' }]);
    } finally {
      await client.end();
    }
  });

  it('published the demo tenant and its key to Redis and printed the key', async () => {
    const apiKey = (await readFile(join(dataDir, 'demo-api-key'), 'utf8')).trim();
    expect(output).toContain(`demo API key: ${apiKey}`);
    const record = await readApiKey(redis.redis, redis.prefix, apiKey);
    expect(record).toMatchObject({ policies: ['api', 'llm-tokens'], scopes: ['check'] });
    const tenant = await readTenant(redis.redis, redis.prefix, record!.tenantId);
    expect(tenant?.slug).toBe('demo');
    expect(Object.keys(tenant?.policies ?? {})).toEqual(['api', 'llm-tokens']);
  });

  it("answers the README's curl: five allowed, then a denial with headers", async () => {
    const apiKey = (await readFile(join(dataDir, 'demo-api-key'), 'utf8')).trim();
    // The burst refills 1 token a second: a stall of a second between two curls lets one more
    // through. So curl until the first denial, and allow one more pass (and one more remaining)
    // per whole second the curls took: none on an idle machine, where this is exactly five
    // allowed (4, 3, 2, 1, 0 remaining) then a denial.
    const answers = [];
    const startedAt = Date.now();
    while (answers.length < 50 && answers.at(-1)?.allowed !== false) {
      const response = await fetch(`http://127.0.0.1:${ports['DATA_PLANE_PORT']}/v1/check`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ policy: 'api', identifier: 'user-1' }),
      });
      const body = (await response.json()) as { allowed: boolean; deniedBy?: string };
      answers.push({
        status: response.status,
        allowed: body.allowed,
        deniedBy: body.deniedBy,
        remaining: response.headers.get('x-ratelimit-remaining'),
        retryAfter: response.headers.get('retry-after'),
      });
    }
    const refilled = Math.floor((Date.now() - startedAt) / 1000);
    const allowed = answers.slice(0, -1);
    expect(answers.at(-1)).toEqual({
      status: 200,
      allowed: false,
      deniedBy: 'burst',
      remaining: '0',
      retryAfter: '1',
    });
    expect(allowed.length).toBeGreaterThanOrEqual(5);
    expect(allowed.length).toBeLessThanOrEqual(5 + refilled);
    allowed.forEach((answer, i) => {
      expect(answer).toEqual({
        status: 200,
        allowed: true,
        deniedBy: undefined,
        remaining: expect.any(String),
        retryAfter: null,
      });
      // the i-th curl takes a token of the 5, and at most `refilled` came back meanwhile
      const remaining = Number(answer.remaining);
      expect(remaining).toBeGreaterThanOrEqual(Math.max(0, 4 - i));
      expect(remaining).toBeLessThanOrEqual(4 - i + refilled);
    });
  });

  it("guards LLM calls with the README's SDK snippet: tokens settled at usage, 2 in flight", async () => {
    const failures: unknown[] = [];
    const sluice = new SluiceClient({
      baseUrl: `http://127.0.0.1:${ports['DATA_PLANE_PORT']}`,
      apiKey: (await readFile(join(dataDir, 'demo-api-key'), 'utf8')).trim(),
      // limit() never throws for a failed settle or release: collect them instead
      onError: (error) => failures.push(error),
    });
    const tokens = async () =>
      (await sluice.inspect('llm-tokens', 'user-7')).rules.find((rule) => rule.name === 'tokens')!
        .remaining;
    const full = await tokens();
    const startedAt = Date.now();

    // a fake LLM call that used 420 tokens of the 1,000 reserved
    let reservationId: string | undefined;
    const reply = await sluice.limit(
      async (check) => {
        reservationId = check.reservationId;
        return { usage: { total_tokens: 420 } };
      },
      {
        policy: 'llm-tokens',
        identifier: 'user-7',
        estimate: 1000,
        cost: (r) => r.usage.total_tokens,
      },
    );
    expect(reply.usage.total_tokens).toBe(420);
    expect(failures).toEqual([]);
    // settled at 420, whatever the clock did: a second settle changes nothing and answers the
    // first one's actual cost
    expect(reservationId).toEqual(expect.any(String));
    await expect(
      sluice.settle({ reservationId: reservationId!, actualCost: 1 }),
    ).resolves.toMatchObject({ alreadySettled: true, estimate: 1000, actualCost: 420 });
    // and the bucket shows it: 420 used, less what refilled meanwhile (20,000 a minute, at most 1
    // token per 3 ms; a stall only widens this lower bound, never fails it)
    const used = full - (await tokens());
    const refilled = Math.ceil(((Date.now() - startedAt) * 20_000) / 60_000);
    expect(used).toBeLessThanOrEqual(420);
    expect(used).toBeGreaterThanOrEqual(420 - refilled);

    // a third call while two are in flight is refused before it runs
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const options = { policy: 'llm-tokens', identifier: 'user-8', estimate: 10, cost: () => 10 };
    // each signals once it holds its slot: the third is made only then, whatever the machine's speed
    let started = 0;
    let bothStarted!: () => void;
    const inFlight = new Promise<void>((resolve) => (bothStarted = resolve));
    const holding = async () => {
      if (++started === 2) bothStarted();
      await hold;
    };
    const running = [sluice.limit(holding, options), sluice.limit(holding, options)];
    try {
      // (either refused would end this wait at once, rather than leave it hanging)
      await Promise.race([inFlight, Promise.all(running)]);
      let ran = false;
      const third = sluice.limit(async () => {
        ran = true;
      }, options);
      await expect(third).rejects.toBeInstanceOf(RateLimitedError);
      expect(ran).toBe(false);
    } finally {
      release();
      await Promise.all(running);
    }
    // both slots were released: a call goes through again
    await expect(sluice.limit(async () => 'ok', options)).resolves.toBe('ok');
    expect(failures).toEqual([]);
  });

  it.each([
    ['operator', 'operator@demo.sluice.local', 'demo-operator-password', 'OPERATOR'],
    ['tenant admin', 'admin@demo.sluice.local', 'demo-admin-password', 'TENANT_ADMIN'],
  ])(
    'created the demo %s it printed, who can sign in through the dashboard',
    async (what, email, file, role) => {
      const password = (await readFile(join(dataDir, file), 'utf8')).trim();
      expect(output).toContain(`demo ${what}: ${email} / ${password}`);
      expect(output).toContain(
        `sign in to the dashboard at http://127.0.0.1:${ports['DASHBOARD_PORT']} with either`,
      );
      // through the dashboard's origin, as the browser does
      const response = await fetch(`http://127.0.0.1:${ports['DASHBOARD_PORT']}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation ($input: LoginInput!) { login(input: $input) { token user { email memberships { role } } } }`,
          variables: { input: { email, password, transport: 'BEARER' } },
        }),
      });
      const body = (await response.json()) as {
        data?: {
          login: { token: string; user: { email: string; memberships: { role: string }[] } };
        };
      };
      expect(body.data?.login.user).toEqual({ email, memberships: [{ role }] });
      expect(body.data?.login.token).toEqual(expect.any(String));
    },
  );

  it("changes a limit with the README's GraphQL mutation; /v1/check feels it within 2 s", async () => {
    const password = (await readFile(join(dataDir, 'demo-operator-password'), 'utf8')).trim();
    const graphql = async (query: string, variables: object, token?: string) => {
      const response = await fetch(`http://127.0.0.1:${ports['CONTROL_PLANE_PORT']}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token && { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
    };
    const login = await graphql('mutation ($i: LoginInput!) { login(input: $i) { token } }', {
      i: { email: 'operator@demo.sluice.local', password, transport: 'BEARER' },
    });
    const token = (login.data?.['login'] as { token: string }).token;
    const tenantId = /demo tenant: demo \(id (\S+)\)/.exec(output)?.[1];
    expect(tenantId).toBeDefined();
    const changed = await graphql(
      'mutation ($t: ID!) { changePlanPolicy(input: { tenantId: $t, policy: "api", rules: [{ name: "burst", capacity: 10 }] }) { version } }',
      { t: tenantId },
      token,
    );
    expect(changed.errors).toBeUndefined();
    const apiKey = (await readFile(join(dataDir, 'demo-api-key'), 'utf8')).trim();
    const limit = async () => {
      const response = await fetch(`http://127.0.0.1:${ports['DATA_PLANE_PORT']}/v1/check`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ policy: 'api', identifier: 'user-2', cost: 0 }),
      });
      const body = (await response.json()) as { rules: { name: string; limit: number }[] };
      return body.rules.find((rule) => rule.name === 'burst')?.limit;
    };
    // the goal is 2 s: the deadline leaves a loaded machine 5 times that
    await expect.poll(limit, { timeout: 10_000, interval: 100 }).toBe(10);
  });

  it("delivers an event to the demo endpoint's receiver, signed, through the dispatcher", async () => {
    const apiKey = (await readFile(join(dataDir, 'demo-api-key'), 'utf8')).trim();
    const response = await fetch(`http://127.0.0.1:${ports['DATA_PLANE_PORT']}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: 'demo-receiver', type: 'demo.ping', payload: { n: 1 } }),
    });
    expect(response.status).toBe(202);
    const { eventId } = (await response.json()) as { eventId: string };
    const logFile = join(dataDir, 'logs/demo-receiver.log');
    await waitFor(
      `event ${eventId} at the demo receiver`,
      async () => (await readFile(logFile, 'utf8').catch(() => '')).includes(eventId),
      // delivered at once (a retry 2 s later at worst): far beyond 5 times that
      30_000,
      200,
    );
    const line = (await readFile(logFile, 'utf8'))
      .split('\n')
      .find((entry) => entry.includes(eventId));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ eventId, signature: 'valid' });
  });

  it('runs the demo traffic: steady and abusive checks, LLM calls settled, webhooks delivered and failing', async () => {
    expect(output).toContain('demo traffic: on');
    const dataPlane = `http://127.0.0.1:${ports['DATA_PLANE_PORT']}`;
    const metric = async (series: string) => {
      const text = await (await fetch(`${dataPlane}/metrics`)).text();
      const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
      return Number(line?.slice(series.length + 1) ?? 0);
    };
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const failedDeliveries = async () => {
        const { rows } = await client.query<{ count: string }>(
          `select count(*) from "WebhookDelivery" d join "WebhookEndpoint" e on e.id = d."endpointId"
           where e.name = 'demo-failing' and d.status in ('failed', 'dead')`,
        );
        return Number(rows[0]?.count ?? 0);
      };
      // a check every 200 ms, an abusive one every 100 ms, an LLM call every 700 ms, a failing
      // event every 5 s: all there within seconds; the deadline is far beyond 5 times that
      await waitFor(
        'the demo traffic in the data plane and the worker',
        async () =>
          (await metric('sluice_decisions_total{outcome="allowed",reason="allowed"}')) > 0 &&
          (await metric('sluice_decisions_total{outcome="denied",reason="rule"}')) > 0 &&
          (await metric('sluice_settles_total{outcome="settled"}')) > 0 &&
          (await failedDeliveries()) > 0,
        60_000,
        500,
      );
      const log = await readFile(join(dataDir, 'logs/demo-receiver.log'), 'utf8');
      expect(log).toContain('"demo.order_created');
    } finally {
      await client.end();
    }
  }, 90_000);

  it('stops every app on SIGINT and exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    for (const port of Object.values(ports)) {
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    }
  }, 30_000);
});
