/** (b) The HTTP ceiling: bare node:http that parses the check body and answers JSON, no Redis. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { CHECK_PATH } from '../workload';
import { CheckInputError, closeOnSigterm, MAX_BODY_BYTES, parseCheck, serverEnv } from './common';

const env = serverEnv();

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST' || req.url !== CHECK_PATH) {
    send(res, 404, { error: 'not found' });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    try {
      if (size > MAX_BODY_BYTES) throw new CheckInputError(413, 'body too large');
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        throw new CheckInputError(400, 'body must be JSON');
      }
      const check = parseCheck(body);
      send(res, 200, { allowed: true, identifier: check.identifier });
    } catch (error) {
      if (!(error instanceof CheckInputError)) throw error;
      send(res, error.status, { error: error.message });
    }
  });
}

const server = createServer(handle);
server.listen(env.port, env.host);
closeOnSigterm(() => new Promise((resolve) => server.close(resolve)));
