import { MAX_COST } from '@sluice/algorithms';
import { z } from 'zod';

/** An identifier of at most `maxBytes` of UTF-8, as the console sends one to the engine. */
export const identifierSchema = (maxBytes: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .refine((value) => Buffer.byteLength(value, 'utf8') <= maxBytes, {
      error: `must be at most ${maxBytes} bytes (UTF-8)`,
    });

/** A check's cost, as the engine takes it. */
export const costSchema = z
  .number()
  .int()
  .min(0, `must be from 0 to ${MAX_COST}`)
  .max(MAX_COST, `must be from 0 to ${MAX_COST}`);
