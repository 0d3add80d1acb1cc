import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/** argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane): bounded memory per login on a small host. */
const HASH_OPTIONS: argon2.HashOptions = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

export const MIN_PASSWORD_LENGTH = 12;
/** Bounds the work an attacker can ask for per attempt. */
export const MAX_PASSWORD_LENGTH = 256;

/** Rules for a password a user sets (checked when it is set, not at login). */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

let unknownUserHash: Promise<string> | undefined;

/**
 * Whether `password` matches `hash`. Without a hash (unknown account, no password set) it still
 * verifies against a throw-away hash, so the answer takes as long either way and its timing does
 * not tell whether the account exists.
 */
export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    unknownUserHash ??= hashPassword(randomBytes(16).toString('hex'));
    await argon2.verify(await unknownUserHash, password);
    return false;
  }
  return argon2.verify(hash, password);
}

/** 144 random bits as 24 base64url characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
