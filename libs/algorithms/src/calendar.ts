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
 * With `untilMs` (a reservation's expiry: its receipt keeps these boundaries for the settle) they
 * run on to the window after the one holding `untilMs`, with the same one-window margin.
 */
export function calendarBoundaries(
  calendar: CalendarWindow,
  nowMs: number,
  untilMs = nowMs,
): number[] {
  const current = DateTime.fromMillis(nowMs, { zone: calendar.timeZone }).startOf(calendar.unit);
  const boundaries: number[] = [];
  // until two boundaries lie after untilMs: the end of its window and of the next one
  for (let offset = -1; boundaries.filter((ms) => ms > untilMs).length < 2; offset++) {
    boundaries.push(
      current
        .plus({ [calendar.unit]: offset })
        .startOf(calendar.unit)
        .toMillis(),
    );
  }
  return boundaries;
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
