import { MAX_COST } from '@sluice/algorithms';
import { InputError } from '@sluice/engine';
import { fieldIssues } from '@sluice/policy';
import { z } from 'zod';

export const MAX_IDENTIFIER_BYTES = 256;
/** Longest policy name (the policy lib's names are 1..63 characters; longer is refused as input). */
export const MAX_POLICY_LENGTH = 64;

/** `required` when the field is absent, `wrong` when it has the wrong type. */
export const requiredOr = (required: string, wrong: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? required : wrong),
});

const policyMessage = `must be a policy name of 1 to ${MAX_POLICY_LENGTH} characters`;
const identifierMessage = `must be a string of 1 to ${MAX_IDENTIFIER_BYTES} bytes (UTF-8)`;
export const costMessage = `must be an integer from 0 to ${MAX_COST}`;

export const policyName = z
  .string(requiredOr('is required', policyMessage))
  .min(1, { error: policyMessage })
  .max(MAX_POLICY_LENGTH, { error: policyMessage })
  .meta({ description: 'A policy name of the API key’s tenant.', examples: ['api'] });

/**
 * 1..256 bytes of UTF-8. The length check is a cheap bound first (a string of more than 256
 * UTF-16 units has more than 256 bytes), so the byte count runs only on plausible input.
 */
export const identifier = z
  .string(requiredOr('is required', identifierMessage))
  .min(1, { error: identifierMessage })
  .max(MAX_IDENTIFIER_BYTES, { error: identifierMessage, abort: true })
  .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_IDENTIFIER_BYTES, {
    error: identifierMessage,
  })
  .meta({
    description: `Who is limited (a user id, an IP address, …): 1 to ${MAX_IDENTIFIER_BYTES} bytes of UTF-8.`,
    examples: ['user-42'],
  });

export const cost = z
  .int({ error: costMessage })
  .min(0, { error: costMessage })
  .max(MAX_COST, { error: costMessage })
  .meta({ description: 'Units to consume, default 1; 0 peeks without consuming.' });

/** `POST /v1/check`'s body. Unknown fields are refused: a misspelt `dryrun` must not consume. */
export const checkRequestSchema = z.strictObject(
  {
    policy: policyName,
    identifier,
    cost: cost.optional(),
    dryRun: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .meta({ description: 'Decide as usual but consume nothing and record no usage.' }),
  },
  { error: 'must be a JSON object' },
);

export type CheckRequestBody = z.infer<typeof checkRequestSchema>;

/** The body as a check request, or `InputError` (400) naming every rejected field. */
export function parseCheckBody(body: unknown): CheckRequestBody {
  const parsed = checkRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new InputError(fieldIssues(parsed.error, 'body'));
}
