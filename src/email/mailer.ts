import { OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig, redactUrl } from '../config/app-config';

/** One message to one recipient; `code` is what it carries, named apart for the development transport's log line. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  code: string;
}

/** How long one send may take in all, whatever the SMTP server does: the request waits for it. */
export const SEND_DEADLINE_MS = 10_000;

/**
 * Per-phase limits of a send, below the deadline; `SMTP_URL`'s query parameters (nodemailer's options) override them.
 * nodemailer's own defaults (2 min to connect, 30 s for the greeting, 10 min of silence) would hold a request far too long.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: SEND_DEADLINE_MS, dnsTimeout: 5_000 };

/** Where messages go. Rejects when the message was not handed over (the caller answers 503). */
export abstract class Mailer {
  /** Said once at boot: where this process sends mail. Never holds a password. */
  abstract readonly description: string;
  abstract send(mail: OutgoingMail): Promise<void>;
}

/** Real mail through SMTP (nodemailer), one connection per message: codes are few, and no idle connection is kept. */
export class SmtpMailer extends Mailer implements OnApplicationShutdown {
  readonly description: string;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    this.description = `SMTP ${redactUrl(smtpUrl).replace(/\?.*$/, '')}`;
    // nodemailer logs nothing unless told to (`logger` off): its transcript would hold the AUTH exchange.
    this.transport = createTransport({ ...SMTP_TIMEOUTS, url: smtpUrl, logger: false, debug: false });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      signal: AbortSignal.timeout(SEND_DEADLINE_MS),
    });
  }

  onApplicationShutdown(): void {
    this.transport.close();
  }
}

/**
 * The development transport, used when `SMTP_URL` is empty: nothing is sent, and each message is one log line naming
 * the recipient and the code, so a newcomer can verify an address locally. The only place a code is ever logged.
 */
export class LogMailer extends Mailer {
  readonly description = 'none: SMTP_URL is not set, so each code is written to this log instead of being sent';
  private readonly logger = new JsonLogger('Mailer');

  send(mail: OutgoingMail): Promise<void> {
    this.logger.warn({
      msg: `e-mail not sent (SMTP_URL is not set): the code for ${mail.to} is ${mail.code}`,
      to: mail.to,
      code: mail.code,
    });
    return Promise.resolve();
  }
}

export function createMailer(config: AppConfig): Mailer {
  const mailer = config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : new LogMailer();
  new JsonLogger('Mailer').log({ msg: `e-mail transport: ${mailer.description}` });
  return mailer;
}
