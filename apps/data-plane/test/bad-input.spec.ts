import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bearer,
  bucket,
  check,
  expectInvalid,
  expectProblem,
  policy,
  PROBLEM,
  publish,
  request,
  startApp,
  type TestApp,
} from './support';

let app: TestApp;
let secret: string;

beforeAll(async () => {
  app = await startApp();
  await publish(app.t, 'tnt_a', [
    policy('api', { rules: [bucket('burst', 1000)] }),
    policy('other'),
  ]);
  await publish(app.t, 'tnt_b', [policy('theirs')]);
  secret = await apiKey(app.t, 'tnt_a');
});
afterAll(async () => {
  await app.close();
});

const valid = { policy: 'api', identifier: 'u' };

describe('authentication and authorization', () => {
  it('401 without a key, with a Bearer challenge', async () => {
    const answer = await check(app.url, undefined, valid);

    expectProblem(answer, 401, `${PROBLEM}unauthorized`);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="sluice"');
  });

  it('401 for another scheme and for an unknown key, naming invalid_token', async () => {
    const basic = await check(app.url, undefined, valid, {
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    const unknown = await check(app.url, 'sk_live_00000000000000000000000000000000', valid);

    expectProblem(basic, 401, `${PROBLEM}unauthorized`);
    expectProblem(unknown, 401, `${PROBLEM}unauthorized`);
    expect(unknown.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="sluice", error="invalid_token", error_description="[^"]+"$/,
    );
  });

  it('authenticates before validating fields: a bad field without a key is 401', async () => {
    expectProblem(
      await check(app.url, undefined, { policy: 'api', identifier: '' }),
      401,
      `${PROBLEM}unauthorized`,
    );
  });

  it('403 for a policy the key may not use', async () => {
    const narrow = await apiKey(app.t, 'tnt_a', { policies: ['other'] });

    expectProblem(await check(app.url, narrow, valid), 403, `${PROBLEM}forbidden`);
    expect((await check(app.url, narrow, { ...valid, policy: 'other' })).status).toBe(200);
  });

  it("404 for an unknown policy, another tenant's included, and an impossible name", async () => {
    for (const name of ['nope', 'theirs', 'API']) {
      expectProblem(
        await check(app.url, secret, { ...valid, policy: name }),
        404,
        `${PROBLEM}policy-not-found`,
      );
    }
  });
});

describe('POST /v1/check body', () => {
  it.each([['[]'], ['"api"'], ['null'], ['42']])('refuses %s: not an object', async (body) => {
    expectInvalid(await check(app.url, secret, body), [
      { field: 'body', message: 'must be a JSON object' },
    ]);
  });

  it('refuses malformed JSON and an empty JSON body', async () => {
    expectInvalid(await check(app.url, secret, '{"policy":'), [{ field: 'body' }]);
    expectInvalid(await check(app.url, secret, ''), [{ field: 'body' }]);
  });

  it('415 for a body that is not JSON', async () => {
    const answer = await request(app.url, '/v1/check', {
      method: 'POST',
      headers: { ...bearer(secret), 'content-type': 'text/plain' },
      body: JSON.stringify(valid),
    });

    expectProblem(answer, 415, 'about:blank');
  });

  it('413 for a body over 16 KiB', async () => {
    const answer = await check(app.url, secret, { ...valid, padding: 'x'.repeat(17_000) });

    expectProblem(answer, 413, 'about:blank');
    expect((answer.body as { detail: string }).detail).toContain('16384 bytes');
  });

  it('names each missing field', async () => {
    expectInvalid(await check(app.url, secret, {}), [
      { field: 'policy', message: 'is required' },
      { field: 'identifier', message: 'is required' },
    ]);
  });

  it('refuses unknown fields, so a misspelt option never goes unnoticed', async () => {
    expectInvalid(await check(app.url, secret, { ...valid, dryrun: true, extra: 1 }), [
      { field: 'dryrun', message: 'unknown field' },
      { field: 'extra', message: 'unknown field' },
    ]);
  });

  it.each([
    ['an empty string', ''],
    ['257 bytes of ASCII', 'a'.repeat(257)],
    ['258 bytes of 129 two-byte characters', 'é'.repeat(129)],
    ['a number', 42],
  ])('refuses an identifier that is %s', async (_case, identifier) => {
    expectInvalid(await check(app.url, secret, { ...valid, identifier }), [
      { field: 'identifier', message: 'must be a string of 1 to 256 bytes (UTF-8)' },
    ]);
  });

  it('accepts any identifier of up to 256 bytes of UTF-8', async () => {
    for (const identifier of [
      '😀'.repeat(64),
      'a'.repeat(256),
      ' ',
      'ünïcödé/with:colons{and}braces',
    ]) {
      const answer = await check(app.url, secret, { ...valid, identifier });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ identifier });
    }
  });

  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['above 1e9', 1_000_000_001],
    ['a string', '5'],
  ])('refuses a cost that is %s', async (_case, cost) => {
    expectInvalid(await check(app.url, secret, { ...valid, cost }), [
      { field: 'cost', message: 'must be an integer from 0 to 1000000000' },
    ]);
  });

  it('accepts the largest cost, which this policy can never pass (no Retry-After)', async () => {
    const answer = await check(app.url, secret, { ...valid, cost: 1_000_000_000 });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ allowed: false, retryAfterMs: -1 });
    expect(answer.headers.get('retry-after')).toBeNull();
  });

  it('lists every bad field at once', async () => {
    expectInvalid(
      await check(app.url, secret, {
        policy: 'x'.repeat(65),
        identifier: '',
        cost: -1,
        dryRun: 'yes',
      }),
      [
        { field: 'policy' },
        { field: 'identifier' },
        { field: 'cost' },
        { field: 'dryRun', message: 'must be a boolean' },
      ],
    );
  });

  it('refuses an unknown mode', async () => {
    expectInvalid(await check(app.url, secret, valid, { query: '?mode=fast' }), [
      { field: 'mode' },
    ]);
  });
});

describe('routes and paths', () => {
  it('answers unknown routes with a 404 problem, on the API prefix and off it', async () => {
    expectProblem(await request(app.url, '/v1/nope'), 404, 'about:blank');
    expectProblem(
      await request(app.url, '/v1/check', { headers: bearer(secret) }),
      404,
      'about:blank',
    );
    expectProblem(await request(app.url, '/nope'), 404, 'about:blank');
    // a HEAD would decide, and consume, like the GET
    const head = await request(app.url, '/v1/authorize?policy=api', {
      method: 'HEAD',
      headers: bearer(secret),
    });
    expect(head.status).toBe(404);
  });

  it('refuses a path that is not valid percent-encoded UTF-8', async () => {
    const answer = await request(app.url, '/v1/limits/api/%E0%A4%A', { headers: bearer(secret) });

    expectInvalid(answer, [{ field: 'path' }]);
  });

  it('takes identifiers of up to 256 bytes in the limits path, percent-encoded', async () => {
    const longest = encodeURIComponent('😀'.repeat(64));
    const tooLong = encodeURIComponent(`${'😀'.repeat(64)}a`);
    const inspect = await request(app.url, `/v1/limits/api/${longest}`, {
      headers: bearer(secret),
    });

    expect(inspect.status).toBe(200);
    expect(inspect.body).toMatchObject({ identifier: '😀'.repeat(64) });
    expectInvalid(
      await request(app.url, `/v1/limits/api/${tooLong}`, { headers: bearer(secret) }),
      [{ field: 'identifier' }],
    );
    expectInvalid(
      await request(app.url, `/v1/limits/api/${'%61'.repeat(400)}`, { headers: bearer(secret) }),
      [{ field: 'identifier' }],
    );
  });

  it('refuses bad authorize inputs by name', async () => {
    const authorize = (query: string) =>
      request(app.url, `/v1/authorize${query}`, { headers: bearer(secret) });

    expectInvalid(await authorize(''), [{ field: 'policy', message: 'is required' }]);
    expectInvalid(await authorize('?policy=api&cost=abc'), [{ field: 'cost' }]);
    expectInvalid(await authorize('?policy=api&cost=1000000001'), [{ field: 'cost' }]);
    expectInvalid(await authorize('?policy=api&deny_status=500'), [
      { field: 'deny_status', message: 'must be one of 401, 403, 429' },
    ]);
    expectInvalid(await authorize('?policy=api&policy=other'), [{ field: 'policy' }]);
  });
});
