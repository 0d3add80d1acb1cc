import { Kind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DateTimeScalar, parseDateTime } from './date-time.scalar';

describe('DateTime', () => {
  it('serializes a Date as ISO 8601 UTC with milliseconds', () => {
    expect(DateTimeScalar.serialize(new Date(Date.UTC(2026, 11, 3, 9, 54, 33)))).toBe(
      '2026-12-03T09:54:33.000Z',
    );
    expect(() => DateTimeScalar.serialize(new Date(Number.NaN))).toThrow(/invalid date/);
    expect(() => DateTimeScalar.serialize('2026-12-03')).toThrow(/invalid date/);
  });

  it.each([
    ['2026-12-03T09:54:33Z', '2026-12-03T09:54:33.000Z'],
    ['2026-12-03t09:54:33.123456z', '2026-12-03T09:54:33.123Z'],
    ['2026-12-03T10:54:33+01:00', '2026-12-03T09:54:33.000Z'],
    ['2024-02-29T00:00:00-05:30', '2024-02-29T05:30:00.000Z'],
  ])('parses %s', (text, iso) => {
    expect(parseDateTime(text).toISOString()).toBe(iso);
    expect(
      DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: text }, undefined).toISOString(),
    ).toBe(iso);
  });

  it.each([
    '2026-12-03',
    '2026-12-03T09:54:33',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-12-03T24:00:00Z',
    '2026-12-03T09:60:00Z',
    '2026-12-03T09:54:33+25:00',
    'yesterday',
    '',
  ])('refuses %j', (text) => {
    expect(() => parseDateTime(text)).toThrow(/RFC 3339/);
  });

  it('refuses values that are not strings', () => {
    expect(() => parseDateTime(1_764_755_673_000)).toThrow(/RFC 3339/);
    expect(() => DateTimeScalar.parseLiteral({ kind: Kind.INT, value: '1' }, undefined)).toThrow(
      /RFC 3339/,
    );
  });
});
