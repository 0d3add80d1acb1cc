import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlSnippet, examplePolicy, sdkSnippet, shellQuote } from './snippets';

describe('snippets', () => {
  it('quotes any text as one shell word', () => {
    for (const text of ["it's", 'a "b" $c `d` \\e', '']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`]).toString()).toBe(text);
    }
  });

  it('names the key’s first policy, else the tenant’s, else a placeholder', () => {
    expect(examplePolicy(['llm-tokens'], ['api-requests'])).toBe('llm-tokens');
    expect(examplePolicy([], ['api-requests'])).toBe('api-requests');
    expect(examplePolicy([], [])).toBe('your-policy');
  });

  it('builds a curl that sends the secret and a JSON check to $SLUICE_URL', () => {
    const curl = curlSnippet('sk_live_abc', 'api-requests');
    expect(curl).toContain(`"$SLUICE_URL/v1/check"`);
    expect(curl).toContain(`'Authorization: Bearer sk_live_abc'`);
    // the shell hands curl exactly this body
    const body = execFileSync('sh', ['-c', `printf %s ${curl.split(' -d ')[1]}`]).toString();
    expect(JSON.parse(body)).toEqual({ policy: 'api-requests', identifier: 'user-42' });
  });

  it('keeps the secret out of the SDK snippet', () => {
    const sdk = sdkSnippet('llm-tokens');
    expect(sdk).toContain(`from '@sluice/sdk'`);
    expect(sdk).toContain('process.env.SLUICE_API_KEY');
    expect(sdk).toContain(`policy: 'llm-tokens'`);
  });
});
