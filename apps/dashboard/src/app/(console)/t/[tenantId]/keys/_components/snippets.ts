/**
 * First calls with a new key, ready to paste. The data plane's address is not known to the
 * dashboard (the browser never talks to it, and a deployment may reach it under another name than
 * the servers do), so both use `$SLUICE_URL` / `SLUICE_URL`, which the page asks the reader to
 * set.
 */

/** A shell-safe single-quoted word: `'` closes, `\'` inserts one, `'` reopens. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The policy a first check names: the first the key may use, else the tenant's first. */
export function examplePolicy(keyPolicies: readonly string[], tenantPolicies: readonly string[]) {
  return keyPolicies[0] ?? tenantPolicies[0] ?? 'your-policy';
}

/** `curl` for one `POST /v1/check` with the secret. */
export function curlSnippet(secret: string, policy: string): string {
  const body = JSON.stringify({ policy, identifier: 'user-42' });
  return [
    `curl -sS -X POST "$SLUICE_URL/v1/check" \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${secret}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/**
 * The same check through `@sluice/sdk`, the secret read from the environment, not the source.
 * Policy names are `[a-z0-9_-]`: safe in single quotes.
 */
export function sdkSnippet(policy: string): string {
  return [
    `import { SluiceClient } from '@sluice/sdk';`,
    ``,
    `const sluice = new SluiceClient({`,
    `  baseUrl: process.env.SLUICE_URL!,`,
    `  apiKey: process.env.SLUICE_API_KEY!,`,
    `});`,
    ``,
    `const result = await sluice.check({ policy: '${policy}', identifier: userId });`,
    `if (!result.allowed) {`,
    `  // refused: try again in result.retryAfterMs ms`,
    `}`,
  ].join('\n');
}
