/** A duration as people enter it: a number and a unit. The API takes milliseconds. */
export type DurationUnit = 'ms' | 's' | 'min' | 'h' | 'd';

export interface DurationDraft {
  /** '' while the field is empty. */
  amount: number | '';
  unit: DurationUnit;
}

export const DURATION_UNITS: { value: DurationUnit; label: string; ms: number }[] = [
  { value: 'ms', label: 'ms', ms: 1 },
  { value: 's', label: 'seconds', ms: 1_000 },
  { value: 'min', label: 'minutes', ms: 60_000 },
  { value: 'h', label: 'hours', ms: 3_600_000 },
  { value: 'd', label: 'days', ms: 86_400_000 },
];

const unitMs = (unit: DurationUnit) => DURATION_UNITS.find((u) => u.value === unit)?.ms ?? 1;

/** Milliseconds as the largest unit that divides them (60000 → 1 min); empty in `unit` if unset. */
export function durationDraft(ms: number | null | undefined, unit: DurationUnit): DurationDraft {
  if (typeof ms !== 'number') return { amount: '', unit };
  const largest = [...DURATION_UNITS].reverse().find((u) => ms >= u.ms && ms % u.ms === 0);
  return largest ? { amount: ms / largest.ms, unit: largest.value } : { amount: ms, unit: 'ms' };
}

/** The milliseconds a draft says (whole: the API takes integers), undefined while empty. */
export function durationMs(draft: DurationDraft): number | undefined {
  return typeof draft.amount === 'number' && Number.isFinite(draft.amount)
    ? Math.round(draft.amount * unitMs(draft.unit))
    : undefined;
}
