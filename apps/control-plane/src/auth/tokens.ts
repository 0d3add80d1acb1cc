import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** 256 random bits, base64url: session, CSRF, invitation and reset tokens. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A token as a client sends it back from a mailed link; anything else is refused unlooked-up. */
export const secretTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'is not a valid link (copy the whole link)' });

/** What is stored instead of a token: its SHA-256 (hex). Tokens are random, so no salt is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether `token` hashes to `hash`, in time that does not depend on where they differ. */
export function matchesHash(token: string, hash: string): boolean {
  const actual = Buffer.from(hashToken(token), 'hex');
  const expected = Buffer.from(hash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
