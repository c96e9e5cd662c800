import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { LRUCache } from 'lru-cache';
import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What `/dev/outbox.json` lists for each mail. */
export interface OutboxMail extends Mail {
  sentAt: string;
}

export interface Outbox {
  /** Newest first. */
  list(): OutboxMail[];
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Only without SMTP: the local outbox that stands in for everyone's mailbox. */
  outbox?: Outbox;
}

export interface MailerOptions {
  /** `smtp://user:pass@host:587`, `smtps://…`; unset = the local outbox. */
  smtpUrl?: string;
  /** The From header, e.g. `"Simulation Portal" <no-reply@portal.example>`. */
  from: string;
  /** Where the outbox is kept between restarts; null keeps it in memory only. */
  dataDir: string | null;
  logger: Logger;
  /** Mails the outbox keeps; the oldest go first. */
  outboxSize?: number;
}

export const DEFAULT_OUTBOX_SIZE = 200;
const OUTBOX_FILE = 'outbox.json';

const isOutboxMail = (value: unknown): value is OutboxMail => {
  const mail = value as Partial<OutboxMail> | null;
  return (
    typeof mail === 'object' &&
    mail !== null &&
    [mail.to, mail.subject, mail.text, mail.html, mail.sentAt].every((field) => typeof field === 'string')
  );
};

/**
 * nodemailer over SMTP in production. In the embedded default nodemailer's JSON transport
 * composes each message (the same address parsing and checks as SMTP would get) and the result
 * goes to a bounded outbox instead of the network; it is written to the data dir so invitations
 * survive a restart of `npm start`.
 */
export async function createMailer({
  smtpUrl,
  from,
  dataDir,
  logger,
  outboxSize = DEFAULT_OUTBOX_SIZE,
}: MailerOptions): Promise<Mailer> {
  if (smtpUrl) {
    const transport = createTransport(smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from, ...mail });
      },
    };
  }

  const transport = createTransport({ jsonTransport: true, skipEncoding: true });
  // Keyed by a sequence number so that listing by key order is also listing by time.
  const mails = new LRUCache<number, OutboxMail>({ max: outboxSize });
  let sequence = 0;
  const file = dataDir ? join(dataDir, OUTBOX_FILE) : null;

  if (file) {
    try {
      const stored: unknown = JSON.parse(await readFile(file, 'utf8'));
      if (Array.isArray(stored)) {
        // Stored newest first; re-added oldest first so the newest stay if the bound shrank.
        for (const mail of stored.filter(isOutboxMail).reverse()) mails.set((sequence += 1), mail);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logger.warn({ err: error, file }, 'outbox file unreadable; starting empty');
    }
  }

  const list = (): OutboxMail[] =>
    [...mails.entries()].sort(([a], [b]) => b - a).map(([, mail]) => ({ ...mail }));

  let writing: Promise<void> = Promise.resolve();
  const persist = (): void => {
    if (!file) return;
    writing = writing.then(async () => {
      try {
        const temporary = `${file}.${process.pid}.tmp`;
        await mkdir(dataDir!, { recursive: true, mode: 0o700 });
        // Mode 600: the mails hold set-password links.
        await writeFile(temporary, `${JSON.stringify(list())}\n`, { mode: 0o600 });
        await rename(temporary, file);
      } catch (error) {
        logger.error({ err: error, file }, 'could not write the outbox file');
      }
    });
  };

  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      const composed = info.message;
      mails.set((sequence += 1), {
        to: info.envelope.to.join(', '),
        subject: composed.subject ?? mail.subject,
        text: typeof composed.text === 'string' ? composed.text : mail.text,
        html: typeof composed.html === 'string' ? composed.html : mail.html,
        sentAt: new Date().toISOString(),
      });
      persist();
    },
    outbox: { list },
  };
}
