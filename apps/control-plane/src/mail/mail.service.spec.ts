import { Logger, type LoggerService } from '@nestjs/common';
import { parseEnv } from '@sluice/config';
import { afterAll, describe, expect, it } from 'vitest';
import { envSchema } from '../env';
import { MailService } from './mail.service';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sluice';

/** Collects what Nest's loggers write. */
class CollectingLogger implements LoggerService {
  readonly lines: { message: string; context: string | undefined }[] = [];
  log(message: string, context?: string): void {
    this.lines.push({ message, context });
  }
  error(): void {}
  warn(): void {}
}

afterAll(() => Logger.overrideLogger(false));

describe('MailService', () => {
  it('writes the message, link included, to the log when SMTP_URL is unset', async () => {
    const logger = new CollectingLogger();
    Logger.overrideLogger(logger);
    const mail = new MailService(parseEnv(envSchema, { DATABASE_URL }));

    await mail.send({ to: 'ada@example.com', subject: 'Hello', text: 'Open https://x/invite/abc' });

    expect(logger.lines).toEqual([
      {
        message: expect.stringMatching(
          /^SMTP_URL is not set; mail to ada@example\.com not sent\. Subject: Hello\nOpen https:\/\/x\/invite\/abc$/,
        ),
        context: 'MailService',
      },
    ]);
  });

  it.each([
    ['https://dash.example.com', 'https://dash.example.com/invite/t0k'],
    ['https://dash.example.com/', 'https://dash.example.com/invite/t0k'],
    ['https://example.com/sluice//', 'https://example.com/sluice/invite/t0k'],
  ])('builds links under %s', (base, link) => {
    const mail = new MailService(
      parseEnv(envSchema, { DATABASE_URL, CONTROL_PLANE_LINK_BASE_URL: base }),
    );

    expect(mail.link('invite/t0k')).toBe(link);
  });
});
