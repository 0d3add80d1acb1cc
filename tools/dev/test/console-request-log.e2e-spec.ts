import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type TrackedPage,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { checkWith } from './support/console-steps';

/** A live tail reads the newest entries every 2 s; a test waits 5 times that. */
const TAIL_DEADLINE_MS = 10_000;
/** An override reaches the data plane within 2 s (bench/src/policy-propagation.ts); waited 5 times that. */
const OVERRIDE_DEADLINE_MS = 10_000;

// The request log on the real stack in Chromium: a tenant admin filters the demo's `api` decisions
// by identifier (exact, then prefix) and outcome, the filters kept in the URL; opens a denial and
// reads why (the rule, each rule's figures, the headers the caller got); creates an override for
// that identifier from it, and the identifier's next check is allowed under the override's
// limit; opens the identifier's page from the log (its state now, the override, its decisions)
// and an operator resets its counters; a live tail shows a new decision without a reload. Every page ends with no console error
// and no failed request. The tests run in order.
describe('the request log', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let admin: TrackedPage;
  const tenantUrl = (path: string) => `${stack.dashboard}/t/${stack.tenantId}${path}`;
  const check = (identifier: string) =>
    checkWith(stack, stack.apiKey, { policy: 'api', identifier });
  /** The identifiers of the rows shown. */
  const shownIdentifiers = async () => {
    const cells = admin.page.locator('tbody tr td:nth-child(2)');
    return cells.allTextContents();
  };

  beforeAll(async () => {
    stack = await startConsoleStack({ logEveryAllow: true });
    browser = await ConsoleBrowser.launch(stack.dashboard);
    // the demo's api policy lets a burst of 5 through, then 1 a second: each of these is allowed,
    // then denied a few times (this stack logs every allow, not 1 in 100)
    // (each answered: a refused key would leave the log without them)
    for (let i = 0; i < 12; i += 1) expect((await check('log-abuser')).status).toBe(200);
    for (const who of ['log-other', 'org-7:a', 'org-7:b']) {
      for (let i = 0; i < 8; i += 1) expect((await check(who)).status).toBe(200);
    }
  }, 180_000);
  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  it('filters by identifier, exact or prefix, and outcome, the filters kept in the URL', async () => {
    admin = await browser.signedIn(stack.tenantAdmin);
    const { page } = admin;
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Request log' })
      .click();
    await page.getByRole('heading', { name: 'Request log', level: 1 }).waitFor();
    await page.getByRole('cell', { name: 'org-7:b', exact: true }).first().waitFor();

    await page.getByRole('textbox', { name: 'Identifier' }).fill('log-abuser');
    await page.waitForURL(/[?&]identifier=log-abuser/);
    await expect.poll(shownIdentifiers).not.toContain('log-other');
    const abuser = await shownIdentifiers();
    expect(abuser.length).toBe(12);
    // its 5 allowed checks and its denials
    expect(
      await page.locator('tbody tr').getByText('allowed', { exact: true }).count(),
    ).toBeGreaterThanOrEqual(5);
    expect(new Set(abuser)).toEqual(new Set(['log-abuser']));

    await page.getByRole('combobox', { name: 'Outcome' }).click();
    await page.getByRole('option', { name: 'Denied' }).click();
    await page.waitForURL(/[?&]outcome=DENIED/);
    await expect.poll(() => page.locator('tbody tr').getByText('allowed').count()).toBe(0);
    const denied = await page.locator('tbody tr').getByText('denied', { exact: true }).count();
    expect(denied).toBeGreaterThanOrEqual(6);
    expect(denied).toBeLessThanOrEqual(abuser.length);

    // the URL is the view: a reload shows the same
    await page.reload();
    await page.getByRole('cell', { name: 'log-abuser', exact: true }).first().waitFor();
    expect(await page.getByRole('textbox', { name: 'Identifier' }).inputValue()).toBe('log-abuser');
    expect(await page.locator('tbody tr').getByText('denied', { exact: true }).count()).toBe(
      denied,
    );

    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.getByRole('textbox', { name: 'Identifier' }).fill('org-7:');
    await page.getByText('Prefix', { exact: true }).click();
    await page.waitForURL(/[?&]match=prefix/);
    await expect
      .poll(async () => new Set(await shownIdentifiers()))
      .toEqual(new Set(['org-7:a', 'org-7:b']));
    await expectAccessible(admin, 'request log');
    await screenshot(admin, 'request-log');
    admin.expectClean();
  });

  it('explains a denial and creates an override from it: the next check is allowed', async () => {
    const { page } = admin;
    await page.goto(tenantUrl('/log?identifier=log-abuser&outcome=DENIED'));
    await page
      .getByRole('button', { name: /^Open the decision of .* for log-abuser$/ })
      .first()
      .click();
    const drawer = page.getByRole('dialog', { name: 'Decision for log-abuser' });
    await drawer.getByText('The rule that denied: burst.', { exact: false }).waitFor();
    const burst = drawer.getByRole('row').filter({ hasText: 'burst' });
    await burst.getByText('no', { exact: true }).waitFor();
    await burst.getByText(/of 5$/).waitFor();
    const headers = (await drawer.locator('pre').textContent()) ?? '';
    expect(headers).toMatch(/X-RateLimit-Limit: 5/i);
    expect(headers).toMatch(/Retry-After: \d+/i);
    await expectAccessible(admin, 'request log entry');
    await screenshot(admin, 'request-log-entry');

    await drawer.getByRole('link', { name: 'Create an override for log-abuser' }).click();
    await page.waitForURL(/\/overrides\?/);
    const dialog = page.getByRole('dialog', { name: 'New override' });
    expect(await dialog.getByRole('textbox', { name: 'Identifier' }).inputValue()).toBe(
      'log-abuser',
    );
    await dialog.getByRole('textbox', { name: 'Capacity' }).fill('50');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('from the request log');
    await dialog.getByRole('button', { name: 'Create the override' }).click();
    await page.getByText('The override of api for log-abuser is created.').waitFor();
    // the form was the URL's: it is not asked for again
    expect(new URL(page.url()).searchParams.has('new')).toBe(false);

    // the data plane decides under the override (a burst of 50), and lets the next check through
    await expect
      .poll(
        async () => {
          const { body } = await checkWith(stack, stack.apiKey, {
            policy: 'api',
            identifier: 'log-abuser',
            dryRun: true,
          });
          return body.rules?.find((r) => r.name === 'burst')?.limit;
        },
        { timeout: OVERRIDE_DEADLINE_MS },
      )
      .toBe(50);
    const next = await check('log-abuser');
    expect(next.body.allowed).toBe(true);
    admin.expectClean();
  });

  it("opens the identifier's page from a decision: its state now, the override that applies, its decisions", async () => {
    const { page } = admin;
    await page.goto(tenantUrl('/log?identifier=log-abuser&outcome=DENIED'));
    await page
      .getByRole('button', { name: /^Open the decision of .* for log-abuser$/ })
      .first()
      .click();
    const drawer = page.getByRole('dialog', { name: 'Decision for log-abuser' });
    await drawer.getByRole('link', { name: "Open log-abuser's page" }).click();
    await page.waitForURL(/\/identifier\?policy=api&identifier=log-abuser/);
    await page.getByRole('heading', { name: 'log-abuser', level: 2 }).waitFor();

    // each rule as the data plane holds it: the daily window (no refill) as a peek reads it
    const { body } = await checkWith(stack, stack.apiKey, {
      policy: 'api',
      identifier: 'log-abuser',
      cost: 0,
    });
    const daily = body.rules?.find((r) => r.name === 'daily');
    expect(daily?.limit).toBe(1000);
    const now = page.getByRole('region', { name: 'Now' });
    await now
      .getByRole('row', { name: /^daily/ })
      .filter({ hasText: `${(daily?.remaining ?? -1).toLocaleString('en-US')} of 1,000` })
      .waitFor();
    // the override created from the log applies: a burst of 50
    await now
      .getByRole('row', { name: /^burst/ })
      .filter({ hasText: / of 50(?![\d,])/ })
      .waitFor();
    await now.getByText('An override applies: log-abuser.', { exact: false }).waitFor();
    const overrides = page.getByRole('table', { name: 'Overrides that match' });
    const row = overrides.getByRole('row').filter({ hasText: 'burst: capacity 50' });
    await row.getByText('applies now').waitFor();
    await row.getByText('from the request log').waitFor();
    // its denials before the override, in its recent decisions
    const decisions = page.getByRole('region', { name: 'Recent decisions' });
    await decisions.getByText('denied', { exact: true }).first().waitFor();

    // the demo's plan leaves resets to operators: the admin is told so, and has no button
    await page.getByText('Resetting counters is left to operators on your plan').waitFor();
    expect(await page.getByRole('button', { name: 'Reset counters' }).count()).toBe(0);
    await expectAccessible(admin, 'identifier page');
    // the dark screenshot shows the top of the page (after a reset); this one what follows it
    await page.getByRole('region', { name: 'Overrides that match' }).evaluate((region) => {
      // clear of the sticky header
      region.style.scrollMarginTop = '76px';
      region.scrollIntoView({ block: 'start' });
    });
    await screenshot(admin, 'identifier-overrides');
    admin.expectClean();
  });

  it("lets an operator reset an identifier's counters: its next check starts on a full quota", async () => {
    const operator = await browser.signedIn(stack.operator, 'dark');
    const { page } = operator;
    // opened bare, the page asks which identifier; a policy the tenant lacks is said so
    await page.goto(tenantUrl('/identifier'));
    await page.getByText('Which identifier?').waitFor();
    await screenshot(operator, 'identifier-empty');
    await page.goto(tenantUrl('/identifier?policy=nope&identifier=log-abuser'));
    await page.getByText('The tenant has no published policy of this name.').waitFor();
    await screenshot(operator, 'identifier-unknown-policy');
    await page.goto(tenantUrl('/identifier?policy=api&identifier=log-abuser'));
    await page.getByRole('heading', { name: 'log-abuser', level: 2 }).waitFor();
    await page.getByRole('button', { name: 'Reset counters' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset the counters of log-abuser' });
    await dialog.getByRole('button', { name: 'Reset the counters' }).click();
    await page
      .getByText(/^log-abuser starts afresh under api \(\d+ counter keys? deleted\)\.$/)
      .waitFor();
    const now = page.getByRole('region', { name: 'Now' });
    await now
      .getByRole('row', { name: /^daily/ })
      .filter({ hasText: '1,000 of 1,000' })
      .waitFor();
    await now
      .getByRole('row', { name: /^burst/ })
      .filter({ hasText: '50 of 50' })
      .waitFor();
    await expectAccessible(operator, 'identifier page, after a reset');
    await screenshot(operator, 'identifier');

    const next = await check('log-abuser');
    expect(next.body.rules?.find((r) => r.name === 'daily')?.remaining).toBe(999);
    operator.expectClean();
  });

  it('tails the newest decisions without a reload', async () => {
    const operator = await browser.signedIn(stack.operator, 'dark');
    const { page } = operator;
    await page.goto(tenantUrl('/log'));
    await page.getByRole('cell', { name: 'log-abuser', exact: true }).first().waitFor();
    await page.getByRole('switch', { name: 'Live tail' }).click();
    await page.waitForURL(/[?&]live=true/);
    // denials are always logged: a burst past the limit makes some
    for (let i = 0; i < 8; i += 1) await check('log-tail');
    await page
      .getByRole('cell', { name: 'log-tail', exact: true })
      .first()
      .waitFor({ timeout: TAIL_DEADLINE_MS });
    await expectAccessible(operator, 'request log, live');
    await screenshot(operator, 'request-log');
    operator.expectClean();
  });
});
