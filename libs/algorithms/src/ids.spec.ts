import { describe, expect, it } from 'vitest';
import {
  leaseId,
  newNonce,
  parseLeaseId,
  parseReservationId,
  randomBase62,
  reservationId,
} from './ids';
import { identifierHash } from './rule-key';

const idHash = identifierHash('user-42');
const nonce = 'Ab3dEf6hIj9lMn0p';

describe('reservation and lease ids', () => {
  it('are r1./l1. + scope + identifier hash + nonce, parsed back into their parts', () => {
    const id = reservationId('tnt_1.pol-2', idHash, nonce);
    expect(id).toBe(`r1.tnt_1.pol-2.${idHash}.${nonce}`);
    expect(parseReservationId(id)).toEqual({
      scope: 'tnt_1.pol-2',
      owner: 'tnt_1',
      name: 'pol-2',
      idHash,
      nonce,
    });
    expect(parseLeaseId(leaseId('api', idHash, nonce))).toEqual({
      scope: 'api',
      owner: undefined,
      name: 'api',
      idHash,
      nonce,
    });
    const longest = reservationId(`${'t'.repeat(64)}.${'p'.repeat(64)}`, idHash, nonce);
    expect(parseReservationId(longest)?.owner).toBe('t'.repeat(64));
  });

  it('a reservation id is no lease id, and the other way round', () => {
    expect(parseLeaseId(reservationId('t.p', idHash, nonce))).toBeUndefined();
    expect(parseReservationId(leaseId('t.p', idHash, nonce))).toBeUndefined();
  });

  it.each([
    undefined,
    42,
    '',
    `r2.t.p.${idHash}.${nonce}`,
    `r1.t.p.${idHash}`,
    `r1.t.p.${idHash}.${nonce}x`,
    `r1.t.p.${idHash.slice(1)}.${nonce}`,
    `r1.t.p.q.${idHash}.${nonce}`,
    `r1.t{x}.p.${idHash}.${nonce}`,
    `r1.${'t'.repeat(65)}.p.${idHash}.${nonce}`,
    `r1.t.p.${idHash}.${nonce.slice(0, 15)}_`,
    ` r1.t.p.${idHash}.${nonce}`,
    `r1.t.p.${idHash}.${nonce}\n`,
  ])('refuses %j', (id) => {
    expect(parseReservationId(id)).toBeUndefined();
  });

  it('nonces: 16 base62 characters from the CSPRNG, every character used', () => {
    const nonces = Array.from({ length: 2000 }, newNonce);
    expect(nonces.every((n) => /^[0-9A-Za-z]{16}$/.test(n))).toBe(true);
    expect(new Set(nonces).size).toBe(nonces.length);
    expect(new Set(randomBase62(20_000)).size).toBe(62);
  });
});
