import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoUser } from '../src/seed';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { bearerLogin, checkWith, graphql as graphqlAs, graphqlData } from './support/console-steps';

// A tenant's overrides and policy versions in the console, on the real stack in Chromium: the demo
// tenant's admin creates, edits and deletes overrides (one refused beyond the plan's bounds), sees
// expired ones on request, compares versions, rolls one back (the data plane then decides with the
// value restored), exports and imports a document; a viewer gets no write buttons and the API
// refuses their writes. Every page checked by axe-core and photographed in both themes.
// each test drives several pages, axe-core on many: a budget, as the access spec's, that a
// busy machine cannot exhaust (a test that waits in vain fails on its own shorter deadline)
describe('the console’s overrides and policy versions', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let adminToken: string;
  let viewer: DemoUser;
  let viewerToken: string;

  const graphql = (query: string, variables: Record<string, unknown> = {}, token?: string) =>
    graphqlAs(stack, query, variables, token);
  const data = <T>(query: string, variables: Record<string, unknown>, token: string) =>
    graphqlData<T>(stack, query, variables, token);
  const login = (user: DemoUser) => bearerLogin(stack, user);

  /** What the data plane's check (a dry run) says of the burst rule for an identifier. */
  const burstLimit = async (identifier: string) => {
    const { body } = await checkWith(stack, stack.apiKey, {
      policy: 'api',
      identifier,
      dryRun: true,
    });
    return body.rules?.find((rule) => rule.name === 'burst')?.limit;
  };

  const overridesUrl = () => `${stack.dashboard}/t/${stack.tenantId}/overrides`;
  const versionsUrl = () => `${stack.dashboard}/t/${stack.tenantId}/versions`;

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
    adminToken = await login(stack.tenantAdmin);
    // a viewer of the demo tenant, invited by its admin as a person would be
    viewer = { email: 'viewer@demo.sluice.local', password: 'viewer password 42' };
    await data(
      `mutation ($tenantId: ID!, $email: String!) {
        inviteMember(input: { tenantId: $tenantId, email: $email, role: TENANT_VIEWER }) { id }
      }`,
      { tenantId: stack.tenantId, email: viewer.email },
      adminToken,
    );
    const mail = await stack.smtp.waitFor(viewer.email);
    const token = /\/invite\/([\w-]+)/.exec(mail.text)?.[1];
    viewerToken = (
      await data<{ acceptInvitation: { token: string } }>(
        `mutation ($token: String!, $password: String!) {
          acceptInvitation(input: { token: $token, name: "Demo Viewer", password: $password, transport: BEARER }) { token }
        }`,
        { token, password: viewer.password },
        '',
      )
    ).acceptInvitation.token;
    // a policy of the tenant's own, with a window an override may change
    await data(
      `mutation ($tenantId: ID!) {
        createPolicy(tenantId: $tenantId, input: {
          name: "reports", description: "Report exports",
          rules: [{ name: "hourly", algorithm: SLIDING_WINDOW_COUNTER, limit: 60, windowMs: 3600000 }]
        }) { version }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
  }, 180_000);
  afterAll(async () => {
    // the stack is stopped even when the browser's close fails (a crashed Chromium)
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  /** Opens the new-override dialog and fills who it applies to. */
  const newOverride = async (page: Page, policy: string, match: 'exact' | 'prefix', id: string) => {
    await page.getByRole('button', { name: 'New override' }).click();
    const dialog = page.getByRole('dialog', { name: 'New override' });
    await dialog.getByRole('combobox', { name: 'Policy' }).click();
    await page.getByRole('option', { name: policy, exact: false }).first().click();
    if (match === 'prefix')
      await dialog.getByLabel('Every identifier starting with a prefix').check();
    await dialog
      .getByRole('textbox', { name: match === 'prefix' ? 'Prefix' : 'Identifier' })
      .fill(id);
    return dialog;
  };

  it('a tenant admin creates, edits and deletes overrides, within the plan’s bounds', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(overridesUrl());
    await page.getByRole('heading', { name: 'Overrides' }).waitFor();
    await page.getByText('No overrides yet').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining(['Overview', 'Overrides', 'Versions']),
    );

    // beyond the free plan's bound (capacity 1..50): the API refuses it, on its field
    let dialog = await newOverride(page, 'api', 'exact', 'user_42');
    const capacity = dialog.getByRole('textbox', { name: 'Capacity' });
    await dialog.getByText('The plan allows 1 to 50.').waitFor();
    await capacity.fill('80');
    await dialog.getByRole('button', { name: 'Create the override' }).click();
    await dialog.getByText("must be at most 50 (the plan's bound)").waitFor();
    expect(await capacity.getAttribute('aria-invalid')).toBe('true');

    // within them, with an expiry
    await capacity.fill('40');
    await dialog.getByRole('button', { name: 'Expires' }).click();
    await page.getByRole('button', { name: 'In 7 days' }).click();
    await page.getByRole('button', { name: 'Set the expiry' }).click();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('a customer’s launch week');
    await dialog.getByRole('button', { name: 'Create the override' }).click();
    await page.getByText('The override of api for user_42 is created.').waitFor();
    const user42 = page.getByRole('row').filter({ hasText: 'user_42' });
    await user42.getByText('burst: capacity 40').waitFor();
    expect(await user42.getByText('never').count()).toBe(0);

    // a prefix
    dialog = await newOverride(page, 'api', 'prefix', 'premium_');
    await dialog.getByRole('textbox', { name: 'Capacity' }).fill('50');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('premium customers');
    await dialog.getByRole('button', { name: 'Create the override' }).click();
    const premium = page.getByRole('row').filter({ hasText: 'premium_*' });
    await premium.getByText('burst: capacity 50').waitFor();
    await premium.getByText('prefix', { exact: true }).waitFor();

    // edited
    await page.getByRole('button', { name: 'Edit the override for premium_* (api)' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit the override for premium_*' });
    await dialog.getByRole('textbox', { name: 'Capacity' }).fill('30');
    await dialog.getByRole('button', { name: 'Save the override' }).click();
    await premium.getByText('burst: capacity 30').waitFor();

    // a window of the tenant's own policy: confirmed first, then the counters reset are shown
    dialog = await newOverride(page, 'reports', 'prefix', 'batch_');
    await dialog.getByRole('textbox', { name: 'Window (ms)' }).fill('60000');
    await dialog.getByRole('button', { name: 'Create the override' }).click();
    await dialog.getByText('Counters will start afresh').waitFor();
    await dialog.getByText('hourly: window 1 hour → 1 minute').waitFor();
    await dialog.getByRole('button', { name: 'Change the window' }).click();
    const reset = page.getByRole('alert').filter({ hasText: 'These counters started afresh' });
    await reset.getByText('sliding_window_counter per 60000 ms').waitFor();
    expect(await reset.textContent()).toContain('reports › hourly for batch_*');

    // deleted
    await page.getByRole('button', { name: 'Delete the override for user_42 (api)' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete the override for user_42' });
    await dialog.getByRole('button', { name: 'Delete the override' }).click();
    await page.getByText('The override for user_42 is deleted.').waitFor();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'user_42' }).count(), { timeout: 10_000 })
      .toBe(0);
    tracked.expectClean();
  });

  it('lists expired overrides only when asked', async () => {
    // The API refuses an expiry in the past: 5 s ahead leaves a slow request room to arrive first.
    await data(
      `mutation ($tenantId: ID!, $expiresAt: DateTime!) {
        createOverride(input: { tenantId: $tenantId, policy: "api", identifier: "trial_user",
          rules: [{ name: "burst", capacity: 10 }], expiresAt: $expiresAt, reason: "trial" }) { version }
      }`,
      { tenantId: stack.tenantId, expiresAt: new Date(Date.now() + 5000).toISOString() },
      adminToken,
    );
    // then until the API itself counts it expired, rather than a guess of how long that takes
    const live = async () =>
      (
        await data<{ overrides: { nodes: { identifier: string }[] } }>(
          `query ($tenantId: ID!) {
            overrides(tenantId: $tenantId, search: "trial_user", includeExpired: false) {
              nodes { identifier }
            }
          }`,
          { tenantId: stack.tenantId },
          adminToken,
        )
      ).overrides.nodes;
    await expect.poll(live, { timeout: 30_000, interval: 250 }).toEqual([]);
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(`${overridesUrl()}?search=trial`);
    await page.getByText('No override matches').waitFor();
    await page.getByRole('switch', { name: 'Show expired' }).check();
    const trial = page.getByRole('row').filter({ hasText: 'trial_user' });
    await trial.getByText('expired', { exact: true }).waitFor();
    expect(page.url()).toContain('expired=true');
    // the filters are the URL's: a reload keeps them
    await page.reload();
    await trial.getByText('expired', { exact: true }).waitFor();
    tracked.expectClean();
  });

  it('compares two versions and rolls one back, which the data plane then applies', async () => {
    // two changes through the API: capacity 3, then 10
    const created = await data<{ createOverride: { version: number; override: { id: string } } }>(
      `mutation ($tenantId: ID!) {
        createOverride(input: { tenantId: $tenantId, policy: "api", identifier: "rollback_user",
          rules: [{ name: "burst", capacity: 3 }], reason: "rollback test" }) { version override { id } }
      }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
    const first = created.createOverride.version;
    const updated = await data<{ updateOverride: { version: number } }>(
      `mutation ($id: ID!) {
        updateOverride(id: $id, input: { rules: [{ name: "burst", capacity: 10 }] }) { version }
      }`,
      { id: created.createOverride.override.id },
      adminToken,
    );
    const second = updated.updateOverride.version;
    await expect.poll(() => burstLimit('rollback_user'), { timeout: 10_000 }).toBe(10);

    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(versionsUrl());
    await page.getByRole('heading', { name: 'Policy versions' }).waitFor();
    const latest = page.getByRole('row').filter({ hasText: 'current' });
    expect(await latest.getByRole('cell').first().textContent()).toContain(String(second));

    // by default the latest against the one before it: the capacity went from 3 to 10
    const diff = page.getByRole('table', { name: `The export of version ${first} compared` });
    await diff.locator('tr[data-kind="removed"]', { hasText: 'capacity: 3' }).waitFor();
    await diff.locator('tr[data-kind="added"]', { hasText: 'capacity: 10' }).waitFor();

    // any two versions, kept in the URL
    await page.getByRole('combobox', { name: 'From version' }).click();
    await page.getByRole('option', { name: `Version ${first - 1} ·` }).click();
    await page.waitForURL(new RegExp(`from=${first - 1}`));
    await page
      .getByRole('table', { name: `The export of version ${first - 1} compared` })
      .locator('tr[data-kind="added"]', { hasText: 'identifier: rollback_user' })
      .waitFor();

    // the rollback's effect first, then the rollback
    await page.getByRole('button', { name: `Roll back to version ${first}` }).click();
    const dialog = page.getByRole('dialog', { name: `Roll back to version ${first}` });
    await dialog.getByText('overrides.api.rollback_user', { exact: true }).waitFor();
    await dialog.locator('tr[data-kind="removed"]', { hasText: '"capacity": 10' }).waitFor();
    await dialog.locator('tr[data-kind="added"]', { hasText: '"capacity": 3' }).waitFor();
    await dialog.getByRole('button', { name: `Roll back to version ${first}` }).click();
    await page
      .getByText(`Version ${second + 1} is published with the configuration of version ${first}.`)
      .waitFor();
    const rolledBack = page.getByRole('row').filter({ hasText: 'current' });
    await rolledBack.getByText(`to version ${first}`).waitFor();
    await rolledBack.getByText('Demo Admin (you)').waitFor();
    await expect.poll(() => burstLimit('rollback_user'), { timeout: 10_000 }).toBe(3);
    tracked.expectClean();
  });

  it('exports the configuration, and imports a changed document after its dry run', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    await page.goto(versionsUrl());
    await page.getByRole('button', { name: 'Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'Download YAML' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('demo-policies.yaml');
    const exported = await readFile(await download.path(), 'utf8');
    expect(exported).toContain('format: sluice.dev/policies/v1');
    expect(exported).toMatch(/identifier: rollback_user\n\s+rules:\n\s+burst:\n\s+capacity: 3/);

    // beyond the plan's bound: refused, where it is in the document
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import policies' });
    const document = dialog.getByRole('textbox', { name: 'Document' });
    await document.fill(exported.replace(/(rollback_user[\s\S]*?capacity:) 3/, '$1 80'));
    await dialog.getByRole('button', { name: 'Preview the changes' }).click();
    const refused = dialog.getByRole('alert').filter({ hasText: 'The document was refused' });
    await refused.getByText('overrides › api rollback_user › rules › burst › capacity').waitFor();
    expect(await refused.textContent()).toMatch(/\(line \d+\): must be at most 50/);

    // within it, uploaded: the dry run's differences, then the import
    const changed = exported.replace(/(rollback_user[\s\S]*?capacity:) 3/, '$1 7');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      dialog.getByRole('button', { name: 'Upload a file…' }).click(),
    ]);
    await chooser.setFiles({
      name: 'demo-policies.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(changed),
    });
    await dialog.getByText('demo-policies.yaml').waitFor();
    await expect.poll(() => document.inputValue(), { timeout: 10_000 }).toBe(changed);
    const apply = dialog.getByRole('button', { name: 'Apply the import' });
    expect(await apply.isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Preview the changes' }).click();
    await dialog.getByText('1 change').waitFor();
    await dialog.locator('tr[data-kind="added"]', { hasText: '"capacity": 7' }).waitFor();
    await apply.click();
    await page.getByText(/The document is imported as version \d+\./).waitFor();
    await page.getByRole('row').filter({ hasText: 'current' }).getByText('import').waitFor();
    await expect.poll(() => burstLimit('rollback_user'), { timeout: 10_000 }).toBe(7);
    tracked.expectClean();
  });

  it('a viewer reads the pages without a write button, and the API refuses their writes', async () => {
    const tracked = await browser.signedIn(viewer);
    const { page } = tracked;
    await page.goto(overridesUrl());
    await page.getByRole('row').filter({ hasText: 'premium_*' }).waitFor();
    expect(await page.getByRole('button', { name: 'New override' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) the override/ }).count()).toBe(0);

    await page.goto(versionsUrl());
    // who made it, by the name the tenant's members know
    await page.getByRole('row').filter({ hasText: 'current' }).getByText('Demo Admin').waitFor();
    expect(await page.getByRole('button', { name: 'Import…' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Roll back/ }).count()).toBe(0);
    // reading is theirs: the comparison and the export
    await page.getByRole('table', { name: /^The export of version/ }).waitFor();
    await page.getByRole('button', { name: 'Export' }).waitFor();

    const refused = await graphql(
      `
        mutation ($tenantId: ID!) {
          createOverride(
            input: {
              tenantId: $tenantId
              policy: "api"
              identifier: "viewer_try"
              rules: [{ name: "burst", capacity: 5 }]
            }
          ) {
            version
          }
        }
      `,
      { tenantId: stack.tenantId },
      viewerToken,
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const rollback = await graphql(
      `
        mutation ($tenantId: ID!) {
          rollbackPolicies(tenantId: $tenantId, version: 1) {
            version
          }
        }
      `,
      { tenantId: stack.tenantId },
      viewerToken,
    );
    expect(rollback.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    tracked.expectClean();
  });

  it('an operator sets any parameter of a template, beyond the plan’s bounds', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await page.goto(overridesUrl());
    const dialog = await newOverride(page, 'api', 'exact', 'vip_1');
    // every parameter of the rules' algorithms, not only what the plan opens to the tenant
    await dialog.getByRole('textbox', { name: 'Refill per second' }).fill('25');
    await dialog.getByRole('textbox', { name: 'Limit' }).fill('5000');
    await dialog.getByRole('textbox', { name: 'Capacity' }).fill('80');
    await dialog.getByRole('button', { name: 'Create the override' }).click();
    const vip = page.getByRole('row').filter({ hasText: 'vip_1' });
    await vip.getByText('burst: capacity 80, refill 25/s').waitFor();
    await vip.getByText('daily: limit 5,000').waitFor();

    await page.goto(versionsUrl());
    await page
      .getByRole('row')
      .filter({ hasText: 'current' })
      .getByText('Demo Operator (you)')
      .waitFor();
    tracked.expectClean();
  });

  it.each<Scheme>(['light', 'dark'])('every page and dialog, accessible (%s)', async (scheme) => {
    const tracked = await browser.signedIn(stack.tenantAdmin, scheme);
    const { page } = tracked;
    await page.goto(overridesUrl());
    await page.getByRole('row').filter({ hasText: 'premium_*' }).waitFor();
    await expectAccessible(tracked, 'overrides');
    await screenshot(tracked, 'overrides');

    await page.getByRole('button', { name: 'Edit the override for premium_* (api)' }).click();
    await page.getByRole('dialog', { name: 'Edit the override for premium_*' }).waitFor();
    await expectAccessible(tracked, 'override-form');
    await screenshot(tracked, 'override-form');
    await page.keyboard.press('Escape');

    await page.goto(versionsUrl());
    await page.getByRole('table', { name: /^The export of version/ }).waitFor();
    await expectAccessible(tracked, 'versions');
    await screenshot(tracked, 'versions');

    // a version's changes: the comparison below the list, scrolled to
    const previous = page.getByRole('button', { name: /^Changes of version/ }).nth(1);
    await previous.click();
    const compareCard = page.locator('#compare');
    await compareCard.scrollIntoViewIfNeeded();
    await compareCard.locator('tr[data-kind]').first().waitFor();
    await screenshot(tracked, 'versions-compare');

    const rollbackButtons = page.getByRole('button', { name: /^Roll back to version/ });
    await rollbackButtons.nth(1).click();
    const dialog = page.getByRole('dialog', { name: /^Roll back to version/ });
    await dialog
      .getByText(/changes?$/)
      .first()
      .waitFor();
    await expectAccessible(tracked, 'rollback');
    await screenshot(tracked, 'rollback');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // a document with a change, previewed
    const { exportPolicies } = await data<{ exportPolicies: string }>(
      `query ($tenantId: ID!) { exportPolicies(tenantId: $tenantId, format: YAML) }`,
      { tenantId: stack.tenantId },
      adminToken,
    );
    await page.getByRole('button', { name: 'Import…' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import policies' });
    await importDialog
      .getByRole('textbox', { name: 'Document' })
      .fill(exportPolicies.replace(/(premium_[\s\S]*?capacity:) \d+/, '$1 45'));
    await importDialog.getByRole('button', { name: 'Preview the changes' }).click();
    await importDialog.getByText('1 change').waitFor();
    await expectAccessible(tracked, 'import');
    await screenshot(tracked, 'import');
    tracked.expectClean();
  });
});
