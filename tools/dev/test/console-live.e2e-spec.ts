import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoUser } from '../src/seed';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type TrackedPage,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import {
  acceptInvitation,
  bearerLogin,
  checkWith,
  graphqlData,
  inviteMember,
} from './support/console-steps';
import { chartTotal } from './support/live-chart';

/** The goal for a live view to show a check is 3 s; a test waits 5 times that. */
const LIVE_DEADLINE_MS = 15_000;
/** The breakdown is read again every 5 s; waited 5 times that. */
const BREAKDOWN_DEADLINE_MS = 25_000;
/** A removed member's stream is to end within 5 s; waited 5 times that. */
const REMOVAL_DEADLINE_MS = 25_000;

// The tenant overview's live traffic, on the real stack in Chromium: checks sent to the data plane
// show in the chart's figures without a reload, and why (the rule) beside it; a paused chart stays
// as it was while a live one (another viewer's) moves on, and catches up when resumed; the longer
// ranges come from the roll-ups and are kept in the URL; the most denied identifier opens its
// page; a member removed while watching sees the stream end. Every page ends with no console
// error and no failed request. The tests run in order.
describe('the tenant overview’s live traffic', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let admin: TrackedPage;
  let operator: TrackedPage;
  const overview = (path = '') => `${stack.dashboard}/t/${stack.tenantId}${path}`;

  /** The demo's `api` policy (a burst of 5, 1 more a second): denials after the 5th quick check. */
  const burst = async (identifier: string, count: number) => {
    let denied = 0;
    for (let i = 0; i < count; i += 1) {
      const { body } = await checkWith(stack, stack.apiKey, { policy: 'api', identifier });
      if (body.allowed === false) denied += 1;
    }
    return denied;
  };

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

  it('shows each policy and the checks sent to the data plane, without a reload', async () => {
    admin = await browser.signedIn(stack.tenantAdmin);
    const { page } = admin;
    await page.goto(overview());
    await page.getByRole('button', { name: /^api/ }).waitFor();
    await page.getByRole('button', { name: /^llm-tokens/ }).waitFor();
    const chart = page.getByRole('region', { name: 'Decisions of api' });
    await chart.getByText('live', { exact: true }).waitFor();
    const before = await chartTotal(page, 'api', 'denied');

    const denied = await burst('live-burst', 20);
    expect(denied).toBeGreaterThanOrEqual(10);
    await expect
      .poll(() => chartTotal(page, 'api', 'denied'), { timeout: LIVE_DEADLINE_MS })
      .toBe(before + denied);
    expect(await chartTotal(page, 'api', 'allowed')).toBeGreaterThanOrEqual(20 - denied);
    // why: every one of them by the burst rule, for the reason "rule"
    const why = page.getByRole('region', { name: 'Why api denied' });
    const byRule = why.getByRole('table', { name: 'Denied by rule' });
    await expect
      .poll(
        async () => (await byRule.getByRole('row', { name: /^burst/ }).allTextContents()).join(),
        {
          timeout: BREAKDOWN_DEADLINE_MS,
        },
      )
      .toMatch(new RegExp(`^burst${before + denied}100%$`));
    await why
      .getByRole('table', { name: 'Denied by reason' })
      .getByRole('row', { name: /^Rule/ })
      .waitFor();
    // the card reads the same minute
    await page
      .getByRole('button', { name: /^api/ })
      .getByText(/% denied · most by burst/)
      .waitFor();
    await expectAccessible(admin, 'overview');
    await screenshot(admin, 'overview');
    await why.scrollIntoViewIfNeeded();
    await screenshot(admin, 'overview-why-denied');
    admin.expectClean();
  });

  it('stays as it was while paused, as another viewer’s chart moves on, and catches up', async () => {
    operator = await browser.signedIn(stack.operator, 'dark');
    await operator.page.goto(overview());
    const witness = operator.page;
    await witness
      .getByRole('region', { name: 'Decisions of api' })
      .getByText('live', { exact: true })
      .waitFor();

    const { page } = admin;
    const chart = page.getByRole('region', { name: 'Decisions of api' });
    await page.getByRole('switch', { name: 'Live updates' }).click();
    await chart.getByText('paused', { exact: true }).waitFor();
    const paused = await chartTotal(page, 'api', 'denied');
    const seen = await chartTotal(witness, 'api', 'denied');

    const denied = await burst('live-paused', 10);
    expect(denied).toBeGreaterThanOrEqual(5);
    await expect
      .poll(() => chartTotal(witness, 'api', 'denied'), { timeout: LIVE_DEADLINE_MS })
      .toBeGreaterThanOrEqual(seen + denied);
    expect(await chartTotal(page, 'api', 'denied')).toBe(paused);

    await page.getByRole('switch', { name: 'Live updates' }).click();
    await chart.getByText('live', { exact: true }).waitFor();
    await expect
      .poll(() => chartTotal(page, 'api', 'denied'), { timeout: LIVE_DEADLINE_MS })
      .toBe(paused + denied);
    await expectAccessible(operator, 'overview');
    await screenshot(operator, 'overview');
    // the heaviest identifiers, in the dark theme: the paused burst's among them
    const heaviest = witness.getByRole('table', { name: 'Heaviest identifiers of api' });
    await heaviest
      .getByRole('row', { name: /^live-paused/ })
      .waitFor({ timeout: BREAKDOWN_DEADLINE_MS });
    await heaviest.scrollIntoViewIfNeeded();
    await screenshot(operator, 'overview-top-identifiers');
    admin.expectClean();
    operator.expectClean();
  });

  it('reads longer ranges from the roll-ups, the range kept in the URL', async () => {
    const { page } = admin;
    await page
      .locator('label')
      .filter({ hasText: /^Hour$/ })
      .click();
    await page.waitForURL(/[?&]range=1h/);
    const chart = page.getByRole('region', { name: 'Decisions of api' });
    await chart.getByText('Over the last hour, per minute.').waitFor();
    await chart.getByText(/^In total: /).waitFor();
    await expect(page.getByRole('switch', { name: 'Live updates' }).count()).resolves.toBe(0);

    await page.reload();
    await page
      .getByRole('region', { name: 'Decisions of api' })
      .getByText('Over the last hour, per minute.')
      .waitFor();
    await page
      .locator('label')
      .filter({ hasText: /^15 min$/ })
      .click();
    await chart.getByText('Over the last 15 minutes, per second.').waitFor();

    // who spent: the burst's identifier among the heaviest, with each rule's quota used now
    const heaviest = page.getByRole('table', { name: 'Heaviest identifiers of api' });
    const heavyRow = heaviest.getByRole('row', { name: /^live-burst/ });
    await heavyRow.waitFor({ timeout: BREAKDOWN_DEADLINE_MS });
    await heavyRow
      .getByText(/^\d+\s?% used/)
      .first()
      .waitFor();
    expect(await heavyRow.getByText('daily').count()).toBe(1);
    await heaviest.scrollIntoViewIfNeeded();
    await screenshot(admin, 'overview-top-identifiers');
    // who was denied: the burst's identifier first, ranked so in the URL, each opening its page
    await page
      .locator('label')
      .filter({ hasText: /^Most denied$/ })
      .click();
    await page.waitForURL(/[?&]top=denied/);
    const mostDenied = page.getByRole('table', { name: 'Most denied identifiers of api' });
    const burstRow = mostDenied.getByRole('row', { name: /^live-burst/ });
    await burstRow.waitFor({ timeout: BREAKDOWN_DEADLINE_MS });
    expect(await mostDenied.getByRole('row').nth(1).textContent()).toMatch(/^live-burst/);
    await burstRow.getByRole('link', { name: 'live-burst' }).click();
    await page.waitForURL(/\/identifier\?policy=api&identifier=live-burst/);
    await page.getByRole('heading', { name: 'live-burst', exact: true, level: 2 }).waitFor();
    const decisions = page.getByRole('region', { name: 'Recent decisions' });
    await decisions.getByText('denied', { exact: true }).first().waitFor();
    admin.expectClean();
  });

  it('ends a removed member’s live view', async () => {
    const viewer: DemoUser = { email: 'vera@demo.test', password: 'viewer password 1' };
    await inviteMember(admin.page, overview(), viewer.email, 'Viewer');
    const watching = await acceptInvitation(stack, browser, {
      user: viewer,
      name: 'Vera',
      tenantName: 'Demo Inc.',
      tenantUrl: overview(),
    });
    const chart = watching.page.getByRole('region', { name: 'Decisions of api' });
    await chart.getByText('live', { exact: true }).waitFor();

    const adminToken = await bearerLogin(stack, stack.tenantAdmin);
    const viewerToken = await bearerLogin(stack, viewer);
    const { me } = await graphqlData<{ me: { id: string } }>(
      stack,
      'query { me { id } }',
      {},
      viewerToken,
    );
    await graphqlData(
      stack,
      'mutation ($tenantId: ID, $userId: ID!) { removeMember(tenantId: $tenantId, userId: $userId) }',
      { tenantId: stack.tenantId, userId: me.id },
      adminToken,
    );
    await chart
      .getByRole('alert')
      .filter({ hasText: 'Live updates stopped' })
      .waitFor({ timeout: REMOVAL_DEADLINE_MS });
    await chart.getByText('stopped', { exact: true }).waitFor();
    await expectAccessible(watching, 'overview, stream ended');
    await screenshot(watching, 'overview-stopped');
    watching.expectClean();
  });
});
