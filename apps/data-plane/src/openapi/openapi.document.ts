import type { ServiceInfo } from '@sluice/nest-kit';
import { z } from 'zod';
import { AUTHORIZE_PATH } from '../authorize/authorize.controller';
import { AUTHORIZE_INPUTS, DENY_STATUSES } from '../authorize/authorize.request';
import { CHECK_PATH } from '../check/check.controller';
import { checkRequestSchema, MAX_IDENTIFIER_BYTES } from '../check/check.schema';
import { MAX_BODY_BYTES } from '../http/body';
import { RELEASE_PATH, SETTLE_PATH } from '../reservations/reservations.controller';
import { releaseRequestSchema, settleRequestSchema } from '../reservations/reservations.schema';
import { WEBHOOKS_PATH } from '../webhooks/webhooks.controller';
import {
  WEBHOOK_BODY_LIMIT,
  webhookAcceptedSchema,
  webhookRequestSchema,
} from '../webhooks/webhooks.schema';
import {
  checkResultSchema,
  invalidRequestProblemSchema,
  livenessSchema,
  problemSchema,
  rateLimitedProblemSchema,
  readinessSchema,
  releaseResultSchema,
  ruleResultSchema,
  settledRuleResultSchema,
  settleResultSchema,
} from './schemas';

export const OPENAPI_PATH = '/docs/openapi.json';

type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The component schemas, from the same zod schemas the routes validate with. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  const named = {
    CheckRequest: checkRequestSchema,
    CheckResult: checkResultSchema,
    RuleResult: ruleResultSchema,
    SettleRequest: settleRequestSchema,
    SettleResult: settleResultSchema,
    SettledRuleResult: settledRuleResultSchema,
    ReleaseRequest: releaseRequestSchema,
    ReleaseResult: releaseResultSchema,
    WebhookRequest: webhookRequestSchema,
    WebhookAccepted: webhookAcceptedSchema,
    Problem: problemSchema,
    InvalidRequestProblem: invalidRequestProblemSchema,
    RateLimitedProblem: rateLimitedProblemSchema,
    Liveness: livenessSchema,
    Readiness: readinessSchema,
  };
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  });
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; the dialect is the document's default
  for (const schema of Object.values(schemas)) delete schema.$schema;
  return schemas;
}

const json = (schema: Json, description: string, headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema } },
});

const problem = (description: string, schema = 'Problem', headers?: Json) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/problem+json': { schema: ref(schema) } },
});

const header = (description: string, schema: Json = { type: 'string' }) => ({
  description,
  schema,
});

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': header('The headline rule’s limit.', { type: 'integer' }),
  'X-RateLimit-Remaining': header('Units left under the headline rule (never below 0).', {
    type: 'integer',
  }),
  'X-RateLimit-Reset': header('When the headline rule resets, in epoch seconds (rounded up).', {
    type: 'integer',
  }),
  'RateLimit-Policy': header(
    'IETF draft-11, one item per live rule: `"<rule>";q=<quota>;w=<window seconds>` (RFC 8941 list).',
  ),
  RateLimit: header(
    'IETF draft-11, one item per live rule: `"<rule>";r=<remaining>;t=<seconds to reset>` (RFC 8941 list).',
  ),
  'Retry-After': header(
    'Seconds (rounded up) before a retry can pass; only when denied and a retry can succeed.',
    {
      type: 'integer',
    },
  ),
};

const AUTH_PROBLEMS = {
  '401': problem(
    'Missing, unknown, revoked or expired API key (`WWW-Authenticate: Bearer`).',
    'Problem',
    {
      'WWW-Authenticate': header(
        '`Bearer realm="sluice"`, with `error="invalid_token"` for a refused key.',
      ),
    },
  ),
  '403': problem('The key may not use this policy or lacks the scope.'),
  '404': problem(
    'No policy of that name in the key’s tenant (another tenant’s policies are never seen).',
  ),
};

const UNAVAILABLE = problem(
  '`temporary-reduced-capacity`: Redis failed and the policy fails closed, or the key or policy could not be read from Redis.',
  'Problem',
  { 'Retry-After': header('Seconds before trying again.', { type: 'integer' }) },
);

const INVALID = problem('Bad input: every rejected field in `errors`.', 'InvalidRequestProblem');

const jsonBody = (schema: string) => ({
  required: true,
  description: `JSON of at most ${MAX_BODY_BYTES} bytes; unknown fields are refused.`,
  content: { 'application/json': { schema: ref(schema) } },
});

/** What settle and release answer besides 200 and their own 404 (and 409). */
const FOLLOW_UP_PROBLEMS = {
  '400': INVALID,
  '401': AUTH_PROBLEMS['401'],
  '403': problem('The key lacks the check scope, or may not use the id’s policy.'),
  '413': problem(`The body is larger than ${MAX_BODY_BYTES} bytes.`),
  '415': problem('The body is not `application/json`.'),
  '503': problem(
    '`temporary-reduced-capacity`: Redis failed or timed out (no fail mode applies; both are safe to repeat).',
    'Problem',
    { 'Retry-After': header('Seconds before trying again.', { type: 'integer' }) },
  ),
};

const inputParameter = (
  name: keyof typeof AUTHORIZE_INPUTS,
  description: string,
  schema: Json = { type: 'string' },
) => [
  {
    name: AUTHORIZE_INPUTS[name].header,
    in: 'header',
    description: `${description} (wins over the query parameter).`,
    schema,
  },
  { name: AUTHORIZE_INPUTS[name].query, in: 'query', description, schema },
];

const limitsParameters = [
  { name: 'policy', in: 'path', required: true, schema: { type: 'string' } },
  {
    name: 'identifier',
    in: 'path',
    required: true,
    description: `URL-encoded; 1 to ${MAX_IDENTIFIER_BYTES} bytes of UTF-8 once decoded.`,
    schema: { type: 'string' },
  },
];

/** The OpenAPI 3.1 description of every route, body, answer and problem type. */
export function openApiDocument(info: ServiceInfo): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sluice data plane',
      version: info.version,
      description:
        'Rate-limit decisions over compiled policies. A denial is an answer, not an error: `POST /v1/check` answers 200 with `allowed: false` unless gateway mode asks for a 429. Every problem is RFC 9457 `application/problem+json`; see the `Problem` schema for the problem types.',
    },
    security: [{ bearer: [] }],
    paths: {
      [CHECK_PATH]: {
        post: {
          operationId: 'check',
          summary:
            'Decide one request (consumes `cost` unless denied or `dryRun`); on a policy with reservations or a concurrency rule, an allowed check hands out the ids to settle or release.',
          parameters: [
            {
              name: 'mode',
              in: 'query',
              description:
                '`gateway`: a denial is a 429 (403 for a suspended tenant) problem+json.',
              schema: { type: 'string', enum: ['gateway'] },
            },
            {
              name: 'Prefer',
              in: 'header',
              description:
                'RFC 7240; the `gateway` preference (among others) works as `?mode=gateway` and is confirmed by `Preference-Applied: gateway`.',
              schema: { type: 'string' },
            },
          ],
          requestBody: jsonBody('CheckRequest'),
          responses: {
            '200': json(
              ref('CheckResult'),
              'The decision, allowed or denied (outside gateway mode).',
              {
                ...RATE_LIMIT_HEADERS,
                'Preference-Applied': header('`gateway` when `Prefer: gateway` was honoured.'),
              },
            ),
            '400': INVALID,
            ...AUTH_PROBLEMS,
            '403': problem(
              'The key may not use this policy or lacks the scope; in gateway mode also `tenant-suspended`.',
            ),
            '413': problem(`The body is larger than ${MAX_BODY_BYTES} bytes.`),
            '415': problem('The body is not `application/json`.'),
            '429': problem(
              'Gateway mode: `rate-limited`, worded from the denying rule.',
              'RateLimitedProblem',
              RATE_LIMIT_HEADERS,
            ),
            '503': UNAVAILABLE,
          },
        },
      },
      [SETTLE_PATH]: {
        post: {
          operationId: 'settle',
          summary:
            'Settle a check’s reservation at the actual cost: an overrun is charged (into debt if need be), unused cost refunded where it was charged. Idempotent.',
          requestBody: jsonBody('SettleRequest'),
          responses: {
            '200': json(
              ref('SettleResult'),
              'Settled now, or before (`alreadySettled: true`: nothing changed).',
            ),
            ...FOLLOW_UP_PROBLEMS,
            '404': problem(
              '`reservation-not-found`: unknown, expired (it counts at its estimate), another tenant’s, or of a policy that is gone.',
            ),
            '409': problem('`reservations-disabled`: the policy does not take reservations.'),
          },
        },
      },
      [RELEASE_PATH]: {
        post: {
          operationId: 'release',
          summary: 'Free a check’s concurrency lease. Idempotent.',
          requestBody: jsonBody('ReleaseRequest'),
          responses: {
            '200': json(
              ref('ReleaseResult'),
              'Released, or not held any more (`released: false`: released before or expired).',
            ),
            ...FOLLOW_UP_PROBLEMS,
            '404': problem(
              '`lease-not-found`: not a lease id, another tenant’s, or of a policy that is gone.',
            ),
          },
        },
      },
      [WEBHOOKS_PATH]: {
        post: {
          operationId: 'sendWebhook',
          summary:
            'Enqueue an event for one of the tenant’s webhook endpoints: it joins the endpoint’s FIFO (a leaky bucket) and is delivered at the endpoint’s constant rate, signed, with retries.',
          requestBody: {
            required: true,
            description: `JSON of at most ${WEBHOOK_BODY_LIMIT} bytes; unknown fields are refused.`,
            content: { 'application/json': { schema: ref('WebhookRequest') } },
          },
          responses: {
            '202': json(
              ref('WebhookAccepted'),
              'Admitted: the event will leave the FIFO at `departureAt`.',
              {
                'Idempotent-Replayed': header(
                  '`true` when this answers an earlier request with the same `idempotencyKey` (nothing was enqueued).',
                ),
              },
            ),
            '400': INVALID,
            '401': AUTH_PROBLEMS['401'],
            '403': problem('The key lacks the check scope.'),
            '404': problem(
              '`webhook-endpoint-not-found`: no endpoint of that id or name in the key’s tenant (another tenant’s endpoints are never seen).',
            ),
            '409': problem(
              '`webhook-endpoint-disabled`, or `idempotency-key-conflict` (the key is in use by a running request, or was used for another event).',
            ),
            '413': problem(`The body is larger than ${WEBHOOK_BODY_LIMIT} bytes.`),
            '415': problem('The body is not `application/json`.'),
            '429': problem(
              '`webhook-queue-full`: the endpoint’s FIFO holds its capacity; `retry-after-ms` and `Retry-After` say when one event’s room has leaked out.',
              'Problem',
              {
                'Retry-After': header('Seconds (rounded up) until there is room.', {
                  type: 'integer',
                }),
              },
            ),
            '503': problem(
              '`temporary-reduced-capacity`: the key or the queue could not be reached in Redis (safe to repeat with an idempotency key).',
              'Problem',
              { 'Retry-After': header('Seconds before trying again.', { type: 'integer' }) },
            ),
          },
        },
      },
      [AUTHORIZE_PATH]: {
        get: {
          operationId: 'authorize',
          summary:
            'Decide one request for a reverse proxy (NGINX auth_request, Traefik forwardAuth, Envoy ext_authz).',
          parameters: [
            ...inputParameter('policy', 'Policy name'),
            ...inputParameter(
              'identifier',
              'Who is limited; default: the right-most `X-Forwarded-For` entry (added by the proxy in front), else the client address',
            ),
            ...inputParameter('cost', 'Units to consume, integer 0..1e9, default 1', {
              type: 'string',
              pattern: '^[0-9]{1,10}$',
            }),
            ...inputParameter(
              'denyStatus',
              'Status of a rate-limit denial instead of 429 (NGINX auth_request passes only 2xx, 401 and 403)',
              {
                type: 'string',
                enum: [...DENY_STATUSES],
              },
            ),
          ],
          responses: {
            '200': { description: 'Allowed; empty body.', headers: RATE_LIMIT_HEADERS },
            '400': INVALID,
            ...AUTH_PROBLEMS,
            '403': problem(
              '`tenant-suspended`, a key not allowed on the policy, or a rate-limit denial sent as `deny_status=403`.',
            ),
            '429': problem('`rate-limited`.', 'RateLimitedProblem', RATE_LIMIT_HEADERS),
            '503': UNAVAILABLE,
          },
        },
      },
      '/v1/limits/{policy}/{identifier}': {
        parameters: limitsParameters,
        get: {
          operationId: 'inspect',
          summary: 'An identifier’s current state under a policy; consumes nothing.',
          responses: {
            '200': json(
              ref('CheckResult'),
              'Every rule peeked at cost 0 (`reason` is what a cost-0 check would answer).',
              RATE_LIMIT_HEADERS,
            ),
            '400': INVALID,
            ...AUTH_PROBLEMS,
            '503': UNAVAILABLE,
          },
        },
        delete: {
          operationId: 'reset',
          summary:
            'Forget an identifier’s state under a policy (every rule and candidate). Admin keys only.',
          responses: {
            '204': { description: 'Reset.' },
            '400': INVALID,
            ...AUTH_PROBLEMS,
            '403': problem('The key lacks the admin scope, or may not use this policy.'),
            '503': UNAVAILABLE,
          },
        },
      },
      '/healthz': {
        get: {
          operationId: 'liveness',
          security: [],
          summary: 'Liveness: answers while the process serves HTTP.',
          responses: { '200': json(ref('Liveness'), 'Alive.') },
        },
      },
      '/readyz': {
        get: {
          operationId: 'readiness',
          security: [],
          summary: 'Readiness: Redis answers PING.',
          responses: {
            '200': json(ref('Readiness'), 'Ready.'),
            '503': problem('Not ready; `detail` says which dependency failed.'),
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          security: [],
          summary: 'Prometheus metrics (text exposition format).',
          responses: {
            '200': {
              description: 'Metrics.',
              content: { 'text/plain': { schema: { type: 'string' } } },
            },
          },
        },
      },
      [OPENAPI_PATH]: {
        get: {
          operationId: 'openapi',
          security: [],
          summary: 'This document.',
          responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1.') },
        },
      },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A Sluice API key: `sk_live_…`.' },
      },
    },
  };
}
