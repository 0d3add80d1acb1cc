import { RETRY_NEVER } from '../decision';

/**
 * Microseconds per unit of cost, rounded up to a whole microsecond so that every schedule
 * figure is an exact integer; the effective rate is therefore never above the configured one.
 */
export function emissionIntervalUs(periodUs: number, count: number): number {
  return Math.ceil(periodUs / count);
}

export interface Schedule {
  allowed: boolean;
  /** How far the schedule is booked ahead of now before this request (us). */
  backlogUs: number;
  retryUs: number;
  /** When the schedule is free again after this decision (us). */
  dueUs: number;
  remaining: number;
}

/**
 * Virtual scheduling (leaky bucket as a queue, GCRA): each unit of cost books `intervalUs` of
 * the schedule, and at most `capacity` units' worth may be booked ahead of now.
 */
export function virtualSchedule(
  dueUs: number,
  nowUs: number,
  capacity: number,
  intervalUs: number,
  cost: number,
): Schedule {
  const backlogUs = Math.max(dueUs, nowUs) - nowUs;
  const roomUs = capacity * intervalUs;
  const needUs = cost * intervalUs;
  const allowed = cost <= capacity && backlogUs + needUs <= roomUs;
  const after = nowUs + backlogUs + (allowed ? needUs : 0);
  let retryUs = 0;
  if (cost > capacity) retryUs = RETRY_NEVER;
  else if (!allowed) retryUs = backlogUs + needUs - roomUs;
  return {
    allowed,
    backlogUs,
    retryUs,
    dueUs: after,
    remaining: Math.floor((roomUs - (after - nowUs)) / intervalUs),
  };
}
