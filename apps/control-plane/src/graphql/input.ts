import { z } from 'zod';
import { badUserInputOf, type FieldIssue } from './app-error';

/**
 * Validates a resolver argument with `schema`; a failure is BAD_USER_INPUT naming each field by
 * its path from the argument (`input.email`), never an internal error.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  argument: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues: FieldIssue[] = result.error.issues.map((issue) => ({
    field: [argument, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  throw badUserInputOf(issues, { field: argument, message: 'invalid' });
}

/** A list's free-text search: trimmed, at most 100 characters; empty or absent: no search. */
export const searchSchema = z.string().trim().max(100, 'must be at most 100 characters').nullish();
