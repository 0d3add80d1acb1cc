import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConsoleBrowser,
  expectAccessible,
  screenshot,
  type Scheme,
  type TrackedPage,
} from './support/console-browser';
import { startConsoleStack, type ConsoleStack } from './support/console-stack';
import { signIn } from './support/sign-in';

// The operators' Users and Audit log pages on the real stack, in Chromium: disabling and enabling
// an account (and what that does to its sign-in), inviting an operator by mail and revoking it,
// the refusal of disabling oneself, the audit log's filters and an entry's before/after diff;
// every page checked by axe-core and photographed in both themes.
// each test drives several pages, axe-core on many: a budget, as the access spec's, that a
// busy machine cannot exhaust (a test that waits in vain fails on its own shorter deadline)
describe('the console: users and audit log', { timeout: 150_000 }, () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    stack = await startConsoleStack();
    browser = await ConsoleBrowser.launch(stack.dashboard);
  }, 180_000);
  afterAll(async () => {
    // the stack is stopped even when the browser's close fails (a crashed Chromium)
    try {
      await browser?.close();
    } finally {
      await stack?.stop();
    }
  });

  const row = (tracked: TrackedPage, text: string) =>
    tracked.page.getByRole('row').filter({ hasText: text });

  it('an operator disables the tenant admin, who then cannot sign in, and enables it again', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    expect(await nav.getByRole('link').allTextContents()).toEqual(
      expect.arrayContaining(['Users', 'Audit log']),
    );

    await row(tracked, stack.operator.email).waitFor();
    await page.getByLabel('Search').fill('admin@demo');
    await page.waitForURL(/[?&]search=admin(@|%40)demo/);
    await row(tracked, stack.operator.email).waitFor({ state: 'detached' });
    expect(await page.getByRole('row').count()).toBe(2);
    const admin = row(tracked, stack.tenantAdmin.email);
    // its membership, by the tenant's name
    await admin.getByRole('link', { name: 'Demo Inc.' }).waitFor();
    await admin.getByText('tenant admin').waitFor();

    await admin.getByRole('button', { name: 'Disable Demo Admin' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disable Demo Admin' });
    await confirm.getByRole('button', { name: 'Disable the account' }).click();
    await page.getByText('Demo Admin is disabled').waitFor();
    await admin.getByText('disabled', { exact: true }).waitFor();

    // the admin, in a browser of their own, is refused at the sign-in page
    const refused = await browser.open();
    await refused.page.goto(`${stack.dashboard}/sign-in`);
    await refused.page.getByLabel(/^Email/).fill(stack.tenantAdmin.email);
    await refused.page.getByLabel(/^Password/).fill(stack.tenantAdmin.password);
    await refused.page.getByRole('button', { name: 'Sign in' }).click();
    await refused.page
      .getByRole('alert', { name: 'Could not sign in' })
      .getByText('Invalid email or password.')
      .waitFor();
    refused.expectClean();

    await admin.getByRole('button', { name: 'Enable Demo Admin' }).click();
    await page.getByText('Demo Admin is enabled again.').waitFor();
    await admin.getByText('active', { exact: true }).waitFor();
    const again = await browser.open();
    await signIn(again.page, stack.dashboard, stack.tenantAdmin);
    await again.page.waitForURL(`${stack.dashboard}/t/${stack.tenantId}`);
    again.expectClean();
    tracked.expectClean();
  });

  it('an operator cannot disable their own account: the refusal is shown', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    await page.goto(`${stack.dashboard}/users?search=operator%40demo`);
    const self = row(tracked, stack.operator.email);
    await self.getByText('you', { exact: true }).waitFor();
    await self.getByRole('button', { name: 'Disable Demo Operator' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disable Demo Operator' });
    await confirm.getByRole('button', { name: 'Disable the account' }).click();
    await confirm
      .getByRole('alert', { name: 'Not disabled' })
      .getByText('You cannot disable or enable your own account.')
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await self.getByText('active', { exact: true }).waitFor();
    tracked.expectClean();
  });

  it('an operator invites an operator by mail, sees the invitation pending and revokes it', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    const email = 'new.operator@example.com';
    await page.goto(`${stack.dashboard}/users?view=operators`);
    await row(tracked, stack.operator.email).waitFor();

    await page.getByRole('button', { name: 'Invite an operator' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite an operator' });
    await dialog.getByLabel(/^Email/).fill('not an address');
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    await dialog.getByText('Enter an email address').waitFor();
    await dialog.getByLabel(/^Email/).fill(email);
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText(`An invitation is on its way to ${email}.`).waitFor();

    const mail = await stack.smtp.waitFor(email);
    expect(mail.text).toContain(`${stack.dashboard}/invite/`);
    // the page turned to the pending invitations
    await page.waitForURL(/[?&]view=invitations/);
    const pending = row(tracked, email);
    await pending.waitFor();

    await pending.getByRole('button', { name: `Revoke the invitation of ${email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the invitation' });
    await confirm.getByRole('button', { name: 'Revoke the invitation' }).click();
    await page.getByText(`The invitation of ${email} is revoked.`).waitFor();
    await page.getByText('No pending invitations').waitFor();
    tracked.expectClean();
  });

  it('the audit log: filtered by action and time range, an entry’s before and after as a diff', async () => {
    const tracked = await browser.signedIn(stack.operator);
    const { page } = tracked;
    // a change to audit: the demo tenant suspended and resumed through the Tenants page
    await page.goto(`${stack.dashboard}/tenants`);
    for (const [item, message] of [
      ['Suspend', 'Demo Inc. is suspended.'],
      ['Resume', 'Demo Inc. is active again.'],
    ] as const) {
      await page.getByRole('button', { name: 'More actions for Demo Inc.' }).click();
      await page.getByRole('menuitem', { name: item }).click();
      await page.getByText(message).waitFor();
    }

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit log' })
      .click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await row(tracked, 'tenant.resume').waitFor();
    await page.getByRole('combobox', { name: 'Action' }).fill('tenant.suspend');
    await page.waitForURL(/[?&]action=tenant\.suspend/);
    await row(tracked, 'tenant.resume').waitFor({ state: 'detached' });
    expect(await page.getByRole('row').count()).toBe(2);
    const entry = row(tracked, 'tenant.suspend');
    await entry.getByText(stack.operator.email).waitFor();

    // a range from a day ago keeps it; one ending an hour ago (before the stack) has nothing
    await page.getByRole('button', { name: 'From', exact: true }).click();
    await page.getByRole('button', { name: '24 hours ago' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '24 hours ago' }).waitFor({ state: 'hidden' });
    await page.waitForURL(/[?&]from=/);
    await entry.waitFor();
    await page.getByRole('button', { name: 'To', exact: true }).click();
    await page.getByRole('button', { name: '1 hour ago' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '1 hour ago' }).waitFor({ state: 'hidden' });
    await page.waitForURL(/[?&]to=/);
    await page.getByText('No entry matches').waitFor();
    await page.reload();
    await page.getByText('No entry matches').waitFor();
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await row(tracked, 'tenant.resume').waitFor();
    expect(new URL(page.url()).search).toBe('');

    await page.getByRole('combobox', { name: 'Action' }).fill('tenant.');
    await page.waitForURL(/[?&]action=tenant\./);
    await row(tracked, 'tenant.suspend')
      .getByRole('button', { name: /^Details of/ })
      .click();
    const drawer = page.getByRole('dialog', { name: 'tenant.suspend' });
    const status = drawer.getByRole('row').filter({ hasText: 'status' });
    await status.waitFor();
    expect(await status.getByRole('cell').allTextContents()).toEqual([
      'statuschanged',
      '"active"',
      '"suspended"',
    ]);
    await drawer.getByRole('button', { name: 'History of this Tenant' }).click();
    await page.waitForURL(/[?&]entityType=Tenant&entityId=/);
    await row(tracked, 'tenant.resume').waitFor();
    await row(tracked, 'tenant.suspend').waitFor();
    expect(await page.getByRole('textbox', { name: 'Entity ID' }).inputValue()).toBe(
      stack.tenantId,
    );

    // and from an entry to everything its actor did
    await row(tracked, 'tenant.resume')
      .getByRole('button', { name: /^Details of/ })
      .click();
    await page
      .getByRole('dialog', { name: 'tenant.resume' })
      .getByRole('button', { name: `Entries by ${stack.operator.email}` })
      .click();
    await page.waitForURL(/[?&]actor=usr_/);
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Actor' }).inputValue(), { timeout: 10_000 })
      .toBe(stack.operator.email);
    tracked.expectClean();
  });

  it.each<Scheme>(['light', 'dark'])(
    'the users pages, accessible and photographed (%s)',
    async (scheme) => {
      const tracked = await browser.signedIn(stack.operator, scheme);
      const { page } = tracked;
      await page.goto(`${stack.dashboard}/users`);
      await row(tracked, stack.tenantAdmin.email).waitFor();
      await expectAccessible(tracked, 'users');
      await screenshot(tracked, 'users');

      await page.getByRole('tab', { name: 'Operators' }).click();
      await row(tracked, stack.operator.email).waitFor();
      await expectAccessible(tracked, 'users-operators');
      await screenshot(tracked, 'users-operators');

      await page.getByRole('tab', { name: 'Pending operator invitations' }).click();
      await page.getByText('No pending invitations').waitFor();
      await expectAccessible(tracked, 'users-invitations');
      await screenshot(tracked, 'users-invitations');

      await page.getByRole('button', { name: 'Invite an operator' }).click();
      await page.getByRole('dialog', { name: 'Invite an operator' }).waitFor();
      await expectAccessible(tracked, 'users-invite');
      await screenshot(tracked, 'users-invite');
      await page.keyboard.press('Escape');
      tracked.expectClean();
    },
  );

  it.each<Scheme>(['light', 'dark'])(
    'the audit log, accessible and photographed (%s)',
    async (scheme) => {
      const tracked = await browser.signedIn(stack.operator, scheme);
      const { page } = tracked;
      await page.goto(`${stack.dashboard}/audit`);
      // the newest of each (a retried test above disables and enables the admin again)
      await row(tracked, 'user.enable').first().waitFor();
      await expectAccessible(tracked, 'audit');
      await screenshot(tracked, 'audit');

      await page.getByRole('button', { name: 'From', exact: true }).click();
      await page.getByRole('button', { name: '24 hours ago' }).waitFor();
      await expectAccessible(tracked, 'audit-time-range');
      await screenshot(tracked, 'audit-time-range');
      await page.keyboard.press('Escape');

      await row(tracked, 'user.disable')
        .first()
        .getByRole('button', { name: /^Details of/ })
        .click();
      await page
        .getByRole('dialog', { name: 'user.disable' })
        .getByText('disabledAt', { exact: true })
        .waitFor();
      await expectAccessible(tracked, 'audit-entry');
      await screenshot(tracked, 'audit-entry');
      tracked.expectClean();
    },
  );

  it('a tenant admin typing /users or /audit gets the refusal page', async () => {
    const tracked = await browser.signedIn(stack.tenantAdmin);
    const { page } = tracked;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link').first().waitFor();
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    for (const path of ['/users', '/audit']) {
      await page.goto(`${stack.dashboard}${path}`);
      await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
      expect(await page.getByRole('table').count()).toBe(0);
    }
    tracked.expectClean();
  });
});
