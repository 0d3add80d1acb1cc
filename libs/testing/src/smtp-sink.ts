import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** One message as the SMTP server received it, its text body decoded. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text/plain body, transfer encoding (7bit, quoted-printable, base64) undone. */
  text: string;
}

/**
 * A plain SMTP server on 127.0.0.1 that accepts every message and keeps it: the app under test
 * sends its mails through nodemailer to `url`, as it would to a real server. It speaks just what
 * a client needs without extensions (no STARTTLS, no AUTH, no PIPELINING).
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server = createServer((socket) => this.session(socket));
  private port = 0;

  private constructor() {}

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await new Promise<void>((resolve, reject) => {
      sink.server.once('error', reject);
      sink.server.listen(0, '127.0.0.1', resolve);
    });
    const address = sink.server.address();
    if (typeof address !== 'object' || !address) throw new Error('SMTP sink has no port');
    sink.port = address.port;
    return sink;
  }

  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /**
   * The first message to `to` (after those already taken) matching `predicate`, waiting up to
   * `timeoutMs`. A mail is sent within a second or two of its request; the default leaves a loaded
   * machine far more than 5 times that (10 s once proved too short in CI), and costs nothing when
   * the mail comes.
   */
  async waitFor(
    to: string,
    predicate: (mail: ReceivedMail) => boolean = () => true,
    timeoutMs = 45_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.messages.findIndex((mail) => mail.to.includes(to) && predicate(mail));
      if (index >= 0) return this.messages.splice(index, 1)[0]!;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  /** Messages to `to` received so far, without taking them. */
  sentTo(to: string): ReceivedMail[] {
    return this.messages.filter((mail) => mail.to.includes(to));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private session(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('utf8');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = '';
    let from = '';
    let to: string[] = [];
    let data: string[] | undefined;

    reply('220 sink ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line === '.') {
            this.messages.push({ from, to, ...parseMessage(data.join('\r\n')) });
            data = undefined;
            from = '';
            to = [];
            reply('250 queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 sink');
        else if (verb === 'MAIL') {
          from = address(line);
          reply('250 ok');
        } else if (verb === 'RCPT') {
          to.push(address(line));
          reply('250 ok');
        } else if (verb === 'DATA') {
          data = [];
          reply('354 end with .');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 not implemented');
      }
    });
  }
}

function address(line: string): string {
  return /<([^>]*)>/.exec(line)?.[1]?.toLowerCase() ?? '';
}

function parseMessage(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  // unfold continuation lines, then read `Name: value`
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_, hex: string) =>
                String.fromCharCode(parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8')
        : body;
  return { subject: headers.get('subject') ?? '', text };
}
