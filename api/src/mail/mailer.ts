import { createTransport } from 'nodemailer';
import type { MailConfig } from '../config';

/** A plain-text mail: nothing a user typed (names, addresses) can become markup in it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface SentMail extends Mail {
  sentAt: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the mail; throws when it did not. */
  send(mail: Mail): Promise<void>;
  /** Only the development outbox: the mails "sent", newest first. */
  outbox?: { list(): SentMail[] };
}

/** Mails the development outbox keeps; the oldest go first. */
const OUTBOX_SIZE = 200;

/**
 * The API's own mail (e-mail change confirmations and notices), on nodemailer: over SMTP when
 * `smtpUrl` is set; otherwise nodemailer's JSON transport composes each mail (the same address
 * checks SMTP would get) and it is kept in a bounded in-memory outbox for development and tests.
 * The mail is not left to the identity provider because a real Keycloak only sends its own
 * templates (required actions), not a link into the portal.
 */
export function createMailer(config: MailConfig, timeoutMs = 15_000): Mailer {
  if (config.smtpUrl) {
    // The URL's settings win; a hung server must not hold the administrator's request long.
    const transport = createTransport({
      url: config.smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    return {
      async send(mail) {
        await transport.sendMail({ from: config.from, ...mail });
      },
    };
  }
  const transport = createTransport({ jsonTransport: true });
  const mails: SentMail[] = [];
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: config.from, ...mail });
      mails.unshift({
        to: info.envelope.to.join(', '),
        subject: mail.subject,
        text: mail.text,
        sentAt: new Date().toISOString(),
      });
      mails.length = Math.min(mails.length, OUTBOX_SIZE);
    },
    outbox: { list: () => mails.map((m) => ({ ...m })) },
  };
}
