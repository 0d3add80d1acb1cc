import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKey,
  bearer,
  bucket,
  policy,
  publish,
  request,
  startApp,
  type TestApp,
} from './support';

let app: TestApp;
let secret: string;
let identifiers = 0;
const who = () => `client-${(identifiers += 1)}`;

beforeAll(async () => {
  app = await startApp();
  await publish(app.t, 'tnt_a', [
    policy('api', { rules: [bucket('burst', 2)] }),
    policy('bulk', { rules: [bucket('burst', 10)] }),
  ]);
  secret = await apiKey(app.t, 'tnt_a');
});
afterAll(async () => {
  await app.close();
});

const authorize = (query: string, headers: Record<string, string> = {}) =>
  request(app.url, `/v1/authorize${query}`, { headers: { ...bearer(secret), ...headers } });

/** The figures the engine has for `identifier` under `name`, consuming nothing. */
async function remaining(name: string, identifier: string): Promise<number> {
  const answer = await request(app.url, `/v1/limits/${name}/${encodeURIComponent(identifier)}`, {
    headers: bearer(secret),
  });
  return (answer.body as { remaining: number }).remaining;
}

describe('GET /v1/authorize', () => {
  it('answers 200 with an empty body, then 429 problem+json, with the headers on both', async () => {
    const identifier = who();
    const query = `?policy=api&identifier=${identifier}`;
    const answers = [await authorize(query), await authorize(query), await authorize(query)];

    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[0]!.body).toBe('');
    expect(answers[0]!.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"burst";q=2;w=2000');
    expect(answers[2]!.contentType).toMatch(/^application\/problem\+json/);
    expect(answers[2]!.body).toMatchObject({
      type: 'https://sluice.dev/problems/rate-limited',
      status: 429,
      instance: '/v1/authorize',
      'violated-policies': ['burst'],
    });
    expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('takes policy, identifier and cost from headers before the query', async () => {
    const identifier = who();
    const answer = await authorize(`?policy=api&identifier=ignored&cost=1`, {
      'x-sluice-policy': 'bulk',
      'x-sluice-identifier': identifier,
      'x-sluice-cost': '4',
    });

    expect(answer.status).toBe(200);
    expect(await remaining('bulk', identifier)).toBe(6);
    expect(await remaining('bulk', 'ignored')).toBe(10);
  });

  it('reads a UTF-8 identifier header as the same identifier as in a JSON body', async () => {
    // fetch sends header values as bytes; Node reads them as Latin-1
    const identifier = 'zoë-🚀';
    const latin1 = Buffer.from(identifier, 'utf8').toString('latin1');
    const answer = await authorize('?policy=bulk', { 'x-sluice-identifier': latin1 });

    expect(answer.status).toBe(200);
    expect(await remaining('bulk', identifier)).toBe(9);
  });

  it('defaults the identifier to the right-most X-Forwarded-For entry (the one the proxy added)', async () => {
    const forged = '203.0.113.9';
    const added = `198.51.100.${(identifiers += 1)}`;
    await authorize('?policy=bulk', { 'x-forwarded-for': `${forged}, ${added}` });

    expect(await remaining('bulk', added)).toBe(9);
    expect(await remaining('bulk', forged)).toBe(10);
  });

  it('falls back to the socket address without X-Forwarded-For', async () => {
    const before = await remaining('bulk', '127.0.0.1');
    await authorize('?policy=bulk');

    expect(await remaining('bulk', '127.0.0.1')).toBe(before - 1);
  });

  it('sends a rate-limit denial with the deny status a proxy asked for, query or header', async () => {
    const identifier = who();
    const query = `?policy=api&identifier=${identifier}`;
    await authorize(query);
    await authorize(query);
    const viaQuery = await authorize(`${query}&deny_status=403`);
    const viaHeader = await authorize(query, { 'x-sluice-deny-status': '401' });

    expect(viaQuery.status).toBe(403);
    expect(viaQuery.headers.get('x-ratelimit-limit')).toBe('2');
    expect(Number(viaQuery.headers.get('retry-after'))).toBeGreaterThan(0);
    // the body still says what happened
    expect(viaQuery.body).toMatchObject({
      status: 429,
      type: 'https://sluice.dev/problems/rate-limited',
    });
    expect(viaHeader.status).toBe(401);
  });

  it('answers a suspended tenant 403 tenant-suspended', async () => {
    await publish(app.t, 'tnt_frozen', [policy('api')], { status: 'suspended' });
    const frozen = await apiKey(app.t, 'tnt_frozen');
    const answer = await request(app.url, '/v1/authorize?policy=api&identifier=x', {
      headers: bearer(frozen),
    });

    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ type: 'https://sluice.dev/problems/tenant-suspended' });
  });
});
