import { z } from 'zod';

/** Emails are stored trimmed and lower-cased: uniqueness and lookups ignore case. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an email address'));
