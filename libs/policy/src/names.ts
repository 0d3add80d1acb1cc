import { z } from 'zod';
import type { FieldIssue } from './errors';

/** Policy and rule names: lowercase, digits, `_` and `-`; also a URL path segment. */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** Tenant, policy, override and API key ids, e.g. `tnt_3kq9`; also valid as a rule-key scope. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Tenant slugs: a DNS label (lowercase, digits, inner hyphens). */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A message for a value of the wrong type only; other checks keep their own messages. */
export function typeError(message: string) {
  return {
    error: (issue: { code: string }) => (issue.code === 'invalid_type' ? message : undefined),
  };
}

export const nameSchema = z
  .string(typeError('must be a string'))
  .regex(NAME_PATTERN, { error: `must match ${NAME_PATTERN.source}` });

export const idSchema = z
  .string(typeError('must be a string'))
  .regex(ID_PATTERN, { error: `must match ${ID_PATTERN.source}` });

/** Field path as code would write it: `policies[0].rules[1].capacity`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$-]*$/.test(part)) {
      out += out ? `.${part}` : part;
    } else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

/**
 * zod issues as field issues, paths as `formatPath` writes them; an unknown key is reported at
 * its own path, an issue with the whole input (not an object, say) at `root`.
 */
export function fieldIssues(error: z.ZodError, root = ''): FieldIssue[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: formatPath([...issue.path, key]),
          message: 'unknown field',
        }))
      : [{ path: formatPath(issue.path) || root, message: issue.message }],
  );
}
