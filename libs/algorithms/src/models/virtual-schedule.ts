import { RETRY_NEVER } from '../decision';
import { MAX_DEBT_US } from './model';

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

/**
 * Settling on a schedule: an overrun books `delta` more units (beyond the room = debt), a refund
 * frees them, never before now. Undefined when nothing changes.
 */
export function settleSchedule(
  dueUs: number | undefined,
  nowUs: number,
  intervalUs: number,
  delta: number,
): { charged: number; dueUs: number } | undefined {
  const startUs = Math.max(dueUs ?? nowUs, nowUs);
  let after = startUs + delta * intervalUs;
  let charged = delta;
  if (delta > 0) {
    after = Math.min(after, nowUs + MAX_DEBT_US);
  } else if (after < nowUs) {
    after = nowUs;
    charged = -Math.floor((startUs - nowUs) / intervalUs) || 0;
  }
  return after === startUs ? undefined : { charged, dueUs: after };
}
