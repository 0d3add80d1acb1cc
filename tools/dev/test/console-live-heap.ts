/**
 * Whether the tenant overview stays smooth with 20 busy policies: a script that prints figures
 * (the suite asserts none). With `npm start` running in another terminal:
 *
 *   npx tsx tools/dev/test/console-live-heap.ts [--dashboard http://127.0.0.1:3000]
 *     [--control-plane http://127.0.0.1:4000] [--data-plane http://127.0.0.1:4100] [--minutes 10]
 *
 * It gives the demo tenant 20 policies of its own and a key for them, sends checks to them for the
 * whole run (batches of 20 ten times a second at most, as fast as the data plane answers), keeps
 * the overview open in Chromium and prints the page's JS heap after a garbage collection at 1
 * minute and at the end (goal: under 10 % growth), then removes the policies and revokes the key.
 * Signs in as the demo tenant's admin with the password `npm start` keeps in `.data/`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '@sluice/testing';
import { dataDir } from '../src/paths';
import { DEMO_ADMIN_EMAIL } from '../src/seed';
import { signIn } from './support/sign-in';

const POLICIES = 20;
/** Checks per second over all the policies, at most (each batch waits for its answers). */
const CHECKS_PER_SECOND = 200;

const { values } = parseArgs({
  options: {
    dashboard: { type: 'string', default: 'http://127.0.0.1:3000' },
    'control-plane': { type: 'string', default: 'http://127.0.0.1:4000' },
    'data-plane': { type: 'string', default: 'http://127.0.0.1:4100' },
    minutes: { type: 'string', default: '10' },
  },
});
const dashboard = values.dashboard.replace(/\/$/, '');
const controlPlane = values['control-plane'].replace(/\/$/, '');
const dataPlane = values['data-plane'].replace(/\/$/, '');
const minutes = Number(values.minutes);
const names = Array.from({ length: POLICIES }, (_, i) => `heap-${String(i + 1).padStart(2, '0')}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function graphql<T>(token: string, query: string, variables = {}): Promise<T> {
  const response = await fetch(`${controlPlane}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as { data?: T; errors?: { message: string }[] };
  if (answer.errors) throw new Error(answer.errors.map((e) => e.message).join('; '));
  return answer.data!;
}

async function check(apiKey: string, policy: string, identifier: string): Promise<number> {
  const response = await fetch(`${dataPlane}/v1/check`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ policy, identifier }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function main(): Promise<void> {
  const password = (await readFile(join(dataDir, 'demo-admin-password'), 'utf8')).trim();
  const { login } = await graphql<{ login: { token: string } }>(
    '',
    `
      mutation ($email: String!, $password: String!) {
        login(input: { email: $email, password: $password, transport: BEARER }) {
          token
        }
      }
    `,
    { email: DEMO_ADMIN_EMAIL, password },
  );
  const token = login.token;
  const { me } = await graphql<{ me: { memberships: { tenantId: string }[] } }>(
    token,
    'query { me { memberships { tenantId } } }',
  );
  const tenantId = me.memberships[0]!.tenantId;

  const policyIds: string[] = [];
  let keyId: string | undefined;
  let sending = true;
  const browser = await launchChromium();
  try {
    for (const name of names) {
      const { createPolicy } = await graphql<{ createPolicy: { policy: { id: string } } }>(
        token,
        `
          mutation ($tenantId: ID!, $input: PolicySettingsInput!) {
            createPolicy(tenantId: $tenantId, input: $input) {
              policy {
                id
              }
            }
          }
        `,
        {
          tenantId,
          input: {
            name,
            rules: [{ name: 'burst', algorithm: 'TOKEN_BUCKET', capacity: 10, refillPerSecond: 5 }],
          },
        },
      );
      policyIds.push(createPolicy.policy.id);
    }
    const { createApiKey } = await graphql<{
      createApiKey: { secret: string; apiKey: { id: string } };
    }>(
      token,
      `
        mutation ($input: CreateApiKeyInput!) {
          createApiKey(input: $input) {
            secret
            apiKey {
              id
            }
          }
        }
      `,
      { input: { tenantId, name: 'heap script', policyNames: names } },
    );
    keyId = createApiKey.apiKey.id;
    const apiKey = createApiKey.secret;
    // published once the data plane knows the last policy
    while ((await check(apiKey, names.at(-1)!, 'probe')) === 404) await sleep(200);

    const traffic = (async () => {
      let n = 0;
      while (sending) {
        const started = performance.now();
        await Promise.all(
          Array.from({ length: CHECKS_PER_SECOND / 10 }, () => {
            n += 1;
            return check(apiKey, names[n % POLICIES]!, `user-${n % 7}`);
          }),
        );
        await sleep(Math.max(0, 100 - (performance.now() - started)));
      }
    })();

    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 } })
    ).newPage();
    await signIn(page, dashboard, { email: DEMO_ADMIN_EMAIL, password });
    await page.waitForURL(/\/t\/[^/]+$/);
    await page.getByRole('button', { name: new RegExp(`^${names.at(-1)!}`) }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      return usedSize / (1024 * 1024);
    };
    await sleep(60_000);
    const first = await heap();
    console.log(`heap after 1 minute: ${first.toFixed(1)} MiB`);
    await sleep((minutes - 1) * 60_000);
    const last = await heap();
    const growth = ((last - first) / first) * 100;
    console.log(`heap after ${minutes} minutes: ${last.toFixed(1)} MiB (${growth.toFixed(1)} %)`);
    console.log(
      `${POLICIES} policies, ${CHECKS_PER_SECOND} checks/s; goal: under 10 % growth from 1 to 10 minutes`,
    );
    sending = false;
    await traffic;
  } finally {
    sending = false;
    await browser.close();
    for (const id of policyIds) {
      await graphql(token, 'mutation ($id: ID!) { deletePolicy(id: $id) { version } }', { id });
    }
    if (keyId)
      await graphql(token, 'mutation ($id: ID!) { revokeApiKey(id: $id) { id } }', { id: keyId });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
