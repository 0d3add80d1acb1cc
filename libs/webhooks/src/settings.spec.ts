import { describe, expect, it } from 'vitest';
import { WebhookInputError } from './errors';
import { parseWebhookEndpointSettings } from './settings';

const valid = {
  name: 'billing',
  url: 'https://hooks.example.com/in',
  leakRatePerSec: 0.5,
  queueCapacity: 1000,
  maxAttempts: 8,
  enabled: true,
};

function issues(input: unknown) {
  try {
    parseWebhookEndpointSettings(input);
  } catch (error) {
    if (error instanceof WebhookInputError) return error.issues;
    throw error;
  }
  return [];
}

describe('endpoint settings', () => {
  it('accept fractional rates and trim the URL', () => {
    expect(
      parseWebhookEndpointSettings({ ...valid, url: ' https://h.example.com/x?a=1 ' }),
    ).toEqual({ ...valid, url: 'https://h.example.com/x?a=1' });
  });

  it('name every rejected field', () => {
    expect(
      issues({
        name: 'Bad Name',
        url: 'ftp://x',
        leakRatePerSec: 0,
        queueCapacity: 1.5,
        maxAttempts: 26,
        enabled: 'yes',
        extra: 1,
      }).map((issue) => issue.path),
    ).toEqual([
      'name',
      'url',
      'leakRatePerSec',
      'queueCapacity',
      'maxAttempts',
      'enabled',
      'extra',
    ]);
  });

  it('refuse URLs with credentials or a fragment, saying why', () => {
    expect(issues({ ...valid, url: 'https://u:p@h.example.com/' })).toEqual([
      { path: 'url', message: expect.stringContaining('credentials') },
    ]);
    expect(issues({ ...valid, url: 'https://h.example.com/#x' })).toEqual([
      { path: 'url', message: expect.stringContaining('fragment') },
    ]);
    expect(issues({ ...valid, leakRatePerSec: 1001 })).toEqual([
      { path: 'leakRatePerSec', message: 'must be from 0.01 to 1000 per second' },
    ]);
  });
});
