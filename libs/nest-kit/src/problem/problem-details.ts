import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';

export const problemContentType = 'application/problem+json';

/** The members RFC 9457 defines; `type` and `title` are always sent, as clients expect them. */
export interface ProblemDetailsMembers {
  /** URI reference naming the problem type; `about:blank` when the status says it all. */
  type: string;
  /** Short summary of the problem type, the same for every occurrence. */
  title: string;
  /** The HTTP status code of this occurrence. */
  status: number;
  /** Explanation of this occurrence, for a human. */
  detail?: string;
  /** URI reference of this occurrence, e.g. the request path. */
  instance?: string;
}

/**
 * An RFC 9457 problem details object. `Extensions` types the extension members (§3.2), e.g.
 * `{ 'violated-policies': ViolatedPolicy[] }`; they must not reuse a standard member's name.
 */
export type ProblemDetails<Extensions extends object = object> = ProblemDetailsMembers & Extensions;

/** A problem to send: `type` defaults to `about:blank` and `title` to the status phrase. */
export type ProblemInit<Extensions extends object = object> = Omit<
  ProblemDetailsMembers,
  'type' | 'title'
> &
  Partial<Pick<ProblemDetailsMembers, 'type' | 'title'>> &
  Extensions;

/**
 * Sends `problem` as `application/problem+json` with its status as the HTTP status. Extension
 * members are declared, not inferred (`sendProblem<{ 'violated-policies': Policy[] }>(…)`), so a
 * misspelt standard member fails to compile.
 */
export function sendProblem<Extensions extends object = object>(
  reply: FastifyReply,
  problem: ProblemInit<NoInfer<Extensions>>,
): FastifyReply {
  const body: ProblemDetails<Extensions> = {
    type: 'about:blank',
    title: STATUS_CODES[problem.status] ?? 'Error',
    ...problem,
  };
  return reply.status(problem.status).type(problemContentType).send(body);
}
