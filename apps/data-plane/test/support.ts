import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import {
  compileTenant,
  generateApiKeySecret,
  publishTenant,
  putApiKey,
  type ApiKeyRecord,
  type CompiledTenant,
  type PolicyInput,
  type RuleInput,
  type TenantConfigInput,
} from '@sluice/policy';
import { createTestRedis, testRedisUrl, type TestRedis } from '@sluice/testing';
import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import { createApp } from '../src/app';
import { envSchema } from '../src/env';

export interface TestApp {
  app: NestFastifyApplication;
  /** Base URL of the listening app, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The test's Redis connection and key prefix (the app's SLUICE_KEY_PREFIX). */
  t: TestRedis;
  close(): Promise<void>;
}

/**
 * The data plane booted in process on a free port, on its own key prefix of the test Redis (or
 * of `t`'s server). `close` stops the app and cleans the prefix up.
 */
export async function startApp(
  env: Record<string, string> = {},
  t: TestRedis = createTestRedis('dp'),
  redisUrl = testRedisUrl(),
): Promise<TestApp> {
  const app = await createApp(
    parseEnv(envSchema, {
      REDIS_URL: redisUrl,
      LOG_LEVEL: 'silent',
      SLUICE_KEY_PREFIX: t.prefix,
      ...env,
    }),
  );
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  return {
    app,
    url,
    t,
    async close() {
      await app.close();
      await t.cleanup();
    },
  };
}

/** A token bucket that refills so slowly that no test sees it refill. */
export const bucket = (name: string, capacity: number): RuleInput => ({
  name,
  algorithm: 'token_bucket',
  capacity,
  refillPerSecond: 0.001,
});

export const daily = (limit: number): RuleInput => ({
  name: 'daily',
  algorithm: 'fixed_window',
  limit,
  windowMs: 86_400_000,
});

let policyIds = 0;

/**
 * A policy with a Redis timeout far above any test's latency: the production default (50 ms) on a
 * loaded CI machine would now and then answer fail-open and charge nothing. Fail-mode tests set
 * their own timeout.
 */
export const policy = (name: string, over: Partial<PolicyInput> = {}): PolicyInput => ({
  id: `pol_${name.replace(/[^A-Za-z0-9_-]/g, '_')}_${(policyIds += 1)}`,
  name,
  redisTimeoutMs: 1000,
  rules: [bucket('burst', 5)],
  ...over,
});

/** Publishes the next version of a tenant (with its change message). */
export function publish(
  t: TestRedis,
  tenantId: string,
  policies: PolicyInput[],
  over: Partial<TenantConfigInput> = {},
  redis: Redis = t.redis,
): Promise<CompiledTenant> {
  const input = { tenantId, slug: 'acme', status: 'active' as const, policies, ...over };
  return publishTenant(redis, t.prefix, compileTenant(input));
}

/** Stores an API key of `tenantId` and returns its secret. */
export async function apiKey(
  t: TestRedis,
  tenantId: string,
  over: Partial<ApiKeyRecord> = {},
  redis: Redis = t.redis,
): Promise<string> {
  const secret = generateApiKeySecret();
  await putApiKey(redis, t.prefix, secret, {
    id: `key_${Math.random().toString(36).slice(2, 10)}`,
    tenantId,
    policies: null,
    scopes: ['check'],
    ...over,
  });
  return secret;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text ('' when empty). */
  body: unknown;
  contentType: string | null;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  const isJson = contentType !== null && /json/.test(contentType) && text !== '';
  return {
    status: response.status,
    headers: response.headers,
    body: isJson ? JSON.parse(text) : text,
    contentType,
  };
}

/** `POST <path>` with `body` as JSON (a string is sent as is). */
export async function post(
  url: string,
  path: string,
  secret: string | undefined,
  body: unknown,
  options: { headers?: Record<string, string>; query?: string } = {},
): Promise<Answer> {
  return answer(
    await fetch(`${url}${path}${options.query ?? ''}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret === undefined ? {} : { authorization: `Bearer ${secret}` }),
        ...options.headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** `POST /v1/check` with `body` as JSON (a string is sent as is). */
export const check = (
  url: string,
  secret: string | undefined,
  body: unknown,
  options: { headers?: Record<string, string>; query?: string } = {},
): Promise<Answer> => post(url, '/v1/check', secret, body, options);

/** `POST /v1/settle`. */
export const settle = (url: string, secret: string | undefined, body: unknown): Promise<Answer> =>
  post(url, '/v1/settle', secret, body);

/** `POST /v1/release`. */
export const release = (url: string, secret: string | undefined, body: unknown): Promise<Answer> =>
  post(url, '/v1/release', secret, body);

/** Any request, answered the same way. */
export async function request(url: string, path: string, init: RequestInit = {}): Promise<Answer> {
  return answer(await fetch(`${url}${path}`, init));
}

export const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** Polls `condition` until it holds (the test's own timeout bounds the wait). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  stepMs = 25,
): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, stepMs));
}

export const PROBLEM = 'https://sluice.dev/problems/';

/** Every refusal is problem+json with its status in the body, and never a 500. */
export function expectProblem(answer: Answer, status: number, type: string): void {
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({
    type,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.stringMatching(/^\//),
  });
}

export function expectInvalid(
  answer: Answer,
  errors: { field: string; message?: unknown }[],
): void {
  expectProblem(answer, 400, `${PROBLEM}invalid-request`);
  expect((answer.body as { errors: unknown[] }).errors).toEqual(
    errors.map(({ field, message }) => ({ field, message: message ?? expect.any(String) })),
  );
}
