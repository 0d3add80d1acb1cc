import { MAX_COST } from '@sluice/algorithms';
import { InputError } from '@sluice/engine';
import { fieldIssues } from '@sluice/policy';
import { z } from 'zod';
import { costMessage, requiredOr } from '../check/check.schema';

/** Ids are at most 171 characters; longer input is refused as such, shorter is looked up. */
export const MAX_ID_LENGTH = 256;

const idMessage = `must be a string of 1 to ${MAX_ID_LENGTH} characters`;

/** An id as a check handed it out; anything else of that size is simply not found (404). */
const operationId = (description: string) =>
  z
    .string(requiredOr('is required', idMessage))
    .min(1, { error: idMessage })
    .max(MAX_ID_LENGTH, { error: idMessage })
    .meta({ description });

/** `POST /v1/settle`'s body; unknown fields are refused, as for a check. */
export const settleRequestSchema = z.strictObject(
  {
    reservationId: operationId('A check’s `reservationId`.').meta({
      examples: ['r1.tnt_3kq9.pol_llm.Q2xvdWRzQXJlV2hpdGUxMj.7fKq2LmN9pRsT4vW'],
    }),
    actualCost: z
      .int(requiredOr('is required', costMessage))
      .min(0, { error: costMessage })
      .max(MAX_COST, { error: costMessage })
      .meta({ description: 'What the call really cost (e.g. an LLM response’s tokens).' }),
  },
  { error: 'must be a JSON object' },
);

/** `POST /v1/release`'s body. */
export const releaseRequestSchema = z.strictObject(
  { leaseId: operationId('A check’s `leaseId`.') },
  { error: 'must be a JSON object' },
);

/** The body as `schema` says, or `InputError` (400) naming every rejected field. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new InputError(fieldIssues(parsed.error, 'body'));
}
