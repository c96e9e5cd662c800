import type { AddressInfo } from 'node:net';
import { buildLmsApp, type LmsApp, type LmsAppOptions } from './app';

export { buildLmsApp, type LmsApp, type LmsAppOptions } from './app';
export { USERS, COURSE, FIRST_LINK_CUSTOM, ROLE, type LmsUser, type Score } from './store';
export { BRIGHTSPACE_TOKEN_AUDIENCE } from './institutions';
export { COURSE_MEMBERS, COURSE_SIZE, MEMBERSHIP_ROLE, type Member, type MemberStatus } from './roster';
export { MEMBERSHIP_CONTAINER_TYPE, NRPS_CLAIM, NRPS_SCOPE, PAGE_LIMIT } from './routes/nrps';

export interface StartLmsOptions extends Omit<LmsAppOptions, 'publicUrl'> {
  /** 0 (default): any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningLms {
  /** Our issuer, e.g. http://127.0.0.1:41234. */
  url: string;
  app: LmsApp;
  /** The outage switch without the HTTP endpoint. */
  setOutage(down: boolean): void;
  close(): Promise<void>;
}

/**
 * The stand-in in-process, for other packages' tests (the API's AGS suite): listens on loopback,
 * its issuer is the address it got.
 */
export async function startLms(options: StartLmsOptions): Promise<RunningLms> {
  const host = options.host ?? '127.0.0.1';
  // The issuer must be known before the app is built, so the port is taken first.
  const port = options.port || (await freePort(host));
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const app = await buildLmsApp({ ...options, publicUrl: url });
  await app.listen({ port, host });
  return {
    url,
    app,
    setOutage(down) {
      app.lms.outage.down = down;
    },
    close: () => app.close(),
  };
}

async function freePort(host: string): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
