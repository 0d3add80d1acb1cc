import { DateTime, IANAZone } from 'luxon';
import type { CalendarWindow } from './rule-spec';

export function isTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/**
 * Starts (ms epoch) of consecutive calendar windows around `nowMs`: the previous, the current,
 * the next and the one after. The script picks the window holding the Redis clock's now, so a
 * client clock up to one window off still finds it. Luxon does the time-zone work (DST days are
 * 23 or 25 h long, months 28-31 days); Lua has no tz data.
 */
export function calendarBoundaries(calendar: CalendarWindow, nowMs: number): number[] {
  const current = DateTime.fromMillis(nowMs, { zone: calendar.timeZone }).startOf(calendar.unit);
  return [-1, 0, 1, 2].map((offset) =>
    current
      .plus({ [calendar.unit]: offset })
      .startOf(calendar.unit)
      .toMillis(),
  );
}

/** The calendar window [startMs, endMs) holding `nowMs`. */
export function calendarWindow(
  calendar: CalendarWindow,
  nowMs: number,
): { startMs: number; endMs: number } {
  const start = DateTime.fromMillis(nowMs, { zone: calendar.timeZone }).startOf(calendar.unit);
  return {
    startMs: start.toMillis(),
    endMs: start
      .plus({ [calendar.unit]: 1 })
      .startOf(calendar.unit)
      .toMillis(),
  };
}
