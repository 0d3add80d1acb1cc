import { describe, expect, it } from 'vitest';
import { ID_PREFIXES, newId } from './ids';

describe('newId', () => {
  it('prefixes each kind and does not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('tenant')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^tnt_[0-9a-z]{16}$/);
    expect(newId('webhookDelivery')).toMatch(/^whd_/);
    expect(newId('session')).toMatch(/^ses_/);
  });

  it('uses a distinct prefix per kind', () => {
    const prefixes = Object.values(ID_PREFIXES);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
