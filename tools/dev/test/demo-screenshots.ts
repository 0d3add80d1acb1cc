/**
 * The console's live views with the demo's traffic, as docs/screenshots/ shows them: a script (not
 * part of the suite). With `npm start` running in another terminal, its demo traffic on, for a few
 * minutes (so the worker has rolled some minutes up and the webhook queues have a history):
 *
 *   npx tsx tools/dev/test/demo-screenshots.ts [--dashboard http://127.0.0.1:3000]
 *     [--out docs/screenshots]
 *
 * Signs in as the demo tenant's admin and as the demo operator (passwords from `.data/`), opens
 * each view in both colour schemes at 1280×800 and writes `demo-<view>-<scheme>.png`. Each shot
 * waits for the view's data (its heading and, where it has one, its table or total), never for a
 * fixed figure: the traffic is random.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from '@sluice/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { dataDir, repoRoot } from '../src/paths';
import { DEMO_ADMIN_EMAIL, DEMO_FAILING_ENDPOINT, DEMO_OPERATOR_EMAIL } from '../src/seed';
import { signIn } from './support/sign-in';

const { values } = parseArgs({
  options: {
    dashboard: { type: 'string', default: 'http://127.0.0.1:3000' },
    out: { type: 'string', default: join(repoRoot, 'docs/screenshots') },
  },
});
const dashboard = values.dashboard.replace(/\/$/, '');
const out = resolve(values.out);
const SCHEMES = ['light', 'dark'] as const;
/** Charts draw and live figures arrive within this after their data (ms). */
const SETTLE_MS = 1500;

interface Shot {
  name: string;
  /** Opens the view and returns what to bring into view before the shot (or the page's top). */
  open: (page: Page, tenantPath: string) => Promise<Locator | undefined>;
}

/** Waits for the page's heading and for every loader on it to be gone. */
async function loaded(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await page.locator('[aria-label="Loading"]').first().waitFor({ state: 'detached' });
}

/** The tenant overview with `policy` chosen, once its chart has its total. */
function overview(policy: string): Shot['open'] {
  return async (page, tenant) => {
    await page.goto(`${tenant}?policy=${policy}`);
    await loaded(page);
    await page
      .getByText(/^In total: /)
      .first()
      .waitFor();
    return undefined;
  };
}

const TENANT_SHOTS: Shot[] = [
  { name: 'demo-overview', open: overview('api') },
  {
    name: 'demo-why-denied',
    open: async (page) => {
      const region = page.getByRole('region', { name: 'Why api denied' });
      await region.getByRole('table').first().waitFor();
      return region;
    },
  },
  {
    name: 'demo-top-identifiers',
    open: async (page) => {
      const region = page.getByRole('region', { name: /identifiers of api$/ });
      await region.getByRole('row').nth(1).waitFor();
      return region;
    },
  },
  { name: 'demo-overview-llm', open: overview('llm-tokens') },
  {
    name: 'demo-identifier',
    open: async (page, tenant) => {
      await page.goto(`${tenant}/identifier?policy=api&identifier=demo-scraper-1`);
      await loaded(page);
      return undefined;
    },
  },
  {
    name: 'demo-request-log',
    open: async (page, tenant) => {
      await page.goto(`${tenant}/log?policy=api`);
      await loaded(page);
      await page.getByRole('table').first().getByRole('row').nth(1).waitFor();
      return undefined;
    },
  },
  {
    name: 'demo-try-in-shadow',
    open: async (page, tenant) => {
      await page.goto(`${tenant}/policies`);
      await loaded(page);
      await page.getByRole('button', { name: 'Try in shadow llm-tokens' }).click();
      const dialog = page.getByRole('dialog', { name: 'Try new values for llm-tokens in shadow' });
      // a quarter of the plan's burst: the heavy assistant's minutes go over it
      await dialog.getByRole('textbox', { name: 'Capacity' }).fill('5000');
      await dialog
        .getByRole('table', { name: 'Against the last 15 minutes' })
        .getByRole('row')
        .filter({ hasText: 'tokens-trial' })
        .waitFor();
      return undefined;
    },
  },
  {
    name: 'demo-playground',
    open: async (page, tenant) => {
      await page.goto(`${tenant}/playground?policy=api&identifier=demo-scraper-1`);
      await page.getByRole('textbox', { name: 'Checks' }).fill('8');
      await page.getByRole('button', { name: 'Fire 8 checks' }).click();
      await page.getByRole('heading', { name: 'Check 8' }).waitFor();
      return undefined;
    },
  },
  {
    name: 'demo-webhook-queue',
    open: async (page, tenant) => {
      await page.goto(`${tenant}/webhooks`);
      await loaded(page);
      await page.getByRole('link', { name: DEMO_FAILING_ENDPOINT }).click();
      await page.getByRole('region', { name: 'Dead letters' }).waitFor();
      await loaded(page);
      return undefined;
    },
  },
];

const OPERATOR_SHOTS: Shot[] = [
  {
    name: 'demo-platform',
    open: async (page) => {
      await page.goto(`${dashboard}/platform`);
      await loaded(page);
      await page.getByRole('table', { name: 'Data planes' }).getByText('live').first().waitFor();
      return undefined;
    },
  },
  {
    name: 'demo-platform-services',
    open: async (page) => page.getByRole('table', { name: 'Data planes' }),
  },
];

async function shoot(
  browser: Browser,
  email: string,
  passwordFile: string,
  shots: Shot[],
  landsOnTenant: boolean,
): Promise<string[]> {
  const password = (await readFile(join(dataDir, passwordFile), 'utf8')).trim();
  const written: string[] = [];
  for (const scheme of SCHEMES) {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: scheme,
    });
    const page = await context.newPage();
    await signIn(page, dashboard, { email, password });
    // a tenant admin lands on their tenant's overview (from the start page): its URL names it
    if (landsOnTenant) await page.waitForURL(/\/t\/[^/?]+/);
    const tenant = page.url().match(/^(.*\/t\/[^/?]+)/)?.[1] ?? dashboard;
    for (const shot of shots) {
      const target = await shot.open(page, tenant);
      if (target) await target.scrollIntoViewIfNeeded();
      else await page.evaluate('window.scrollTo(0, 0)');
      await page.waitForTimeout(SETTLE_MS);
      const file = join(out, `${shot.name}-${scheme}.png`);
      await page.screenshot({ path: file });
      written.push(file);
    }
    await context.close();
  }
  return written;
}

async function main(): Promise<void> {
  await mkdir(out, { recursive: true });
  const browser = await launchChromium();
  try {
    const written = [
      ...(await shoot(browser, DEMO_ADMIN_EMAIL, 'demo-admin-password', TENANT_SHOTS, true)),
      ...(await shoot(
        browser,
        DEMO_OPERATOR_EMAIL,
        'demo-operator-password',
        OPERATOR_SHOTS,
        false,
      )),
    ];
    for (const file of written) console.log(`wrote ${file}`);
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
