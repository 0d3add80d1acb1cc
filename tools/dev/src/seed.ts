import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createPrismaClient, newId, type Prisma } from '@sluice/db';
import {
  compileTenant,
  generateApiKeySecret,
  hashApiKey,
  publishTenant,
  putApiKey,
  type PolicyInput,
  type RuleInput,
} from '@sluice/policy';
import type { Redis } from 'ioredis';
import { repoRoot } from './paths';

/** What the demo seed guarantees exists; printed by `npm start`. */
export interface DemoSeed {
  tenantSlug: string;
  planSlugs: string[];
  /** The demo service key (`Authorization: Bearer …`), kept in `.data/demo-api-key`. */
  apiKey: string;
  /** The version of the demo tenant's compiled policies now in Redis. */
  version: number;
}

const DAILY = 86_400_000;
const MINUTE = 60_000;

/** A plan's policy template as the seed stores it (PostgreSQL) and publishes it (Redis). */
interface SeedPolicy {
  name: string;
  description: string;
  rules: RuleInput[];
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
      },
      llmTokens(200_000, 10),
    ],
  },
];

const DEMO_TENANT = { slug: 'demo', name: 'Demo Inc.', plan: 'free' };
const DEMO_KEY = { name: 'demo service key', policies: ['api', 'llm-tokens'] };

/**
 * Idempotent: plans, the demo tenant and its key are upserted in PostgreSQL, the tenant's
 * compiled policies are published to Redis as a new version, and the demo key's record is put
 * there too. Until the control plane publishes from PostgreSQL itself, this is what feeds the
 * data plane.
 */
export async function seedDemo(options: {
  databaseUrl: string;
  redis: Redis;
  prefix: string;
  apiKeyFile: string;
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
                create: template.rules.map((rule, position) => toRuleRow(rule, position)),
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
    const keyRow = await prisma.apiKey.upsert({
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

    const policies = planPolicies.get(DEMO_TENANT.plan) ?? [];
    const published = await publishTenant(
      options.redis,
      options.prefix,
      compileTenant({
        tenantId: tenant.id,
        slug: tenant.slug,
        status: tenant.status,
        policies,
      }),
    );
    await putApiKey(options.redis, options.prefix, hash, {
      id: keyRow.id,
      tenantId: tenant.id,
      policies: DEMO_KEY.policies,
      scopes: ['check'],
    });
    return {
      tenantSlug: tenant.slug,
      planSlugs: PLANS.map((p) => p.slug),
      apiKey,
      version: published.version,
    };
  } finally {
    await prisma.$disconnect();
  }
}

/** PostgreSQL keeps a rule's parameters as JSON beside its name and algorithm. */
function toRuleRow(rule: RuleInput, position: number): Prisma.RuleCreateWithoutPolicyInput {
  const { name, algorithm, ...params } = rule;
  // Rule parameters are plain JSON (numbers and a calendar object); the interfaces lack the index
  // signature Prisma's JSON input type asks for.
  return { id: newId('rule'), position, name, algorithm, params: params as Prisma.InputJsonObject };
}

/** A secret that survives restarts in a local file (0600, under the git-ignored .data/). */
async function localSecret(file: string, generate: () => string): Promise<string> {
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

export interface DemoOperator {
  email: string;
  password: string;
}

/**
 * The demo's first operator, created through the control plane's own CLI (tools may not import
 * an app) with a password kept in a local file (0600) so `npm start` can print it every time.
 */
export async function seedDemoOperator(options: {
  env: NodeJS.ProcessEnv;
  databaseUrl: string;
  passwordFile: string;
}): Promise<DemoOperator> {
  const email = 'operator@demo.sluice.local';
  const password = await localSecret(options.passwordFile, () =>
    randomBytes(18).toString('base64url'),
  );
  const cli = join(repoRoot, 'apps/control-plane/dist/cli.js');
  const result = spawnSync(process.execPath, [cli, 'create-operator', '--email', email], {
    env: { ...options.env, DATABASE_URL: options.databaseUrl, SLUICE_OPERATOR_PASSWORD: password },
    encoding: 'utf8',
  });
  // 73 (EX_CANTCREAT): the operator exists already, from an earlier start
  if (result.status !== 0 && result.status !== 73) {
    throw new Error(`create-operator failed (${result.status}): ${result.stderr || result.stdout}`);
  }
  return { email, password };
}
