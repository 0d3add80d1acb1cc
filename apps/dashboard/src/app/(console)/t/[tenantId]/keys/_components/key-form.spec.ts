import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { emptyKeyForm, keyFormOf, keyFormRules, keyInputOf } from './key-form';

describe('the key form', () => {
  it('sends a trimmed name and the expiry as an ISO time', () => {
    const local = dayjs().add(1, 'day').format('YYYY-MM-DD HH:mm:ss');
    expect(keyInputOf({ ...emptyKeyForm(), name: ' ci ', expiresAt: local })).toEqual({
      name: 'ci',
      scopes: ['CHECK'],
      policyNames: [],
      expiresAt: dayjs(local).toISOString(),
    });
    expect(keyInputOf(emptyKeyForm()).expiresAt).toBeNull();
  });

  it('reads a key back into the form, its expiry in local time', () => {
    const expiresAt = '2030-01-02T03:04:05.000Z';
    const values = keyFormOf({ name: 'ci', scopes: ['ADMIN'], policyNames: ['a'], expiresAt });
    expect(dayjs(values.expiresAt).toISOString()).toBe(expiresAt);
    expect(keyInputOf(values).expiresAt).toBe(expiresAt);
  });

  it('refuses what the control plane would', () => {
    expect(keyFormRules.name('  ')).toBe('Enter a name');
    expect(keyFormRules.name('x'.repeat(101))).toBe('At most 100 characters');
    expect(keyFormRules.scopes([])).toBe('Choose at least one scope');
    expect(keyFormRules.policyNames(['ok', 'Not OK'])).toMatch(/lowercase/);
    expect(keyFormRules.policyNames(['llm-tokens'])).toBeNull();
    expect(
      keyFormRules.expiresAt(dayjs().subtract(1, 'minute').format('YYYY-MM-DD HH:mm:ss')),
    ).toBe('Choose a time in the future');
    expect(keyFormRules.expiresAt(null)).toBeNull();
  });
});
