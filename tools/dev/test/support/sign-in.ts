import type { Page } from 'playwright-core';
import type { DemoUser } from '../../src/seed';

/** Signs in through the sign-in page (no test runner here: scripts use it too). */
export async function signIn(page: Page, dashboard: string, user: DemoUser): Promise<void> {
  await page.goto(`${dashboard}/sign-in`);
  await page.getByLabel(/^Email/).fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}
