import { describe, expect, it } from 'vitest';
import { calendarBoundaries, calendarWindow, isTimeZone } from './calendar';

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('calendar windows', () => {
  it('days start at local midnight and last 23 h / 25 h on DST changes (Europe/Paris)', () => {
    const paris = { unit: 'day', timeZone: 'Europe/Paris' } as const;
    const spring = calendarWindow(paris, Date.UTC(2025, 2, 30, 12));
    expect(iso(spring.startMs)).toBe('2025-03-29T23:00:00.000Z');
    expect(spring.endMs - spring.startMs).toBe(23 * HOUR);
    const autumn = calendarWindow(paris, Date.UTC(2025, 9, 26, 12));
    expect(iso(autumn.startMs)).toBe('2025-10-25T22:00:00.000Z');
    expect(autumn.endMs - autumn.startMs).toBe(25 * HOUR);
  });

  it('months start on the 1st at local midnight, with their own lengths', () => {
    const ny = { unit: 'month', timeZone: 'America/New_York' } as const;
    const february = calendarWindow(ny, Date.UTC(2024, 1, 15));
    expect(iso(february.startMs)).toBe('2024-02-01T05:00:00.000Z');
    expect(iso(february.endMs)).toBe('2024-03-01T05:00:00.000Z');
    // March 2025 loses an hour on the 9th: 31 days minus 1 h
    const march = calendarWindow(ny, Date.UTC(2025, 2, 20));
    expect(march.endMs - march.startMs).toBe(31 * 24 * HOUR - HOUR);
    expect(iso(march.endMs)).toBe('2025-04-01T04:00:00.000Z');
  });

  it('boundaries are previous, current, next and after-next window starts', () => {
    const utc = { unit: 'month', timeZone: 'UTC' } as const;
    expect(calendarBoundaries(utc, Date.UTC(2024, 0, 31, 23, 59)).map(iso)).toEqual([
      '2023-12-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
      '2024-02-01T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ]);
  });

  it('knows IANA zones', () => {
    expect(isTimeZone('Australia/Lord_Howe')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});
