import { randomInt } from 'node:crypto';

/** One prefix per entity, so an id seen in a log or a URL says what it points at. */
export const ID_PREFIXES = {
  plan: 'pln',
  tenant: 'tnt',
  policy: 'pol',
  rule: 'rul',
  override: 'ovr',
  apiKey: 'key',
  user: 'usr',
  membership: 'mem',
  session: 'ses',
  invitation: 'inv',
  passwordResetToken: 'pwr',
  policyVersion: 'pvr',
  webhookEndpoint: 'wh',
  webhookDelivery: 'whd',
  event: 'evt',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** `<prefix>_<16 base-36 chars>` (≈ 82 random bits), e.g. `tnt_4k9x0c2m7q1z8b3d`. */
export function newId(kind: IdKind): string {
  let body = '';
  for (let i = 0; i < 16; i++) body += ALPHABET[randomInt(36)];
  return `${ID_PREFIXES[kind]}_${body}`;
}
