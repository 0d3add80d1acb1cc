import { formatWait } from '@/lib/format';

/** How long before `now` (both ISO dates, on the Redis clock the API reads them by). */
export function ageOf(then: string, now: string): string {
  return formatWait(Math.max(0, new Date(now).getTime() - new Date(then).getTime()));
}

const rate = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export function perSecond(value: number): string {
  return `${rate.format(value)}/s`;
}
