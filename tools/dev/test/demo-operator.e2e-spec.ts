import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTestDatabase,
  createTestRedis,
  freePort,
  type TestDatabase,
  type TestRedis,
} from '@sluice/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApps, type AppGroup } from '../src/apps';
import { seedDemoOperator } from '../src/seed';

// `npm start` seeds the demo operator and prints its password: that password must log in to the
// real control plane on every start, whatever created the operator before.
describe('the demo operator', () => {
  let db: TestDatabase;
  let redis: TestRedis;
  let scratch: string;
  let controlPlane: AppGroup;
  let graphqlUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    redis = createTestRedis('demo-operator');
    scratch = await mkdtemp(join(tmpdir(), 'sluice-demo-operator-'));
    const port = await freePort();
    controlPlane = await startApps({
      env: {
        PATH: process.env['PATH'],
        DATABASE_URL: db.url,
        REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
        SLUICE_KEY_PREFIX: redis.prefix,
        LOG_LEVEL: 'warn',
      },
      ports: { 'control-plane': port },
      logDir: join(scratch, 'logs'),
    });
    graphqlUrl = `http://127.0.0.1:${port}/graphql`;
  }, 90_000);

  afterAll(async () => {
    await controlPlane?.stop();
    await db?.drop();
    await redis?.cleanup();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** What `npm start` does with a checkout whose data folder is `dataDir`. */
  async function start(dataDir: string) {
    await mkdir(join(scratch, dataDir), { recursive: true });
    return seedDemoOperator({
      env: { PATH: process.env['PATH'] },
      databaseUrl: db.url,
      passwordFile: join(scratch, dataDir, 'demo-operator-password'),
    });
  }

  async function graphql(query: string, variables: object, token?: string) {
    const response = await fetch(graphqlUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data?: Record<string, unknown> | null; errors?: unknown };
  }

  /** The session token, or the errors when the control plane refuses the login. */
  async function login(email: string, password: string): Promise<string> {
    const answer = await graphql('mutation ($i: LoginInput!) { login(input: $i) { token } }', {
      i: { email, password, transport: 'BEARER' },
    });
    const token = (answer.data?.['login'] as { token?: string } | undefined)?.token;
    if (!token) throw new Error(`login refused: ${JSON.stringify(answer.errors)}`);
    return token;
  }

  async function signedIn(token: string): Promise<string | undefined> {
    const answer = await graphql('{ me { email } }', {}, token);
    return (answer.data?.['me'] as { email: string } | undefined)?.email;
  }

  it('logs in with the printed password after another checkout, or a removed .data/, made it', async () => {
    const first = await start('first-checkout');
    const firstToken = await login(first.email, first.password);

    // a second checkout on the same server, or this one after `rm -rf .data`: a new password file
    const second = await start('second-checkout');
    expect(second.email).toBe(first.email);
    expect(second.password).not.toBe(first.password);
    await expect(login(second.email, second.password)).resolves.toEqual(expect.any(String));
    await expect(login(first.email, first.password)).rejects.toThrow(/login refused/);
    // as after any password change, the old password's sessions ended
    expect(await signedIn(firstToken)).toBeUndefined();
  });

  it('keeps the operator and its sessions when the password is already the printed one', async () => {
    const before = await start('restarted-checkout');
    const token = await login(before.email, before.password);
    const after = await start('restarted-checkout');
    expect(after.password).toBe(before.password);
    expect(await signedIn(token)).toBe(before.email);
  });
});
