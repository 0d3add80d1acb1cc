import { Controller, Get, Module } from '@nestjs/common';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoggingModule } from '../src';
import { closeApps, startApp } from './support/test-app';

@Controller()
class EchoController {
  @Get('echo')
  echo(): { ok: true } {
    return { ok: true };
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

afterEach(closeApps);

describe('LoggingModule', () => {
  it('logs each request without its credentials', async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const { url } = await startApp({
      module: EchoModule,
      imports: [LoggingModule.forRoot({ service: 'logging-test', level: 'info', destination })],
    });

    const secret = 'sk_live_0123456789abcdefghijklmnopqrstuv';
    const response = await fetch(`${url}/echo`, {
      headers: { authorization: `Bearer ${secret}`, cookie: `session=${secret}` },
    });
    expect(response.status).toBe(200);

    // the request's line is written once its response has gone out: the client may see the
    // response first
    const requestLine = () =>
      lines.map((line) => JSON.parse(line)).find((entry) => entry.req?.url === '/echo');
    await vi.waitFor(() => expect(requestLine()).toBeDefined(), { timeout: 30_000 });
    const request = requestLine();
    expect(request?.req.headers).toMatchObject({
      authorization: '[Redacted]',
      cookie: '[Redacted]',
    });
    expect(lines.join('\n')).not.toContain(secret);
  });
});
