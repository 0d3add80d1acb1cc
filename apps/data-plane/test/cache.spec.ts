import {
  apiKeyKey,
  compileTenant,
  deleteTenant,
  hashApiKey,
  revokeApiKey,
  tenantKey,
  type PolicyInput,
} from '@sluice/policy';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiKey,
  bucket,
  check,
  policy,
  publish,
  startApp,
  until,
  type Answer,
  type TestApp,
} from './support';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const api = (capacity: number): PolicyInput =>
  policy('api', { id: 'pol_api', rules: [bucket('burst', capacity)] });

async function limitOf(url: string, secret: string): Promise<number | undefined> {
  const answer = await check(url, secret, { policy: 'api', identifier: 'u', cost: 0 });
  return (answer.body as { limit?: number }).limit;
}

/** Runs `attempt` until it holds, failing when it still does not after `ms`. */
async function within(ms: number, attempt: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  await until(async () => (await attempt()) || Date.now() > deadline);
  expect(await attempt()).toBe(true);
}

const status = (answer: Answer) => answer.status;

describe('policy cache', () => {
  it('picks up a published version from its change message', async () => {
    // the version re-check is far off: only the message can bring the change
    app = await startApp({ DATA_PLANE_TENANT_RECHECK_MS: '600000' });
    await publish(app.t, 'tnt_a', [api(5)]);
    const secret = await apiKey(app.t, 'tnt_a');
    expect(await limitOf(app.url, secret)).toBe(5);

    await publish(app.t, 'tnt_a', [api(7)]);

    await until(async () => (await limitOf(app!.url, secret)) === 7);
  });

  it('notices a version stored without a message at the version re-check', async () => {
    app = await startApp({ DATA_PLANE_TENANT_RECHECK_MS: '200' });
    const t = app.t;
    await publish(t, 'tnt_a', [api(5)]);
    const secret = await apiKey(t, 'tnt_a');
    expect(await limitOf(app.url, secret)).toBe(5);

    // what a publish stores, without its PUBLISH: a lost message
    const { version: _next, ...config } = compileTenant({
      tenantId: 'tnt_a',
      slug: 'acme',
      status: 'active',
      policies: [api(9)],
    });
    await t.redis.hset(tenantKey(t.prefix, 'tnt_a'), {
      version: '2',
      publishedAt: String(Date.now()),
      config: JSON.stringify(config),
    });

    await until(async () => (await limitOf(app!.url, secret)) === 9);
  });

  it('forgets a deleted tenant: its policies are 404', async () => {
    app = await startApp();
    await publish(app.t, 'tnt_a', [api(5)]);
    const secret = await apiKey(app.t, 'tnt_a');
    expect(await limitOf(app.url, secret)).toBe(5);

    await deleteTenant(app.t.redis, app.t.prefix, 'tnt_a');

    await until(
      async () => status(await check(app!.url, secret, { policy: 'api', identifier: 'u' })) === 404,
    );
  });
});

describe('API key revocation', () => {
  it('lands at once with its change message', async () => {
    app = await startApp({ DATA_PLANE_KEY_RECHECK_MS: '60000' });
    await publish(app.t, 'tnt_a', [api(5)]);
    const secret = await apiKey(app.t, 'tnt_a');
    expect(status(await check(app.url, secret, { policy: 'api', identifier: 'u' }))).toBe(200);

    await revokeApiKey(app.t.redis, app.t.prefix, secret);

    await until(
      async () => status(await check(app!.url, secret, { policy: 'api', identifier: 'u' })) === 401,
    );
  });

  it('lands within 2 s with the default settings even when its message is lost', async () => {
    app = await startApp();
    await publish(app.t, 'tnt_a', [api(5)]);
    const secret = await apiKey(app.t, 'tnt_a');
    expect(status(await check(app.url, secret, { policy: 'api', identifier: 'u' }))).toBe(200);

    // the record deleted without the change message a revocation sends
    await app.t.redis.del(apiKeyKey(app.t.prefix, hashApiKey(secret)));

    // the promise is 2 s (a key re-check every second); 5x that on a loaded machine, and still
    // far short of anything else that would drop the key (an idle entry goes after 5 minutes)
    await within(
      10_000,
      async () => status(await check(app!.url, secret, { policy: 'api', identifier: 'u' })) === 401,
    );
  });
});
