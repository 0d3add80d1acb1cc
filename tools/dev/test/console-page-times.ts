/**
 * How long each console page takes to show its data, on the demo `npm start` runs: a script that
 * prints figures (the suite asserts none). With `npm start` running in another terminal:
 *
 *   npx tsx tools/dev/test/console-page-times.ts [--dashboard http://127.0.0.1:3000] [--rounds 5]
 *
 * Each page is loaded afresh (a new document: the server answers, the app hydrates, its queries
 * run) and timed until its heading shows and no loader is left on it. Signs in as the demo's
 * operator (the platform's pages) and tenant admin (the demo tenant's pages) with the passwords
 * `npm start` keeps in `.data/`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '@sluice/testing';
import type { Page } from 'playwright-core';
import { dataDir } from '../src/paths';
import { DEMO_ADMIN_EMAIL, DEMO_OPERATOR_EMAIL, type DemoUser } from '../src/seed';
import { signIn } from './support/sign-in';

const OPERATOR_PAGES = ['/tenants', '/plans', '/users', '/audit', '/platform', '/account'];
const TENANT_PAGES = ['', '/policies', '/overrides', '/versions', '/keys', '/webhooks', '/members'];

const { values } = parseArgs({
  options: {
    dashboard: { type: 'string', default: 'http://127.0.0.1:3000' },
    rounds: { type: 'string', default: '5' },
  },
});
const dashboard = values.dashboard.replace(/\/$/, '');
const rounds = Number(values.rounds);

async function demoUser(email: string, file: string): Promise<DemoUser> {
  return { email, password: (await readFile(join(dataDir, file), 'utf8')).trim() };
}

/** Ms from asking for `url` until its h1 shows and nothing on the page is loading. */
async function timeLoad(page: Page, url: string): Promise<number> {
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('h1').first().waitFor();
  await page.locator('[aria-label="Loading"]').first().waitFor({ state: 'detached' });
  return performance.now() - started;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const rows: { page: string; median: number; max: number }[] = [];
  try {
    const measure = async (
      user: DemoUser,
      paths: string[],
      base: (page: Page) => Promise<string>,
    ) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await signIn(page, dashboard, user);
      const prefix = await base(page);
      for (const path of paths) {
        const url = `${prefix}${path}`;
        await timeLoad(page, url); // warm: the first visit compiles nothing, but fills caches
        const times: number[] = [];
        for (let i = 0; i < rounds; i += 1) times.push(await timeLoad(page, url));
        times.sort((a, b) => a - b);
        rows.push({
          page: url.slice(dashboard.length).replace(/^\/t\/[^/]+/, '/t/<demo>') || '/',
          median: quantile(times, 0.5),
          max: times.at(-1)!,
        });
      }
      await context.close();
    };
    await measure(
      await demoUser(DEMO_OPERATOR_EMAIL, 'demo-operator-password'),
      OPERATOR_PAGES,
      () => Promise.resolve(dashboard),
    );
    // the admin lands on their tenant's overview: its URL names the tenant
    await measure(
      await demoUser(DEMO_ADMIN_EMAIL, 'demo-admin-password'),
      TENANT_PAGES,
      async (page) => {
        await page.waitForURL(/\/t\/[^/]+$/);
        return page.url();
      },
    );
  } finally {
    await browser.close();
  }
  console.log(`${'page'.padEnd(24)}median ms   max ms   (${rounds} loads each)`);
  for (const row of rows) {
    console.log(
      `${row.page.padEnd(24)}${row.median.toFixed(0).padStart(9)}${row.max.toFixed(0).padStart(9)}`,
    );
  }
  const worst = Math.max(...rows.map((r) => r.max));
  console.log(`slowest load: ${worst.toFixed(0)} ms (goal: every page within 1,000 ms)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
