import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

const OutboxMail = Type.Object({
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  sentAt: Type.String(),
});

/**
 * GET /api/dev/outbox.json: the mails the API "sent" into its development outbox, newest first,
 * for a developer's eyes and the e2e suite. Registered only with MAIL_DEV_OUTBOX (never with
 * SMTP_URL): it hands every confirmation link to whoever asks.
 */
export const devOutboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const outbox = app.mailer?.outbox;
  if (!outbox) return;
  app.get(
    '/outbox.json',
    {
      config: { public: true },
      schema: {
        tags: ['dev'],
        summary: 'Development only: the mails the API would have sent',
        response: { 200: Type.Array(OutboxMail) },
      },
    },
    async () => outbox.list(),
  );
};

export default devOutboxRoutes;
