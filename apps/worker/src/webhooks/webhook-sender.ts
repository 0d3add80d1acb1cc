import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { ResolvedAddress } from '@sluice/webhooks';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { serviceInfo } from '../service-info';
import { parseRetryAfter } from './backoff';

/** What one attempt got. */
export interface SendResult {
  /** A 2xx answer. */
  ok: boolean;
  /** The answer's status; undefined when none came (refused, reset, timed out). */
  status: number | undefined;
  /** Until the answer's headers, or the failure. */
  latencyMs: number;
  /** Why it failed, for the delivery record; undefined for a 2xx. */
  error: string | undefined;
  /** The answer's `Retry-After`, in ms; undefined when it gave none. */
  retryAfterMs: number | undefined;
}

/** Kept short in the delivery record. */
const MAX_ERROR_LENGTH = 500;

/**
 * POSTs one delivery. It connects to an address the destination check just approved (a pinned
 * lookup), never resolving the host again, so DNS cannot swap in an internal address between
 * the check and the connection; TLS still verifies the certificate for the URL's host. Redirects
 * are not followed (a 3xx fails the attempt): they could point anywhere. Keep-alive sockets are
 * reused per host; a socket is only ever opened to an approved address.
 */
@Injectable()
export class WebhookSender implements OnApplicationShutdown {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true }),
    'https:': new https.Agent({ keepAlive: true }),
  };
  private readonly userAgent = `Sluice-Webhooks/${serviceInfo.version}`;

  send(
    url: string,
    address: ResolvedAddress,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
  ): Promise<SendResult> {
    const target = new URL(url);
    const protocol = target.protocol === 'https:' ? 'https:' : 'http:';
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [address]);
      else callback(null, address.address, address.family);
    };
    const startedAt = performance.now();
    const elapsed = () => Math.round(performance.now() - startedAt);
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'latencyMs'>, latencyMs = elapsed()) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs });
      };
      const request = (protocol === 'https:' ? https : http).request(target, {
        method: 'POST',
        agent: this.agents[protocol],
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': this.userAgent,
          ...headers,
        },
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      request.on('response', (response) => {
        const latencyMs = elapsed();
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
        // the body is not needed, but must be read for the socket to be reused
        response.resume();
        response.on('error', () => undefined);
        finish(
          {
            ok,
            status,
            error: ok
              ? undefined
              : `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}`,
            retryAfterMs,
          },
          latencyMs,
        );
      });
      request.on('error', (error) =>
        finish({
          ok: false,
          status: undefined,
          error: error.message.slice(0, MAX_ERROR_LENGTH),
          retryAfterMs: undefined,
        }),
      );
      request.end(body);
    });
  }

  onApplicationShutdown(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }
}
