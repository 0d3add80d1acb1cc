import type { ParamView } from './policy-reading';

/** A parameter as the API gives it, for the specs: opened to the tenant when it has `bounds`. */
export const param = (
  name: string,
  value: number,
  bounds?: { min?: number; max?: number },
  source: ParamView['source'] = 'PLAN',
): ParamView => ({
  name,
  value,
  source,
  changeable: bounds !== undefined,
  min: bounds?.min ?? null,
  max: bounds?.max ?? null,
});
