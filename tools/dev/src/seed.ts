import { createPrismaClient, newId, type Prisma } from '@sluice/db';

/** What the demo seed guarantees exists; printed by `npm start`. */
export interface DemoSeed {
  tenantSlug: string;
  planSlugs: string[];
}

interface RuleSeed {
  name: string;
  algorithm: Prisma.RuleCreateWithoutPolicyInput['algorithm'];
  params: Prisma.InputJsonObject;
}

const PLANS: { slug: string; name: string; description: string; apiRules: RuleSeed[] }[] = [
  {
    slug: 'free',
    name: 'Free',
    description: 'For trying Sluice out',
    apiRules: [
      { name: 'burst', algorithm: 'token_bucket', params: { capacity: 5, refillPerSecond: 1 } },
      { name: 'daily', algorithm: 'fixed_window', params: { limit: 1000, windowMs: 86_400_000 } },
    ],
  },
  {
    slug: 'pro',
    name: 'Pro',
    description: 'For production traffic',
    apiRules: [
      { name: 'burst', algorithm: 'token_bucket', params: { capacity: 50, refillPerSecond: 20 } },
      {
        name: 'daily',
        algorithm: 'fixed_window',
        params: { limit: 100_000, windowMs: 86_400_000 },
      },
    ],
  },
];

const DEMO_TENANT = { slug: 'demo', name: 'Demo Inc.', plan: 'free' };

/** Idempotent: running it again changes nothing that exists (upserts keyed by slugs and names). */
export async function seedDemo(databaseUrl: string): Promise<DemoSeed> {
  const prisma = createPrismaClient(databaseUrl, { maxConnections: 2 });
  try {
    const planIds = new Map<string, string>();
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
      planIds.set(plan.slug, row.id);
      const existing = await prisma.policy.findUnique({
        where: { planId_name: { planId: row.id, name: 'api' } },
      });
      if (!existing) {
        await prisma.policy.create({
          data: {
            id: newId('policy'),
            name: 'api',
            description: 'Every API request',
            planId: row.id,
            rules: {
              create: plan.apiRules.map((rule, position) => ({
                id: newId('rule'),
                position,
                ...rule,
              })),
            },
          },
        });
      }
    }
    const planId = planIds.get(DEMO_TENANT.plan);
    if (!planId) throw new Error(`demo plan ${DEMO_TENANT.plan} missing`);
    await prisma.tenant.upsert({
      where: { slug: DEMO_TENANT.slug },
      create: { id: newId('tenant'), slug: DEMO_TENANT.slug, name: DEMO_TENANT.name, planId },
      update: {},
    });
    return { tenantSlug: DEMO_TENANT.slug, planSlugs: PLANS.map((p) => p.slug) };
  } finally {
    await prisma.$disconnect();
  }
}
