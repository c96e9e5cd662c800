// MSW handlers typed with the contract: what the API answers, not how fetch is called.
import { http, HttpResponse } from 'msw';
import type {
  CloseSessionResult,
  CreatedSession,
  CreateSessionBody,
  Detail,
  EntitlementModes,
  ProductCategory,
  ProductList,
  SessionStatus,
  SessionStatusValue,
} from '@portal/contract';
import { SESSION_TOKEN, SESSION_UUID } from './fixtures';

/** Path parameters as MSW hands them over: strings. */
type SessionParams = { productId: string; uuid: string };

const fail = (status: number) =>
  HttpResponse.json<Detail>({ detail: `Failed with ${status}` }, { status });

export const getProducts = (products: ProductList | number) =>
  http.get<never, never, ProductList | Detail>('/api/v1/product', () =>
    typeof products === 'number' ? fail(products) : HttpResponse.json<ProductList>(products),
  );

export const getCategories = (byProduct: Record<number, ProductCategory[]>) =>
  http.get<{ productId: string }, never, ProductCategory[] | Detail>(
    '/api/v1/product/:productId/category',
    ({ params }) => {
      const categories = byProduct[Number(params.productId)];
      return categories ? HttpResponse.json<ProductCategory[]>(categories) : fail(404);
    },
  );

export const getEntitlementModes = (modes: EntitlementModes['modes']) =>
  http.get<never, never, EntitlementModes>('/api/v1/user/:userId/entitlement-mode/:productId', () =>
    HttpResponse.json<EntitlementModes>({ modes }),
  );

/** Records every create request; `status` other than 201 answers with an error. */
export const createSession = (
  sent: { productId: string; body: CreateSessionBody }[],
  status = 201,
) =>
  http.post<{ productId: string }, CreateSessionBody, CreatedSession | Detail>(
    '/api/v1/product/:productId/session',
    async ({ params, request }) => {
      sent.push({ productId: params.productId, body: await request.json() });
      if (status !== 201) return fail(status);
      return HttpResponse.json<CreatedSession>(
        { token: SESSION_TOKEN, uuid: SESSION_UUID },
        { status: 201 },
      );
    },
  );

/** Answers the statuses in turn, the last one from then on; a number answers with that HTTP error. */
export const sessionStatus = (sequence: (SessionStatusValue | number)[]) => {
  let i = 0;
  const calls = { count: 0 };
  const handler = http.get<SessionParams, never, SessionStatus | Detail>(
    '/api/v1/product/:productId/session/:uuid/status',
    ({ params }) => {
      calls.count += 1;
      const next = sequence[Math.min(i, sequence.length - 1)] ?? 'not_started';
      i += 1;
      if (typeof next === 'number') return fail(next);
      return HttpResponse.json<SessionStatus>({ uuid: params.uuid, status: next });
    },
  );
  return { handler, calls };
};

export const closeSession = (result: CloseSessionResult | number, closed: string[] = []) =>
  http.post<SessionParams, never, CloseSessionResult | Detail>(
    '/api/v1/product/:productId/session/:uuid/close',
    ({ params }) => {
      closed.push(params.uuid);
      return typeof result === 'number'
        ? fail(result)
        : HttpResponse.json<CloseSessionResult>(result);
    },
  );

/** POST …/complete: the owner's "I have finished"; a number answers with that error status. */
export const completeSession = (answer: number | 'ok', completed: string[] = []) =>
  http.post<SessionParams, never, SessionStatus | Detail>(
    '/api/v1/product/:productId/session/:uuid/complete',
    ({ params }) => {
      completed.push(params.uuid);
      return answer === 'ok'
        ? HttpResponse.json<SessionStatus>({ uuid: params.uuid, status: 'complete' })
        : fail(answer);
    },
  );
