import { calendarWindow, type AnyRuleSpec, type CalendarWindow } from '@sluice/algorithms';

export interface RuleWindow {
  quota: number;
  windowMs: number;
  calendarUnit?: 'day' | 'month';
}

/** The current calendar window per calendar spec, so luxon runs once per window, not per check. */
const currentWindows = new WeakMap<CalendarWindow, { startMs: number; endMs: number }>();

/**
 * A rule's quota and the window it applies to (`RateLimit-Policy`'s q and w), in whole ms
 * (rounded up): a bucket's time to refill / drain from empty, a window's length (a calendar
 * window's current one), GCRA's period. A concurrency rule's quota is its limit of leases in
 * flight and its window the lease TTL (the headers state it as `concurrent-requests`, no window).
 */
export function ruleWindow(rule: AnyRuleSpec, now: number): RuleWindow {
  switch (rule.algorithm) {
    case 'token_bucket':
      return {
        quota: rule.capacity,
        windowMs: Math.ceil((rule.capacity / rule.refillPerSecond) * 1000),
      };
    case 'leaky_bucket':
      return {
        quota: rule.capacity,
        windowMs: Math.ceil((rule.capacity / rule.leakPerSecond) * 1000),
      };
    case 'fixed_window': {
      if (!rule.calendar) return { quota: rule.limit, windowMs: rule.windowMs };
      let window = currentWindows.get(rule.calendar);
      if (!window || now < window.startMs || now >= window.endMs) {
        window = calendarWindow(rule.calendar, now);
        currentWindows.set(rule.calendar, window);
      }
      return {
        quota: rule.limit,
        windowMs: window.endMs - window.startMs,
        calendarUnit: rule.calendar.unit,
      };
    }
    case 'sliding_window_log':
    case 'sliding_window_counter':
      return { quota: rule.limit, windowMs: rule.windowMs };
    case 'gcra':
      return { quota: rule.limit, windowMs: rule.periodMs };
    case 'concurrency':
      return { quota: rule.limit, windowMs: rule.leaseTtlMs };
  }
}
