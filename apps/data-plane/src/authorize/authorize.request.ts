import { InputError } from '@sluice/engine';
import { fieldIssues } from '@sluice/policy';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { cost, costMessage, identifier, policyName } from '../check/check.schema';

/** Where a proxy may put each input: the header wins over the query parameter. */
export const AUTHORIZE_INPUTS = {
  policy: { header: 'x-sluice-policy', query: 'policy' },
  identifier: { header: 'x-sluice-identifier', query: 'identifier' },
  cost: { header: 'x-sluice-cost', query: 'cost' },
  denyStatus: { header: 'x-sluice-deny-status', query: 'deny_status' },
} as const;

/** Statuses a rate-limit denial may be sent with instead of 429 (what NGINX can pass on). */
export const DENY_STATUSES = ['401', '403', '429'] as const;

const costText = z
  .string({ error: costMessage })
  .regex(/^[0-9]{1,10}$/, { error: costMessage })
  .transform(Number)
  .pipe(cost);

const authorizeInput = z.object({
  policy: policyName,
  identifier,
  cost: costText.optional(),
  deny_status: z
    .enum(DENY_STATUSES, { error: `must be one of ${DENY_STATUSES.join(', ')}` })
    .transform(Number)
    .optional(),
});

export interface AuthorizeInput {
  policy: string;
  identifier: string;
  cost: number;
  denyStatus: number;
}

export interface AuthorizeRoute {
  Querystring: Record<string, unknown>;
}

/**
 * The check a proxy asks for. The identifier defaults to the client address: the right-most
 * `X-Forwarded-For` entry (the one the proxy in front appended; entries to its left come from
 * the client and can be forged), else the socket's peer address.
 */
export function parseAuthorizeRequest(request: FastifyRequest<AuthorizeRoute>): AuthorizeInput {
  const pick = ({ header, query }: { header: string; query: string }): unknown =>
    headerText(request.headers[header]) ?? request.query[query];
  const parsed = authorizeInput.safeParse({
    policy: pick(AUTHORIZE_INPUTS.policy),
    identifier: pick(AUTHORIZE_INPUTS.identifier) ?? clientAddress(request),
    cost: pick(AUTHORIZE_INPUTS.cost),
    deny_status: pick(AUTHORIZE_INPUTS.denyStatus),
  });
  if (!parsed.success) throw new InputError(fieldIssues(parsed.error));
  const { policy, identifier: who, cost: units = 1, deny_status: denyStatus = 429 } = parsed.data;
  return { policy, identifier: who, cost: units, denyStatus };
}

function clientAddress(request: FastifyRequest): string | undefined {
  const forwarded = headerText(request.headers['x-forwarded-for']);
  if (forwarded !== undefined) {
    const last = forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
    if (last !== '') return last;
  }
  return request.socket.remoteAddress;
}

/**
 * A header's text. Node reads header bytes as Latin-1, so UTF-8 sent raw (as proxies forward it)
 * is decoded again to match the same identifier sent in a JSON body; bytes that are not UTF-8
 * are refused rather than merged into U+FFFD.
 */
function headerText(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(', ') : value;
  // eslint-disable-next-line no-control-regex -- the test is "anything beyond ASCII"
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const bytes = Buffer.from(text, 'latin1');
  const decoded = bytes.toString('utf8');
  if (!Buffer.from(decoded, 'utf8').equals(bytes)) {
    throw new InputError([{ path: 'headers', message: 'must be ASCII or UTF-8' }]);
  }
  return decoded;
}
