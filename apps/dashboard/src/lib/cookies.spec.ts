import { describe, expect, it } from 'vitest';
import { readCookie } from './cookies';

describe('readCookie', () => {
  it('finds a cookie among others, decoded, and only by its exact name', () => {
    const cookies = 'a=1; sluice_csrf=abc%3D%3D; sluice_csrf_old=x';
    expect(readCookie(cookies, 'sluice_csrf')).toBe('abc==');
    expect(readCookie(cookies, 'sluice')).toBeUndefined();
    expect(readCookie('', 'sluice_csrf')).toBeUndefined();
  });
});
