import { HttpException, HttpStatus } from '@nestjs/common';
import {
  AuthenticationError,
  EngineError,
  FAIL_CLOSED_RETRY_MS,
  InputError,
  PROBLEM_BASE,
  UnavailableError,
} from '@sluice/engine';
import { sendProblem } from '@sluice/nest-kit';
import type { FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { MAX_BODY_BYTES } from './body';

/** One rejected input field, as every 400 answer lists them. */
export interface FieldError {
  field: string;
  message: string;
}

interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail: string;
  instance: string;
  errors?: FieldError[];
}

/** An error's answer: its problem, the headers it needs, and whether it is unexpected. */
export interface ErrorAnswer {
  problem: Problem;
  headers: Record<string, string>;
  /** A 500: the error is a bug to log, and its message is not shown. */
  unexpected: boolean;
}

const INVALID_REQUEST = `${PROBLEM_BASE}invalid-request`;

/** `WWW-Authenticate` of a 401 (RFC 6750 §3): which scheme, and why a given key was refused. */
function bearerChallenge(error: AuthenticationError): string {
  if (error.failure === 'missing') return 'Bearer realm="sluice"';
  return `Bearer realm="sluice", error="invalid_token", error_description="${error.message}"`;
}

/** A status code from Fastify's errors (`FST_ERR_*`) or Nest's `HttpException`s. */
function httpStatus(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  if (!(error instanceof Error) || !('statusCode' in error)) return undefined;
  const { statusCode } = error;
  return typeof statusCode === 'number' ? statusCode : undefined;
}

/**
 * How an error is answered, as RFC 9457 problem+json: the engine's typed errors with their own
 * status and type (400 with field-level `errors`, 401 with `WWW-Authenticate`, 503 with
 * `Retry-After`); Fastify's and Nest's client errors (malformed JSON, wrong content type, body
 * too large, unknown route) with their status; anything else as a 500 that names no internals.
 */
export function errorAnswer(error: unknown, instance: string): ErrorAnswer {
  const headers: Record<string, string> = {};
  if (error instanceof EngineError) {
    const { type, title, status, detail } = error.toProblem(instance);
    if (error instanceof AuthenticationError) headers['www-authenticate'] = bearerChallenge(error);
    if (error instanceof UnavailableError) {
      headers['retry-after'] = String(Math.ceil(FAIL_CLOSED_RETRY_MS / 1000));
    }
    const errors =
      error instanceof InputError
        ? { errors: error.issues.map(({ path, message }) => ({ field: path, message })) }
        : {};
    return {
      problem: { type, title, status, detail, instance, ...errors },
      headers,
      unexpected: false,
    };
  }
  const status = httpStatus(error);
  if (status !== undefined && status >= 400 && status < 500) {
    const message = error instanceof Error ? error.message : String(error);
    const problem: Problem =
      status === HttpStatus.BAD_REQUEST
        ? {
            // Fastify's body errors: empty or malformed JSON
            type: INVALID_REQUEST,
            title: 'Bad Request',
            status,
            detail: `body: ${message}`,
            instance,
            errors: [{ field: 'body', message }],
          }
        : {
            status,
            title: STATUS_CODES[status] ?? 'Error',
            detail: clientDetail(status, message),
            instance,
          };
    return { problem, headers, unexpected: false };
  }
  return {
    problem: {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      detail: 'An unexpected error occurred; it has been logged.',
      instance,
    },
    headers,
    unexpected: true,
  };
}

function clientDetail(status: number, message: string): string {
  switch (status) {
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return `The request body is larger than ${MAX_BODY_BYTES} bytes.`;
    case HttpStatus.UNSUPPORTED_MEDIA_TYPE:
      return 'The request body must be application/json.';
    default:
      return message;
  }
}

/** Sends `answer` (the reply must not have been sent). */
export function sendErrorAnswer(reply: FastifyReply, { problem, headers }: ErrorAnswer): void {
  reply.headers(headers);
  sendProblem<{ errors?: FieldError[] }>(reply, problem);
}

/** The request path of a URL: a problem's `instance`. */
export function instanceOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
