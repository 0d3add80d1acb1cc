import type { Page } from 'playwright-core';
import type { DemoUser } from '../../src/seed';

/**
 * Waits until the dashboard has hydrated the page (its providers mark `<html data-hydrated>`):
 * typing or clicking into a server-rendered page before that is lost on a loaded machine (the form
 * submits natively, a controlled field is reset), and the test then waits for what never comes.
 */
export async function hydrated(page: Page): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

/** Signs in through the sign-in page (no test runner here: scripts use it too). */
export async function signIn(page: Page, dashboard: string, user: DemoUser): Promise<void> {
  await page.goto(`${dashboard}/sign-in`);
  await hydrated(page);
  await page.getByLabel(/^Email/).fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}
