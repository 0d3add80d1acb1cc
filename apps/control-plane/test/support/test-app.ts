import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseEnv } from '@sluice/config';
import { createPrismaClient, newId, type PrismaClient, type Role } from '@sluice/db';
import {
  createTestDatabase,
  createTestRedis,
  deleteByPrefix,
  type TestDatabase,
  type TestRedis,
} from '@sluice/testing';
import type { GraphQLFormattedError } from 'graphql';
import { createApp } from '../../src/app';
import { hashPassword } from '../../src/auth/passwords';
import { envSchema } from '../../src/env';

export interface GraphqlBody<T> {
  data?: T | null;
  errors?: GraphQLFormattedError[];
}

export interface GraphqlResponse<T> {
  status: number;
  headers: Headers;
  body: GraphqlBody<T>;
}

export interface Credentials {
  bearer?: string;
  /** Sent as the Cookie header. */
  cookies?: Record<string, string>;
  csrf?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  readonly app: NestFastifyApplication;
  /** e.g. http://127.0.0.1:40123 */
  readonly url: string;
  /** A client of the app's database, for arranging and asserting rows. */
  readonly prisma: PrismaClient;
  readonly redis: TestRedis;
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    credentials?: Credentials,
  ): Promise<GraphqlResponse<T>>;
  /** Deletes the app's Redis keys (login throttles), so tests do not depend on order. */
  resetRedis(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real app on port 0 over its own database (cloned from the migrated template) and its own
 * Redis key prefix; `env` overrides the defaults (cookies without Secure, logs off, the
 * reconciler's interval an hour).
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database: TestDatabase = await createTestDatabase();
  const redis = createTestRedis('cp');
  const app = await createApp(
    parseEnv(envSchema, {
      DATABASE_URL: database.url,
      REDIS_URL: process.env['REDIS_URL'],
      SLUICE_KEY_PREFIX: redis.prefix,
      LOG_LEVEL: 'silent',
      CONTROL_PLANE_COOKIE_SECURE: 'false',
      // the reconciler queues a publish for any tenant a test wrote without the API, at a moment
      // no test controls: only a test about the reconciler sets a short interval
      CONTROL_PLANE_RECONCILE_INTERVAL_MS: '3600000',
      ...env,
    }),
  );
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  const prisma = createPrismaClient(database.url, { maxConnections: 2 });

  return {
    app,
    url,
    prisma,
    redis,
    async graphql<T>(
      query: string,
      variables?: Record<string, unknown>,
      credentials: Credentials = {},
    ) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        ...credentials.headers,
      };
      if (credentials.bearer) headers['authorization'] = `Bearer ${credentials.bearer}`;
      if (credentials.cookies) {
        headers['cookie'] = Object.entries(credentials.cookies)
          .map(([name, value]) => `${name}=${value}`)
          .join('; ');
      }
      if (credentials.csrf) headers['x-csrf-token'] = credentials.csrf;
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables }),
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as GraphqlBody<T>,
      };
    },
    resetRedis: async () => {
      await deleteByPrefix(redis.redis, redis.prefix);
    },
    async close() {
      await app.close();
      await prisma.$disconnect();
      await redis.cleanup();
      await database.drop();
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
}

/** A user with a password and the given memberships (`tenantId` null for operator). */
export async function createUser(
  prisma: PrismaClient,
  options: {
    email?: string;
    password?: string;
    memberships?: { role: Role; tenantId?: string }[];
  } = {},
): Promise<TestUser> {
  const id = newId('user');
  const email = options.email ?? `${id}@example.com`;
  const password = options.password ?? 'correct horse battery staple';
  await prisma.user.create({
    data: {
      id,
      email,
      passwordHash: await hashPassword(password),
      memberships: {
        create: (options.memberships ?? [{ role: 'operator' }]).map((membership) => ({
          id: newId('membership'),
          role: membership.role,
          tenantId: membership.tenantId ?? null,
        })),
      },
    },
  });
  return { id, email, password };
}

export const LOGIN = /* GraphQL */ `
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      user {
        id
        email
        memberships {
          tenantId
          role
        }
      }
      expiresAt
      csrfToken
      token
    }
  }
`;

export interface LoginResult {
  login: {
    user: { id: string; email: string; memberships: { tenantId: string | null; role: string }[] };
    expiresAt: string;
    csrfToken: string | null;
    token: string | null;
  };
}

/** `name=value` pairs of the response's Set-Cookie headers, with their attributes. */
export function setCookies(headers: Headers): Map<string, { value: string; attributes: string[] }> {
  return new Map(
    headers.getSetCookie().map((line) => {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      return [pair.slice(0, separator), { value: pair.slice(separator + 1), attributes }];
    }),
  );
}

/** Logs in with a session cookie: the cookies to send back and the CSRF token. */
export async function loginWithCookie(
  app: TestApp,
  user: TestUser,
): Promise<{ cookies: Record<string, string>; csrf: string; sessionToken: string }> {
  const response = await app.graphql<LoginResult>(LOGIN, {
    input: { email: user.email, password: user.password },
  });
  const cookies = setCookies(response.headers);
  const sessionToken = cookies.get('sluice_session')?.value;
  const csrf = cookies.get('sluice_csrf')?.value;
  if (!sessionToken || !csrf) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return { cookies: { sluice_session: sessionToken, sluice_csrf: csrf }, csrf, sessionToken };
}

/** Logs in for `Authorization: Bearer`. */
export async function loginWithBearer(app: TestApp, user: TestUser): Promise<string> {
  const response = await app.graphql<LoginResult>(LOGIN, {
    input: { email: user.email, password: user.password, transport: 'BEARER' },
  });
  const token = response.body.data?.login.token;
  if (!token) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return token;
}

export interface TestTenant {
  id: string;
  slug: string;
  name: string;
  planId: string;
}

/** A tenant on a plan of its own, written with Prisma (the tenant API is tested apart). */
export async function createTenant(
  prisma: PrismaClient,
  options: { name?: string } = {},
): Promise<TestTenant> {
  const id = newId('tenant');
  const slug = id.replace('_', '-');
  const name = options.name ?? `Tenant ${slug}`;
  const plan = await prisma.plan.create({
    data: { id: newId('plan'), slug: `plan-${slug}`, name: `Plan of ${name}` },
  });
  await prisma.tenant.create({ data: { id, slug, name, planId: plan.id } });
  return { id, slug, name, planId: plan.id };
}
