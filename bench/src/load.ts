/**
 * The load generator, run by the runner as `taskset -c 1 node ... load.ts '<LoadConfig JSON>'`:
 * autocannon against one server, check bodies cycling over IDENTIFIER_COUNT identifiers, and the
 * result as one JSON line on stdout.
 */
import autocannon from 'autocannon';
import { CHECK_PATH, checkBody, IDENTIFIER_COUNT } from './workload';

export interface LoadConfig {
  url: string;
  connections: number;
  durationSeconds: number;
  apiKey: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Responses received (any status). */
  answered: number;
  sent: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function parseConfig(text: string | undefined): LoadConfig {
  const config = JSON.parse(text ?? 'null') as Partial<LoadConfig> | null;
  if (
    !config ||
    typeof config.url !== 'string' ||
    typeof config.apiKey !== 'string' ||
    !Number.isInteger(config.connections) ||
    typeof config.durationSeconds !== 'number'
  ) {
    throw new Error(`usage: load.ts '{"url","connections","durationSeconds","apiKey"}'`);
  }
  return config as LoadConfig;
}

async function main(): Promise<void> {
  const config = parseConfig(process.argv[2]);
  // Built once: the hot loop only picks the next body, shared by all connections so that
  // concurrent requests go to different identifiers.
  const bodies = Array.from({ length: IDENTIFIER_COUNT }, (_, i) => checkBody(i));
  let next = 0;
  const result = await autocannon({
    url: config.url,
    connections: config.connections,
    pipelining: 1,
    duration: config.durationSeconds,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${config.apiKey}`,
    },
    requests: [
      {
        method: 'POST',
        path: CHECK_PATH,
        setupRequest: (request) => {
          request.body = bodies[next++ % IDENTIFIER_COUNT];
          return request;
        },
      },
    ],
  });
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count ?? 0]),
  );
  const summary: LoadResult = {
    requestsPerSecond: result.requests.average,
    answered: result.requests.total,
    sent: result.requests.sent,
    latencyMs: {
      p50: result.latency.p50,
      p99: result.latency.p99,
      mean: result.latency.mean,
      max: result.latency.max,
    },
    statusCodes,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
