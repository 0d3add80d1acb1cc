/** Dates and numbers in the reader's locale and time zone (the browser's). */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timestamp = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const number = new Intl.NumberFormat();

export function formatDateTime(value: string | Date): string {
  return dateTime.format(typeof value === 'string' ? new Date(value) : value);
}

/** With seconds: for logs, where entries a few seconds apart must read apart. */
export function formatTimestamp(value: string | Date): string {
  return timestamp.format(typeof value === 'string' ? new Date(value) : value);
}

export function formatNumber(value: number): string {
  return number.format(value);
}

/**
 * A wait or an estimate in ms as a person reads it: "never" for -1 (a retry that cannot succeed),
 * else ms under a second, seconds, or minutes.
 */
export function formatWait(ms: number): string {
  if (ms < 0) return 'never';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}
