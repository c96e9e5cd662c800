import fp from 'fastify-plugin';
import { systemClock, type Clock } from '../../jobs/clock';

declare module 'fastify' {
  interface FastifyInstance {
    /** The time the scheduled jobs run on (jobs/schedule-job.ts). */
    clock: Clock;
  }
}

export const clockPlugin = fp<{ clock?: Clock }>(
  async (app, { clock }) => {
    app.decorate('clock', clock ?? systemClock);
  },
  { name: 'clock' },
);
