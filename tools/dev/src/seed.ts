import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as argon2 from 'argon2';
import { createPrismaClient, newId, type Prisma, type PrismaClient } from '@sluice/db';
import { encryptSecret, generateSigningSecret } from '@sluice/webhooks';
import {
  compileTenant,
  generateApiKeySecret,
  hashApiKey,
  type PolicyInput,
  type RuleInput,
} from '@sluice/policy';
import { repoRoot } from './paths';

/** What the demo seed guarantees exists; printed by `npm start`. */
export interface DemoSeed {
  tenantId: string;
  tenantSlug: string;
  /** The demo key's SHA-256, under which the control plane publishes its record. */
  keyHash: string;
  planSlugs: string[];
  /** The demo service key (`Authorization: Bearer …`), kept in `.data/demo-api-key`. */
  apiKey: string;
}

const DAILY = 86_400_000;
const MINUTE = 60_000;

/** Per parameter, the range tenants on the plan may set it within. */
type Bounds = Record<string, { min?: number; max?: number }>;

/** A plan's policy template as the seed stores it (the control plane publishes it). */
interface SeedPolicy {
  name: string;
  description: string;
  rules: RuleInput[];
  /** Rule name → what tenants may change. */
  tenantBounds?: Record<string, Bounds>;
  /** How long a reservation waits for its settle; absent: no reservations. */
  reservationTtlMs?: number;
}

/** Calls to an LLM: the tokens they use per minute, and how many run at once. */
const llmTokens = (tokensPerMinute: number, inFlight: number): SeedPolicy => ({
  name: 'llm-tokens',
  description: 'LLM calls: tokens per minute (checked with an estimate, settled at the usage)',
  rules: [
    {
      name: 'tokens',
      algorithm: 'token_bucket',
      capacity: tokensPerMinute,
      refillPerSecond: tokensPerMinute / 60,
    },
    { name: 'in-flight', algorithm: 'concurrency', limit: inFlight, leaseTtlMs: MINUTE },
  ],
  reservationTtlMs: 10 * MINUTE,
  tenantBounds: { tokens: { capacity: { min: 1, max: tokensPerMinute } } },
});

const PLANS: { slug: string; name: string; description: string; policies: SeedPolicy[] }[] = [
  {
    slug: 'free',
    name: 'Free',
    description: 'For trying Sluice out',
    policies: [
      {
        name: 'api',
        description: 'Every API request',
        // small enough that a few quick curls hit the burst limit
        rules: [
          { name: 'burst', algorithm: 'token_bucket', capacity: 5, refillPerSecond: 1 },
          { name: 'daily', algorithm: 'fixed_window', limit: 1000, windowMs: DAILY },
        ],
        tenantBounds: { burst: { capacity: { min: 1, max: 50 } } },
      },
      llmTokens(20_000, 2),
    ],
  },
  {
    slug: 'pro',
    name: 'Pro',
    description: 'For production traffic',
    policies: [
      {
        name: 'api',
        description: 'Every API request',
        rules: [
          { name: 'burst', algorithm: 'token_bucket', capacity: 50, refillPerSecond: 20 },
          { name: 'daily', algorithm: 'fixed_window', limit: 100_000, windowMs: DAILY },
        ],
        tenantBounds: { burst: { capacity: { min: 1, max: 500 }, refillPerSecond: { max: 100 } } },
      },
      llmTokens(200_000, 10),
    ],
  },
];

const DEMO_TENANT = { slug: 'demo', name: 'Demo Inc.', plan: 'free' };
const DEMO_KEY = { name: 'demo service key', policies: ['api', 'llm-tokens'] };

/**
 * Idempotent: plans, the demo tenant and its key are upserted in PostgreSQL, and an outbox row
 * asks the control plane to publish the tenant (its policies and keys) to Redis, as after any
 * change. The templates are validated with the policy lib first, so a bad seed fails here.
 */
export async function seedDemo(options: {
  databaseUrl: string;
  apiKeyFile: string;
  /** The demo tenant's webhook endpoint: `npm start`'s own receiver. */
  webhook?: DemoWebhook;
}): Promise<DemoSeed> {
  const prisma = createPrismaClient(options.databaseUrl, { maxConnections: 2 });
  try {
    const planPolicies = new Map<string, PolicyInput[]>();
    for (const plan of PLANS) {
      const row = await prisma.plan.upsert({
        where: { slug: plan.slug },
        create: {
          id: newId('plan'),
          slug: plan.slug,
          name: plan.name,
          description: plan.description,
        },
        update: {},
      });
      const inputs: PolicyInput[] = [];
      for (const template of plan.policies) {
        const policy =
          (await prisma.policy.findUnique({
            where: { planId_name: { planId: row.id, name: template.name } },
          })) ??
          (await prisma.policy.create({
            data: {
              id: newId('policy'),
              name: template.name,
              description: template.description,
              planId: row.id,
              reservationTtlMs: template.reservationTtlMs ?? null,
              rules: {
                create: template.rules.map((rule, position) =>
                  toRuleRow(rule, position, template.tenantBounds?.[rule.name]),
                ),
              },
            },
          }));
        inputs.push({
          id: policy.id,
          name: template.name,
          description: template.description,
          rules: template.rules,
          ...(template.reservationTtlMs !== undefined && {
            reservations: { ttlMs: template.reservationTtlMs },
          }),
        });
      }
      planPolicies.set(plan.slug, inputs);
    }
    const plan = await prisma.plan.findUniqueOrThrow({ where: { slug: DEMO_TENANT.plan } });
    const tenant = await prisma.tenant.upsert({
      where: { slug: DEMO_TENANT.slug },
      create: {
        id: newId('tenant'),
        slug: DEMO_TENANT.slug,
        name: DEMO_TENANT.name,
        planId: plan.id,
      },
      update: {},
    });

    const apiKey = await localSecret(options.apiKeyFile, generateApiKeySecret);
    const hash = hashApiKey(apiKey);
    await prisma.apiKey.upsert({
      where: { hash },
      create: {
        id: newId('apiKey'),
        tenantId: tenant.id,
        name: DEMO_KEY.name,
        prefix: apiKey.slice(0, 12),
        hash,
        policyNames: DEMO_KEY.policies,
        scopes: ['check'],
      },
      // a key from an earlier demo gains the policies added since
      update: { policyNames: DEMO_KEY.policies },
    });

    if (options.webhook) await seedDemoWebhook(prisma, tenant.id, options.webhook);
    // throws PolicyValidationError naming the field if a template is wrong
    compileTenant({
      tenantId: tenant.id,
      slug: tenant.slug,
      status: tenant.status,
      policies: planPolicies.get(DEMO_TENANT.plan) ?? [],
    });
    await prisma.outboxEvent.create({ data: { tenantId: tenant.id, kind: 'tenant' } });
    return {
      tenantId: tenant.id,
      tenantSlug: tenant.slug,
      keyHash: hash,
      planSlugs: PLANS.map((p) => p.slug),
      apiKey,
    };
  } finally {
    await prisma.$disconnect();
  }
}

/** PostgreSQL keeps a rule's parameters as JSON beside its name and algorithm. */
function toRuleRow(
  rule: RuleInput,
  position: number,
  tenantBounds: Bounds | undefined,
): Prisma.RuleCreateWithoutPolicyInput {
  const { name, algorithm, ...params } = rule;
  // Rule parameters are plain JSON (numbers and a calendar object); the interfaces lack the index
  // signature Prisma's JSON input type asks for.
  return {
    id: newId('rule'),
    position,
    name,
    algorithm,
    params: params as Prisma.InputJsonObject,
    ...(tenantBounds && { tenantBounds: tenantBounds as Prisma.InputJsonObject }),
  };
}

export interface DemoWebhook {
  url: string;
  /** Where `demo-failing` delivers: the receiver's path that always answers 503. */
  failingUrl: string;
  /** `SLUICE_SECRETS_KEY`, which encrypts the signing secret at rest. */
  secretsKey: Buffer;
  /** Where the signing secret is kept for the receiver (0600). */
  secretFile: string;
}

export const DEMO_WEBHOOK_ENDPOINT = 'demo-receiver';
/** The demo's endpoint whose receiver always answers 503: its events retry, then die. */
export const DEMO_FAILING_ENDPOINT = 'demo-failing';

/**
 * The demo tenant's endpoints at `npm start`'s receiver: `demo-receiver` (2 deliveries a second,
 * a queue of 100) and `demo-failing` (1 a second, 3 attempts, so its events become dead letters
 * to replay). Their URLs and secret are written on every start (the receiver's port may change).
 */
async function seedDemoWebhook(
  prisma: PrismaClient,
  tenantId: string,
  webhook: DemoWebhook,
): Promise<void> {
  const secret = await localSecret(webhook.secretFile, generateSigningSecret);
  const endpoints = [
    { name: DEMO_WEBHOOK_ENDPOINT, url: webhook.url, leakRatePerSec: 2, queueCapacity: 100 },
    {
      name: DEMO_FAILING_ENDPOINT,
      url: webhook.failingUrl,
      leakRatePerSec: 1,
      queueCapacity: 50,
      maxAttempts: 3,
    },
  ];
  for (const { name, url, ...settings } of endpoints) {
    const existing = await prisma.webhookEndpoint.findUnique({
      where: { tenantId_name: { tenantId, name } },
      select: { id: true },
    });
    const id = existing?.id ?? newId('webhookEndpoint');
    const secretCiphertext = encryptSecret(webhook.secretsKey, secret, {
      tenantId,
      endpointId: id,
    });
    await prisma.webhookEndpoint.upsert({
      where: { id },
      create: { id, tenantId, name, url, secretCiphertext, ...settings },
      update: { url, secretCiphertext },
    });
  }
}

/** A secret that survives restarts in a local file (0600, under the git-ignored .data/). */
export async function localSecret(file: string, generate: () => string): Promise<string> {
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = generate();
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  return secret;
}

export interface DemoUser {
  email: string;
  password: string;
}

interface DemoUserOptions {
  env: NodeJS.ProcessEnv;
  databaseUrl: string;
  passwordFile: string;
}

/**
 * A demo user created through the control plane's own CLI (tools may not import an app), with a
 * password kept in a local file (0600) so `npm start` can print it every time. A user that exists
 * already gets that password, so the printed one is always the one that signs in: the database
 * may be shared with another checkout, or outlive this one's `.data/`.
 */
async function seedDemoUser(
  options: DemoUserOptions,
  email: string,
  args: string[],
  passwordVariable: 'SLUICE_OPERATOR_PASSWORD' | 'SLUICE_USER_PASSWORD',
): Promise<DemoUser> {
  const password = await localSecret(options.passwordFile, () =>
    randomBytes(18).toString('base64url'),
  );
  const cli = join(repoRoot, 'apps/control-plane/dist/cli.js');
  const result = spawnSync(process.execPath, [cli, ...args, '--email', email], {
    env: { ...options.env, DATABASE_URL: options.databaseUrl, [passwordVariable]: password },
    encoding: 'utf8',
  });
  // 73 (EX_CANTCREAT): the user exists already
  if (result.status === 73) await setPassword(options.databaseUrl, email, password);
  else if (result.status !== 0) {
    throw new Error(`${args[0]} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
  return { email, password };
}

export const DEMO_OPERATOR_EMAIL = 'operator@demo.sluice.local';
export const DEMO_ADMIN_EMAIL = 'admin@demo.sluice.local';

/** The demo's operator (see `seedDemoUser`). */
export function seedDemoOperator(options: DemoUserOptions): Promise<DemoUser> {
  return seedDemoUser(
    options,
    DEMO_OPERATOR_EMAIL,
    ['create-operator', '--name', 'Demo Operator'],
    'SLUICE_OPERATOR_PASSWORD',
  );
}

/** The demo tenant's admin (see `seedDemoUser`), for the dashboard's tenant pages. */
export function seedDemoTenantAdmin(options: DemoUserOptions): Promise<DemoUser> {
  return seedDemoUser(
    options,
    DEMO_ADMIN_EMAIL,
    ['create-member', '--tenant', DEMO_TENANT.slug, '--role', 'admin', '--name', 'Demo Admin'],
    'SLUICE_USER_PASSWORD',
  );
}

/**
 * Gives the user `password` unless it has it already, and ends the user's sessions, as a password
 * change in the control plane does. The hash is argon2id at the library's default cost: the
 * control plane verifies any argon2 hash by the parameters it carries.
 */
async function setPassword(databaseUrl: string, email: string, password: string): Promise<void> {
  const prisma = createPrismaClient(databaseUrl, { maxConnections: 1 });
  try {
    const user = await prisma.user.findUniqueOrThrow({
      where: { email },
      select: { id: true, passwordHash: true },
    });
    if (user.passwordHash && (await argon2.verify(user.passwordHash, password))) return;
    const passwordHash = await argon2.hash(password, { type: argon2.argon2id });
    const now = new Date();
    await prisma.$transaction([
      prisma.user.update({
        where: { id: user.id },
        data: { passwordHash, passwordChangedAt: now },
      }),
      prisma.session.updateMany({
        where: { userId: user.id, revokedAt: null },
        data: { revokedAt: now },
      }),
    ]);
  } finally {
    await prisma.$disconnect();
  }
}
