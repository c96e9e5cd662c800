import type { FastifyInstance } from 'fastify';

/**
 * What a write use case needs of the app: the database for its unit of work, the shared
 * repositories for its reads, the auth-user cache it refreshes after commit, the outbox worker
 * it kicks, and the mail and settings of the use cases that send mail. Routes pass `app`.
 */
export type ServiceContext = Pick<
  FastifyInstance,
  'db' | 'repos' | 'authUsers' | 'outboxWorker' | 'mailer' | 'config' | 'storage' | 'log'
>;
