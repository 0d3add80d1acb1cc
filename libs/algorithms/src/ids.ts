import { randomBytes } from 'node:crypto';
import { AlgorithmInputError } from './errors';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const NONCE_LENGTH = 16;
const NONCE = /^[0-9A-Za-z]{16}$/;
const ID_HASH = /^[A-Za-z0-9_-]{22}$/;
/** `<version>.<owner>.<name>.<idHash>.<nonce>` or `<version>.<name>.<idHash>.<nonce>`. */
const ID =
  /^(r1|l1)\.([A-Za-z0-9_-]{1,64})(?:\.([A-Za-z0-9_-]{1,64}))?\.([A-Za-z0-9_-]{22})\.([0-9A-Za-z]{16})$/;

/** `length` base62 characters from the CSPRNG, each equally likely (about 5.95 bits each). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 * 62: bytes above it would make the first characters likelier
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A reservation's or lease's nonce: 16 base62 characters from the CSPRNG (95 bits). */
export function newNonce(): string {
  return randomBase62(NONCE_LENGTH);
}

export function validateNonce(nonce: unknown, field = 'nonce'): string {
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
    throw new AlgorithmInputError(field, `must be ${NONCE_LENGTH} base62 characters (newNonce)`);
  }
  return nonce;
}

export function validateIdHash(idHash: unknown, field = 'idHash'): string {
  if (typeof idHash !== 'string' || !ID_HASH.test(idHash)) {
    throw new AlgorithmInputError(field, 'must be 22 base64url characters (identifierHash)');
  }
  return idHash;
}

/** What a reservation or lease id names: a rule set's scope, an identifier's hash, a nonce. */
export interface OperationId {
  /** The rule set's scope: `<owner>.<name>` (the engine's `<tenantId>.<policyId>`) or `<name>`. */
  scope: string;
  /** The scope's owner (the engine's tenant id); undefined for a one-part scope. */
  owner: string | undefined;
  /** The scope's name (the engine's policy id). */
  name: string;
  /** `identifierHash(identifier)`: the id derives every key without the identifier itself. */
  idHash: string;
  nonce: string;
}

/**
 * `r1.<scope>.<idHash>.<nonce>`, e.g. `r1.tnt_1.pol_2.<22 chars>.<16 chars>`: everything the
 * settle needs to find the record and the rules' keys (one hash tag, one cluster slot).
 * The parts are taken as valid (a rule set's scope, `identifierHash`, `newNonce`).
 */
export function reservationId(scope: string, idHash: string, nonce: string): string {
  return `r1.${scope}.${idHash}.${nonce}`;
}

/** `l1.<scope>.<idHash>.<nonce>`: what a release needs (see `reservationId`). */
export function leaseId(scope: string, idHash: string, nonce: string): string {
  return `l1.${scope}.${idHash}.${nonce}`;
}

/** The parts of a reservation id; undefined for anything that is not one (untrusted input). */
export function parseReservationId(id: unknown): OperationId | undefined {
  return parseId(id, 'r1');
}

/** The parts of a lease id; undefined for anything that is not one (untrusted input). */
export function parseLeaseId(id: unknown): OperationId | undefined {
  return parseId(id, 'l1');
}

function parseId(id: unknown, version: 'r1' | 'l1'): OperationId | undefined {
  if (typeof id !== 'string') return undefined;
  const match = ID.exec(id);
  if (!match || match[1] !== version) return undefined;
  const [, , first = '', second, idHash = '', nonce = ''] = match;
  return {
    scope: second === undefined ? first : `${first}.${second}`,
    owner: second === undefined ? undefined : first,
    name: second ?? first,
    idHash,
    nonce,
  };
}
