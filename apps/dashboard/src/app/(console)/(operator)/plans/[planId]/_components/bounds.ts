import { formatParam, paramWord, PARAM_NAMES, type ParamName } from '@/lib/rules';

export interface BoundView {
  param: string;
  min?: number | null;
  max?: number | null;
}

/** What a template lets tenants change, in words: "capacity 1 to 50", "window at most 1 hour". */
export function describeBound(bound: BoundView): string {
  if (!PARAM_NAMES.includes(bound.param as ParamName)) return bound.param;
  const name = bound.param as ParamName;
  const word = paramWord(name);
  const { min, max } = bound;
  const value = (v: number) => formatParam(name, v);
  if (typeof min === 'number' && typeof max === 'number') {
    return `${word} ${value(min)} to ${value(max)}`;
  }
  if (typeof min === 'number') return `${word} at least ${value(min)}`;
  if (typeof max === 'number') return `${word} at most ${value(max)}`;
  return `${word}, any valid value`;
}
