import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import { SluiceClient } from './client';
import { SDK_VERSION } from './version';

const valid = { baseUrl: 'http://127.0.0.1:4100', apiKey: 'sk_live_abc' };

describe('SluiceClient options', () => {
  it.each([
    [{ baseUrl: 'localhost:4100' }, /baseUrl must be an http\(s\) URL/],
    [{ baseUrl: 'ftp://sluice' }, /baseUrl must be an http\(s\) URL/],
    [{ baseUrl: 'http://sluice:4100/?tenant=a' }, /without query or fragment/],
    [{ userAgent: 'acme\r\nx-injected: 1' }, /userAgent must be printable ASCII/],
    [{ apiKey: '' }, /apiKey must be a non-empty/],
    [{ apiKey: 'sk_live_abc\r\nx-injected: 1' }, /apiKey must be a non-empty/],
    [{ timeoutMs: 0 }, /timeoutMs must be a positive integer, got 0/],
    [{ timeoutMs: 1.5 }, /timeoutMs must be a positive integer/],
    [{ failMode: 'local' as 'open' }, /failMode must be open or closed, got "local"/],
  ])('refuses %j', (override, message) => {
    expect(() => new SluiceClient({ ...valid, ...override })).toThrow(message);
  });

  it('limit() refuses an estimate that would only peek, and bad costs, before any request', async () => {
    const client = new SluiceClient({ ...valid, fetch: () => Promise.reject(new Error('sent')) });
    const run = (over: { estimate?: number; costOnError?: number }) =>
      client.limit(() => 'done', {
        policy: 'llm',
        identifier: 'u',
        estimate: 10,
        cost: () => 1,
        ...over,
      });

    await expect(run({ estimate: 0 })).rejects.toThrow(
      'limit(): estimate must be an integer from 1 to 1000000000, got 0',
    );
    await expect(run({ estimate: 2.5 })).rejects.toThrow(RangeError);
    await expect(run({ costOnError: 1e9 + 1 })).rejects.toThrow(/costOnError must be an integer/);
  });

  it('keeps a base path, drops trailing slashes and encodes path segments', async () => {
    const urls: string[] = [];
    const client = new SluiceClient({
      ...valid,
      baseUrl: 'https://gw.example/sluice//',
      fetch: (input) => {
        urls.push(String(input));
        return Promise.reject(new Error('offline'));
      },
    });
    await client.check({ policy: 'api', identifier: 'a/b' });
    await client.inspect('api', 'a/b ?').catch(() => undefined);

    expect(urls).toEqual([
      'https://gw.example/sluice/v1/check',
      'https://gw.example/sluice/v1/limits/api/a%2Fb%20%3F',
    ]);
  });

  it('defaults to fail open, like a policy', () => {
    expect(new SluiceClient(valid).failMode).toBe('open');
  });

  it('states the package version in User-Agent', () => {
    expect(SDK_VERSION).toBe(packageJson.version);
  });
});
