import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';

/** RFC 3339 date-time with an explicit offset; fractions beyond milliseconds are truncated. */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function invalid(value: unknown): GraphQLError {
  return new GraphQLError(
    `DateTime must be an RFC 3339 date-time with an offset, e.g. 2026-12-03T09:54:33Z; got ${JSON.stringify(value)}`,
  );
}

/** The instant an RFC 3339 string names; refuses impossible dates that `Date` would roll over. */
export function parseDateTime(value: unknown): Date {
  if (typeof value !== 'string') throw invalid(value);
  const match = RFC3339.exec(value);
  if (!match) throw invalid(value);
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetH = 0, offsetM = 0] =
    match.slice(1).map((part) => Number(part ?? 0));
  const calendar = new Date(Date.UTC(year, month - 1, day));
  const valid =
    calendar.getUTCMonth() === month - 1 &&
    calendar.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetH <= 23 &&
    offsetM <= 59;
  if (!valid) throw invalid(value);
  return new Date(value);
}

/** `DateTime`: an instant, sent as ISO 8601 UTC with milliseconds (`2026-12-03T09:54:33.000Z`). */
export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description:
    'An instant: sent as ISO 8601 in UTC (2026-12-03T09:54:33.000Z), accepted as any RFC 3339 date-time with an offset.',
  serialize(value) {
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
    throw new GraphQLError('DateTime cannot represent an invalid date');
  },
  parseValue: parseDateTime,
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw invalid(ast.kind);
    return parseDateTime(ast.value);
  },
});
