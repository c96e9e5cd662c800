import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../../mail/mailer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API's own mail; null when neither SMTP_URL nor MAIL_DEV_OUTBOX is set. */
    mailer: Mailer | null;
  }
}

export const mailerPlugin = fp(
  async (app) => {
    const { mail } = app.config;
    if (!mail) {
      app.log.warn(
        "SMTP_URL is not set: administrators cannot change users' e-mail addresses, because " +
          'the new address could not be sent its confirmation link',
      );
    } else if (!mail.smtpUrl) {
      app.log.warn(
        'MAIL_DEV_OUTBOX: mails are not sent but listed at /api/dev/outbox.json (development only)',
      );
    }
    app.decorate('mailer', mail ? createMailer(mail) : null);
  },
  { name: 'mailer', dependencies: ['config'] },
);
