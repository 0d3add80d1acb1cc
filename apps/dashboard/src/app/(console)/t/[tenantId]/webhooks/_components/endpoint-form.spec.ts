import { describe, expect, it } from 'vitest';
import {
  drainSeconds,
  emptyEndpointForm,
  endpointFormRules,
  endpointInputOf,
} from './endpoint-form';

describe('the endpoint form', () => {
  it('accepts the defaults with a name and a URL', () => {
    const values = { ...emptyEndpointForm(), name: 'billing', url: ' https://example.com/hooks ' };
    for (const [field, rule] of Object.entries(endpointFormRules)) {
      expect(rule(values[field as keyof typeof endpointFormRules] as never), field).toBeNull();
    }
    expect(endpointInputOf(values)).toMatchObject({
      url: 'https://example.com/hooks',
      maxAttempts: 8,
    });
  });

  it('refuses what the control plane would', () => {
    expect(endpointFormRules.name('Billing')).not.toBeNull();
    expect(endpointFormRules.url('ftp://example.com')).toBe('An http:// or https:// URL');
    expect(endpointFormRules.url('example.com/hooks')).toBe('An absolute http:// or https:// URL');
    expect(endpointFormRules.url('https://u:p@example.com')).toMatch(/No credentials/);
    expect(endpointFormRules.url('https://example.com/#x')).toMatch(/fragment/);
    expect(endpointFormRules.leakRatePerSec(0.001)).not.toBeNull();
    expect(endpointFormRules.leakRatePerSec(1000)).toBeNull();
    expect(endpointFormRules.leakRatePerSec('')).not.toBeNull();
    expect(endpointFormRules.queueCapacity(1.5)).not.toBeNull();
    expect(endpointFormRules.queueCapacity(100_001)).not.toBeNull();
    expect(endpointFormRules.maxAttempts(25)).toBeNull();
    expect(endpointFormRules.maxAttempts(26)).not.toBeNull();
  });

  it('tells how long a full queue takes to drain', () => {
    expect(drainSeconds(1000, 5)).toBe(200);
  });
});
