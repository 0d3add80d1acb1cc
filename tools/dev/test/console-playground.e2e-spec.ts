import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type TrackedPage,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { checkWith } from './support/console-steps';
import { chartTotal } from './support/live-chart';

/** The goal for a live view to show a check is 3 s; a test waits 5 times that. */
const LIVE_DEADLINE_MS = 15_000;

// The playground on the real stack in Chromium: a burst fired from it is decided by the engine the
// data plane runs (the demo's `api` policy, a burst of 5), each decision shows the headers
// /v1/check sends, and the denials reach another viewer's live chart without a reload. Scratch
// identifiers leave the real one's quota alone; a peek spends nothing. The tests run in order.
describe('the playground', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let admin: TrackedPage;
  let operator: TrackedPage;
  const tenantPage = (path = '') => `${stack.dashboard}/t/${stack.tenantId}${path}`;

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
  }, 180_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  it('fires a burst whose denials show in the live chart within seconds, each with its headers', async () => {
    operator = await browser.signedIn(stack.operator, 'dark');
    const watching = operator.page;
    await watching.goto(tenantPage('?policy=api'));
    const chart = watching.getByRole('region', { name: 'Decisions of api' });
    await chart.getByText('live', { exact: true }).waitFor();
    const before = await chartTotal(watching, 'api', 'denied');

    admin = await browser.signedIn(stack.tenantAdmin);
    const { page } = admin;
    await page.goto(tenantPage('/playground?policy=api&identifier=pg-user'));
    await page.getByRole('textbox', { name: 'Identifier' }).waitFor();
    await page.getByText('Checked as playground:pg-user').waitFor();
    await page.getByRole('textbox', { name: 'Checks' }).fill('20');
    await page.getByText('All at once (burst)').click();
    await page.getByRole('button', { name: 'Fire 20 checks' }).click();

    const summary = page.getByRole('status').filter({ hasText: 'playground:pg-user' });
    await summary.waitFor();
    expect(await summary.textContent()).toMatch(/^5 allowed, 15 denied for playground:pg-user in /);
    const decisions = page.getByRole('table', { name: 'Decisions' });
    expect(await decisions.getByRole('row').count()).toBe(21);
    // the last decision opens by itself: a denial by the burst rule, with what the caller is told
    await page.getByRole('heading', { name: 'Check 20' }).waitFor();
    await page.getByText('The rule that denied: burst.', { exact: false }).waitFor();
    await page.getByRole('heading', { name: 'Response: 200, in gateway mode 429' }).waitFor();
    const headers = (await page.locator('pre').first().textContent()) ?? '';
    expect(headers).toMatch(/^X-RateLimit-Limit: 5$/m);
    expect(headers).toMatch(/^X-RateLimit-Remaining: 0$/m);
    expect(headers).toMatch(/^Retry-After: \d+$/m);
    expect(headers).toMatch(/^RateLimit-Policy: "burst";q=5;w=\d+/m);
    await page.getByText(/^Gateway mode's problem\+json says: “Rate limit of 5 requests/).waitFor();
    // the first one passed
    await decisions.getByRole('button', { name: 'Check 1', exact: true }).click();
    await page.getByRole('heading', { name: 'Response: 200, in gateway mode 200' }).waitFor();
    expect(await page.locator('pre').first().textContent()).toMatch(/^X-RateLimit-Remaining: 4$/m);

    // another viewer's live chart counts the 15 denials without a reload
    await expect
      .poll(() => chartTotal(watching, 'api', 'denied'), { timeout: LIVE_DEADLINE_MS })
      .toBe(before + 15);

    // the first denial, as the screenshot shows it
    await decisions.getByRole('button', { name: 'Check 6', exact: true }).click();
    await page.getByRole('heading', { name: 'Check 6' }).waitFor();
    await expectAccessible(admin, 'playground');
    await screenshot(admin, 'playground');
    admin.expectClean();
    operator.expectClean();
  });

  it('spends no real quota on scratch identifiers, and a peek spends nothing', async () => {
    const real = await checkWith(stack, stack.apiKey, { policy: 'api', identifier: 'pg-user' });
    expect(real.body).toMatchObject({ allowed: true, remaining: 4 });

    // the daily rule (no refill within the test) shows what was spent: 5 on the scratch
    // identifier (denials charge nothing), 1 on the real one; peeking twice changes neither
    const { page } = admin;
    const daily = page.getByRole('row', { name: /^daily/ });
    for (let i = 0; i < 2; i += 1) {
      await page.getByRole('button', { name: 'Peek' }).click();
      await page.getByRole('heading', { name: /^playground:pg-user now/ }).waitFor();
      await daily.filter({ hasText: '995 of 1,000' }).waitFor();
    }

    await page.getByRole('switch', { name: "Spend a real identifier's quota" }).click();
    await page.getByText('These checks spend real quota').waitFor();
    await page.getByText('A real caller: its own quota.').waitFor();
    await page.getByRole('button', { name: 'Peek' }).click();
    await page.getByRole('heading', { name: /^pg-user now/ }).waitFor();
    await daily.filter({ hasText: '999 of 1,000' }).waitFor();
    admin.expectClean();
  });

  it('lets an operator fire too, in dark mode', async () => {
    const { page } = operator;
    await page.goto(tenantPage('/playground?policy=api&identifier=pg-dark'));
    await page.getByRole('textbox', { name: 'Checks' }).fill('3');
    await page.getByRole('button', { name: 'Fire 3 checks' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^3 allowed, 0 denied for playground:pg-dark/ })
      .waitFor();
    await expectAccessible(operator, 'playground');
    await screenshot(operator, 'playground');
    operator.expectClean();
  });

  it('compares the algorithms on a spike around a window edge, as the reference models give', async () => {
    const { page } = admin;
    await page.getByRole('tab', { name: 'Compare algorithms' }).click();
    await page.waitForURL(/[?&]tab=compare/);
    const table = page.getByRole('table', { name: 'Most admitted in any window' });
    // the default: 10 per 10 s, the spike around an edge
    await table.getByRole('row', { name: /^fixed window/ }).waitFor();
    await page.getByRole('textbox', { name: 'Limit per window' }).fill('100');
    await page.getByRole('textbox', { name: 'Window (seconds)' }).fill('60');
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.waitForURL(/[?&]limit=100/);
    await page.getByText('Of 200 arrivals, at 100 per 60 s.').waitFor();
    /** The row's last cell, "2.00×". */
    const ratio = async (algorithm: string) => {
      const row = table.getByRole('row', { name: new RegExp(`^${algorithm}`) });
      return Number((await row.getByRole('cell').last().textContent())?.replace('×', ''));
    };
    expect(await ratio('fixed window')).toBeGreaterThanOrEqual(1.9);
    expect(await ratio('sliding window log')).toBe(1);
    expect(await ratio('sliding window counter')).toBe(1);
    await expectAccessible(admin, 'playground-compare');
    await screenshot(admin, 'playground-compare');

    // shared by its URL: the same replay in another's dark console
    await operator.page.goto(page.url());
    await operator.page
      .getByRole('table', { name: 'Most admitted in any window' })
      .getByRole('row', { name: /^fixed window/ })
      .waitFor();
    await operator.page.getByText('Of 200 arrivals, at 100 per 60 s.').waitFor();
    await expectAccessible(operator, 'playground-compare');
    await screenshot(operator, 'playground-compare');
    admin.expectClean();
    operator.expectClean();
  });
});
