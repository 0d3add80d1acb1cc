import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { launchChromium } from '@sluice/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { dataDir } from '../../src/paths';
import type { DemoUser } from '../../src/seed';
import { hydrated, signIn } from './sign-in';

export type Scheme = 'light' | 'dark';

/** Where the tests write their screenshots (copies are committed in docs/screenshots/). */
export const SCREENSHOT_DIR = join(dataDir, 'screenshots');

/**
 * A page that records what should never happen: console errors, failed requests and HTTP errors.
 * A step that provokes one on purpose names it with `allow` (each allowance is listed in the
 * test); `expectClean` fails on anything else.
 */
export class TrackedPage {
  readonly problems: string[] = [];
  private readonly allowed: RegExp[] = [];

  constructor(
    readonly page: Page,
    readonly scheme: Scheme,
  ) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? '';
      // a prefetch or a request cut short by navigating away is not a failure of the app
      if (failure === 'net::ERR_ABORTED') return;
      this.problems.push(`request failed: ${request.method()} ${request.url()} ${failure}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) {
        this.problems.push(
          `HTTP ${response.status()}: ${response.request().method()} ${response.url()}`,
        );
      }
    });
  }

  /** Lets problems matching `pattern` through: a refusal the test provokes. */
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  expectClean(): void {
    const unexpected = this.problems.filter((p) => !this.allowed.some((a) => a.test(p)));
    // the problems in the message too: a retried test's first failure is reported by it alone
    expect(unexpected, unexpected.join('\n')).toEqual([]);
  }
}

export class ConsoleBrowser {
  private constructor(
    private readonly browser: Browser,
    readonly dashboard: string,
  ) {}

  static async launch(dashboard: string): Promise<ConsoleBrowser> {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    return new ConsoleBrowser(await launchChromium(), dashboard);
  }

  /** A fresh browser profile (no cookies) at 1280×800 in the given color scheme. */
  async open(scheme: Scheme = 'light'): Promise<TrackedPage> {
    const context: BrowserContext = await this.browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: scheme,
    });
    return new TrackedPage(awaitingHydration(await context.newPage()), scheme);
  }

  /** A fresh profile, signed in through the sign-in page. */
  async signedIn(user: DemoUser, scheme: Scheme = 'light'): Promise<TrackedPage> {
    const tracked = await this.open(scheme);
    await signIn(tracked.page, this.dashboard, user);
    return tracked;
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

/**
 * Makes each way a test reaches a new document (`goto`, `reload`, and `waitForURL` after a full
 * navigation such as signing out) return only once the dashboard has hydrated it, so that no step
 * types into a page that is not listening yet. After a client-side navigation the mark is already
 * there and the wait is instant.
 */
function awaitingHydration(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  const waitForURL = page.waitForURL.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated(page);
    return response;
  };
  page.waitForURL = async (...args) => {
    await waitForURL(...args);
    await hydrated(page);
  };
  return page;
}

/**
 * Waits until no finite CSS transition or animation runs (a dialog, drawer or popover still
 * fading in): axe would measure half-faded colours and a screenshot would catch it mid-way. A
 * loader's endless spin does not count.
 */
export async function transitionsDone(page: Page): Promise<void> {
  await page.waitForFunction(
    `document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)`,
  );
}

/** axe-core on the page once it is still: no serious or critical violation (WCAG 2 A and AA). */
export async function expectAccessible(tracked: TrackedPage, what: string): Promise<void> {
  await transitionsDone(tracked.page);
  const results = await new AxeBuilder({ page: tracked.page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      page: what,
      scheme: tracked.scheme,
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  expect(serious).toEqual([]);
}

/** Writes `<name>-<scheme>.png` (1280×800, the viewport) for docs/screenshots/. */
export async function screenshot(tracked: TrackedPage, name: string): Promise<void> {
  await transitionsDone(tracked.page);
  await tracked.page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${tracked.scheme}.png`) });
}
