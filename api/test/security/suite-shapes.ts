import type fc from 'fast-check';
import type { DemoAccount } from '@portal/contract/demo-accounts';
import type { TestApp } from '../helper';

// The shapes of the auth matrix (auth-matrix.test.ts) and the fuzz suite
// (fuzz-write-routes.test.ts), in one place for the suites and every feature's fixture file.

/** A request of the auth matrix (`app.inject` options without the method). */
export interface Req {
  url: string;
  payload?: string | Buffer | Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A request for another organisation's (or another user's) object. */
export interface Foreign {
  as: DemoAccount;
  what: string;
  req: Req;
}

/** What a route needs to be called by the auth matrix. */
export interface Fixture {
  /** Bearer routes: who the positive control calls as (default: the Demo Hospital learner). */
  actor?: DemoAccount;
  /**
   * A request `as` may make: with a good credential it answers 2xx. Session routes put their
   * `Authorization: Session …` in it; signed-URL routes their signature.
   */
  build(as: DemoAccount): Promise<Req>;
  /** Signed-URL routes: the same file without a valid signature, in several ways. */
  unsigned?: () => Promise<Array<{ what: string; req: Req }>>;
  /** Requests for other organisations' (or other users') objects, as someone who holds the permission. */
  foreign?: () => Promise<Foreign[]>;
  /** A request the learner lacks the permission for, when the route's declaration alone does not say. */
  learnerDenied?: () => Promise<Req>;
  /**
   * Public routes that take a bearer token of their own (the launch sign-in broker's userinfo,
   * an OAuth resource of its issuer): every portal credential sent instead must be refused (401).
   */
  ownBearer?: true;
  /** Routes whose success is no 2xx (the LTI redirects): whether the control succeeded. */
  succeeded?(res: { statusCode: number; headers: Record<string, unknown> }): boolean;
}

/** A request of the fuzz suite. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** What every fuzzer is given; the suite's own context has more. */
export interface FuzzContext {
  t: TestApp;
}

/** A route's hostile inputs, and how to turn one into a request (may create what it needs first). */
export interface Fuzzer<T = unknown, C extends FuzzContext = FuzzContext> {
  input: fc.Arbitrary<T>;
  request(ctx: C, input: T): Promise<FuzzRequest>;
}

/** A fuzzer of any input type, for a list of them. */
export const fuzzer = <T, C extends FuzzContext = FuzzContext>(
  f: Fuzzer<T, C>,
): Fuzzer<unknown, C> => f as unknown as Fuzzer<unknown, C>;
