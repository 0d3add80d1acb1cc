import type { Page } from 'playwright-core';

/**
 * A total the tenant overview's chart of `policy` shows, read off its summary line ("In total:
 * 5 allowed, 15 denied, …"): the figure a person reads, and the chart's own data.
 */
export async function chartTotal(
  page: Page,
  policy: string,
  outcome: 'allowed' | 'denied',
): Promise<number> {
  const chart = page.getByRole('region', { name: `Decisions of ${policy}` });
  const line = (await chart.getByText(/^In total: /).textContent()) ?? '';
  // "denied" alone: "shadow-denied" and "candidate-denied" are other figures
  const figure = new RegExp(`([\\d,.\\s]+) ${outcome}[,.]`).exec(line)?.[1] ?? '';
  return Number(figure.replace(/\D/g, ''));
}
