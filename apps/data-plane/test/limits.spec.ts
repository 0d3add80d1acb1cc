import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bearer,
  bucket,
  check,
  daily,
  policy,
  publish,
  request,
  startApp,
  type TestApp,
} from './support';

let app: TestApp;
let secret: string;
let admin: string;

beforeAll(async () => {
  app = await startApp();
  await publish(app.t, 'tnt_a', [
    policy('api', { rules: [bucket('burst', 3), daily(10)], candidateRules: [bucket('next', 1)] }),
  ]);
  secret = await apiKey(app.t, 'tnt_a');
  admin = await apiKey(app.t, 'tnt_a', { scopes: ['admin'] });
});
afterAll(async () => {
  await app.close();
});

const path = (identifier: string) => `/v1/limits/api/${encodeURIComponent(identifier)}`;
const inspect = (identifier: string, key = secret) =>
  request(app.url, path(identifier), { headers: bearer(key) });
const reset = (identifier: string, key = admin) =>
  request(app.url, path(identifier), { method: 'DELETE', headers: bearer(key) });

describe('GET /v1/limits/{policy}/{identifier}', () => {
  it("shows every rule's state, candidates too, and consumes nothing", async () => {
    const identifier = 'inspect/me: ü';
    await check(app.url, secret, { policy: 'api', identifier, cost: 2 });
    const first = await inspect(identifier);
    const second = await inspect(identifier);

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      allowed: true,
      identifier,
      rules: [
        { name: 'burst', remaining: 1 },
        { name: 'daily', remaining: 8 },
      ],
      // the candidate (capacity 1) refused the cost of 2, so it consumed nothing either
      candidates: [{ name: 'next', remaining: 1 }],
    });
    expect(second.body).toMatchObject({ rules: [{ remaining: 1 }, { remaining: 8 }] });
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
  });
});

describe('DELETE /v1/limits/{policy}/{identifier}', () => {
  it('resets the identifier with an admin key: 204, and it starts afresh', async () => {
    const identifier = 'reset-me';
    for (let i = 0; i < 3; i += 1) await check(app.url, secret, { policy: 'api', identifier });
    expect((await check(app.url, secret, { policy: 'api', identifier })).body).toMatchObject({
      allowed: false,
    });

    const answer = await reset(identifier);

    expect(answer.status).toBe(204);
    expect(answer.body).toBe('');
    expect((await inspect(identifier)).body).toMatchObject({
      rules: [{ remaining: 3 }, { remaining: 10 }],
    });
    expect((await check(app.url, secret, { policy: 'api', identifier })).body).toMatchObject({
      allowed: true,
    });
  });

  it('is refused without the admin scope (403), leaving the state alone', async () => {
    const identifier = 'keep-me';
    await check(app.url, secret, { policy: 'api', identifier });
    const answer = await reset(identifier, secret);

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ type: 'https://sluice.dev/problems/forbidden' });
    expect((await inspect(identifier)).body).toMatchObject({ rules: [{ remaining: 2 }, {}] });
  });

  it('only touches that identifier', async () => {
    await check(app.url, secret, { policy: 'api', identifier: 'neighbour' });
    await reset('someone-else');

    expect((await inspect('neighbour')).body).toMatchObject({ rules: [{ remaining: 2 }, {}] });
  });
});
