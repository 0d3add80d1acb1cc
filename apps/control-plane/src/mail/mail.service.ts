import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { ENV, type Env } from '../env';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text: the mails carry a link and a sentence or two, nothing a client must render. */
  text: string;
}

/**
 * Sends the platform's mails (invitations, password resets) over SMTP when `SMTP_URL` is set.
 * Without it the message, link included, is written to the log: a development setup needs no
 * mail server, and whoever reads the log can follow the link. Production cannot start without it
 * (the env schema refuses), so its links never reach a log.
 */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter | undefined;

  constructor(@Inject(ENV) private readonly env: Env) {
    this.transport = env.SMTP_URL ? createTransport(env.SMTP_URL) : undefined;
  }

  /** Resolves once the SMTP server accepted the message (or it was logged). */
  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      this.logger.log(
        `SMTP_URL is not set; mail to ${message.to} not sent. Subject: ${message.subject}\n${message.text}`,
      );
      return;
    }
    await this.transport.sendMail({
      from: this.env.CONTROL_PLANE_MAIL_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }

  /** `${CONTROL_PLANE_LINK_BASE_URL}/<path>` (one slash between them whatever the base ends with). */
  link(path: string): string {
    return `${this.env.CONTROL_PLANE_LINK_BASE_URL.replace(/\/+$/, '')}/${path}`;
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
