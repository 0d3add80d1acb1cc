import { unwrapResolverError } from '@apollo/server/errors';
import { Logger } from '@nestjs/common';
import type { GraphQLFormattedError } from 'graphql';
import { AppError } from './app-error';

/**
 * Codes Apollo and graphql-js give to a faulty request itself (syntax, validation, variable
 * values, introspection switched off), before any resolver ran: safe to show.
 */
const REQUEST_ERROR_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'OPERATION_RESOLUTION_FAILURE',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'INTROSPECTION_DISABLED',
  'MAX_RECURSIVE_SELECTIONS_EXCEEDED',
]);

const logger = new Logger('GraphQL');

/**
 * Every GraphQL error leaves through here (HTTP and WebSocket): an `AppError` keeps its message
 * and extensions, a request error its message and code, and anything else — a bug, a database
 * or Redis failure — becomes a bare INTERNAL_SERVER_ERROR, logged here with its stack.
 */
export function formatError(
  formatted: GraphQLFormattedError,
  error: unknown,
): GraphQLFormattedError {
  const where = {
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
  const original = unwrapResolverError(error);
  if (original instanceof AppError) {
    return { message: original.message, ...where, extensions: { ...original.extensions } };
  }
  const code = formatted.extensions?.['code'];
  if (typeof code === 'string' && REQUEST_ERROR_CODES.has(code) && !formatted.path) {
    return { message: formatted.message, ...where, extensions: { code } };
  }
  logger.error(original instanceof Error ? original : formatted.message);
  return {
    message: 'Internal server error.',
    ...where,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  };
}
