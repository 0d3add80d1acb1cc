import {
  compileTenant,
  generateApiKeySecret,
  publishTenant,
  putApiKey,
  type ApiKeyScope,
} from '@sluice/policy';
import { freePort } from '@sluice/testing';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { inject } from 'vitest';
import { SluiceClient, type SluiceClientOptions } from '../src';

export const dataPlane = inject('dataPlane');

/**
 * A policy as the policy lib takes it. Loosely typed on purpose: the settle and lease specs
 * write settings (`reservations`, the `concurrency` rule) to the design before the policy lib
 * has them, and `compileTenant` validates whatever it is given.
 */
export interface PolicySpec {
  id?: string;
  name: string;
  rules: Record<string, unknown>[];
  [setting: string]: unknown;
}

/** A token bucket that refills so slowly (1 token per 1000 s) that no test sees it refill. */
export const bucket = (name: string, capacity: number) => ({
  name,
  algorithm: 'token_bucket',
  capacity,
  refillPerSecond: 0.001,
});

export interface Tenant {
  tenantId: string;
  /** An API key secret with the `check` scope, allowed on every policy. */
  apiKey: string;
  /** Another key of the tenant; `scopes` and `policies` as asked. */
  key(options?: { scopes?: ApiKeyScope[]; policies?: string[] | null }): Promise<string>;
}

/**
 * Publishes tenants of their own (fresh ids: no test shares state with another) with `policies`
 * on a data plane's Redis and prefix (default the shared one's), each with a key. `close()` the
 * connection in afterAll.
 */
export function tenants(target: { redisUrl: string; prefix: string } = dataPlane) {
  const redis = new Redis(target.redisUrl, { maxRetriesPerRequest: 1 });
  return {
    async create(
      policies: PolicySpec[],
      options: { status?: 'active' | 'suspended' } = {},
    ): Promise<Tenant> {
      const tenantId = `tnt_sdk_${randomBytes(6).toString('hex')}`;
      const compiled = compileTenant({
        tenantId,
        slug: 'sdk-test',
        status: options.status ?? 'active',
        // a Redis timeout far above any test's latency: the 50 ms default on a loaded CI machine
        // would now and then fail open and charge nothing
        policies: policies.map((policy, i) => ({
          id: `pol_${i}`,
          redisTimeoutMs: 1000,
          ...policy,
        })),
      });
      await publishTenant(redis, target.prefix, compiled);
      const key: Tenant['key'] = async (options = {}) => {
        const secret = generateApiKeySecret();
        await putApiKey(redis, target.prefix, secret, {
          id: `key_${randomBytes(6).toString('hex')}`,
          tenantId,
          policies: options.policies ?? null,
          scopes: options.scopes ?? ['check'],
        });
        return secret;
      };
      return { tenantId, apiKey: await key(), key };
    },
    close: () => redis.quit(),
  };
}

/**
 * A client of the shared data plane. Its timeout is far above any answer's latency: the 1 s
 * default on a loaded machine would now and then fail open; the timeout tests set their own.
 */
export const clientFor = (apiKey: string, options: Partial<SluiceClientOptions> = {}) =>
  new SluiceClient({ baseUrl: dataPlane.url, apiKey, timeoutMs: 30_000, ...options });

/** A URL nothing listens on: connections are refused. */
export async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/** A server that accepts connections and never answers: every request times out. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A promise and its resolver, to hold a request in flight until the test lets it go. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open = () => undefined as void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
