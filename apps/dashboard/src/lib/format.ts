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
