import { describe, expect, it } from 'vitest';
import { safeNext } from './redirect';

describe('safeNext', () => {
  it('keeps paths of this site and refuses anything that leaves it', () => {
    expect(safeNext('/t/tnt_1/keys?after=x')).toBe('/t/tnt_1/keys?after=x');
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil.example', '', null]) {
      expect(safeNext(bad)).toBe('/');
    }
  });
});
