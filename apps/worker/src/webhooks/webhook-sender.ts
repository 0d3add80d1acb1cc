import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ResolvedAddress } from '@sluice/webhooks';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { ENV, type Env } from '../env';
import { serviceInfo } from '../service-info';
import { parseRetryAfter } from './backoff';
import { EndpointAgents } from './endpoint-agents';

/** What one attempt got. */
export interface SendResult {
  /** A 2xx answer, read to its end or to `MAX_ANSWER_BYTES`. */
  ok: boolean;
  /** The answer's status; undefined when none came (refused, reset, timed out). */
  status: number | undefined;
  /** Until the answer was read, or the failure. */
  latencyMs: number;
  /** Why it failed, for the delivery record; undefined for a 2xx. */
  error: string | undefined;
  /** The answer's `Retry-After`, in ms; undefined when it gave none. */
  retryAfterMs: number | undefined;
}

/** Where one delivery goes. */
export interface Destination {
  /** The endpoint's id: its sockets are its own. */
  id: string;
  url: string;
}

/**
 * An answer's body is read this far, then the connection is closed. Nothing of it is kept (the
 * delivery record has no room for it): it is read only so that a short answer (an
 * acknowledgement, an error page) leaves its connection reusable.
 */
const MAX_ANSWER_BYTES = 16 * 1024;

/** Kept short in the delivery record. */
const MAX_ERROR_LENGTH = 500;

/**
 * POSTs one delivery. It connects to an address the destination check just approved (a pinned
 * lookup), never resolving the host again, so DNS cannot swap in an internal address between
 * the check and the connection; TLS still verifies the certificate for the URL's host. Redirects
 * are not followed (a 3xx fails the attempt): they could point anywhere.
 *
 * One deadline bounds the whole attempt — waiting for a socket, connecting, the headers and the
 * body — so a receiver that answers its headers and then trickles cannot hold a socket: at the
 * deadline the attempt fails as timed out and its socket is destroyed. The body is read up to
 * `MAX_ANSWER_BYTES`; past that the socket is destroyed rather than drained. Keep-alive sockets
 * are reused per endpoint, at most the endpoint's in-flight limit of them (`EndpointAgents`).
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agents: EndpointAgents;
  private readonly userAgent = `Sluice-Webhooks/${serviceInfo.version}`;

  constructor(@Inject(ENV) env: Env) {
    this.agents = new EndpointAgents(env.WORKER_WEBHOOK_MAX_IN_FLIGHT);
  }

  send(
    destination: Destination,
    address: ResolvedAddress,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<SendResult> {
    const target = new URL(destination.url);
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [address]);
      else callback(null, address.address, address.family);
    };
    const loan = this.agents.lend(destination.id, target);
    const startedAt = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      /** What the answer's headers said, once they came. */
      let answered: Omit<SendResult, 'latencyMs'> | undefined;
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        loan.release();
        resolve({ ...result, latencyMs: Math.round(performance.now() - startedAt) });
      };
      /** Ends the attempt with `result`, its socket destroyed rather than kept or drained. */
      const abandon = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        request.destroy();
        finish(result);
      };
      const request = (target.protocol === 'https:' ? https : http).request(target, {
        method: 'POST',
        agent: loan.agent,
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': this.userAgent,
          ...headers,
        },
      });
      const timer = setTimeout(
        () =>
          abandon(
            answered
              ? failed(answered, `not finished within ${timeoutMs} ms`)
              : noAnswer(`no answer within ${timeoutMs} ms`),
          ),
        timeoutMs,
      );
      request.on('response', (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const answer = {
          ok,
          status,
          error: ok ? undefined : httpError(response),
          retryAfterMs: parseRetryAfter(response.headers['retry-after']),
        };
        answered = answer;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > MAX_ANSWER_BYTES) abandon(answer);
        });
        // read to its end: the socket goes back to the agent, for the endpoint's next attempt
        response.on('end', () => finish(answer));
        response.on('error', () => undefined);
        response.on('close', () => abandon(failed(answer, 'the connection closed mid-answer')));
      });
      request.on('error', (error) =>
        finish(answered ? failed(answered, error.message) : noAnswer(error.message)),
      );
      request.end(body);
    });
  }

  onApplicationShutdown(): void {
    this.agents.destroy();
  }
}

function noAnswer(error: string): Omit<SendResult, 'latencyMs'> {
  return {
    ok: false,
    status: undefined,
    error: error.slice(0, MAX_ERROR_LENGTH),
    retryAfterMs: undefined,
  };
}

/** The answer's headers came, but not the rest of it: the attempt failed. */
function failed(answer: Omit<SendResult, 'latencyMs'>, why: string): Omit<SendResult, 'latencyMs'> {
  return {
    ...answer,
    ok: false,
    error: `HTTP ${answer.status}: ${why}`.slice(0, MAX_ERROR_LENGTH),
  };
}

function httpError(response: IncomingMessage): string {
  const reason = response.statusMessage ? ` ${response.statusMessage}` : '';
  return `HTTP ${response.statusCode}${reason}`.slice(0, MAX_ERROR_LENGTH);
}
