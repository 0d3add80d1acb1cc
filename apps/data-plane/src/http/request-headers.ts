/** The secret of `Authorization: Bearer <secret>` (scheme case-insensitive), else undefined. */
export function bearerSecret(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.length < 7) return undefined;
  if (authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  return authorization.slice(7).trim();
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * Whether the `Prefer` field (RFC 7240) holds the `gateway` preference, alone or among others
 * (`respond-async, gateway`), with or without a value or parameters, whatever its case. Commas
 * inside quoted values do not separate preferences. Several `Prefer` lines arrive joined by `, `.
 */
export function prefersGateway(field: string | string[] | undefined): boolean {
  if (field === undefined) return false;
  const prefer = Array.isArray(field) ? field.join(', ') : field;
  let start = 0;
  while (start < prefer.length) {
    const name = preferenceName(prefer, start);
    if (name === 'gateway') return true;
    start = nextPreference(prefer, start);
  }
  return false;
}

/** The lowercased token that starts the preference at `start` (after optional whitespace). */
function preferenceName(field: string, start: number): string {
  let from = start;
  while (from < field.length && (field[from] === ' ' || field[from] === '\t')) from += 1;
  let to = from;
  while (to < field.length && !' \t=;,'.includes(field[to] ?? ',')) to += 1;
  return field.slice(from, to).toLowerCase();
}

/** Index just past the comma that ends the preference at `start` (quoted strings skipped). */
function nextPreference(field: string, start: number): number {
  let quoted = false;
  for (let i = start; i < field.length; i += 1) {
    const code = field.charCodeAt(i);
    if (quoted) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) quoted = false;
    } else if (code === QUOTE) quoted = true;
    else if (code === COMMA) return i + 1;
  }
  return field.length;
}
