import { describe, expect, it } from 'vitest';
import { slugFrom } from './slug';

describe('slugFrom', () => {
  it('makes a valid slug of any name', () => {
    expect(slugFrom('Acme Corp.')).toBe('acme-corp');
    expect(slugFrom('  Société Générale ')).toBe('societe-generale');
    expect(slugFrom('--')).toBe('');
    expect(slugFrom('x'.repeat(62) + ' y')).toBe('x'.repeat(62));
  });
});
