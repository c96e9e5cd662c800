import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../../../../src/db/driver';
import { account, authHeader, xsrfHeaders, type TestApp } from '../../../../helper';
import { rawMultipart } from '../simulator/session-fixtures';

export const sysAdmin = account('sys admin');
export const orgAdmin = account('org admin', 'Demo Hospital');
export const learner = account('learner', 'Demo Hospital');
export const otherLearner = account('learner', 'Other College');

export async function orgId(db: Queryable, name: 'Demo Hospital' | 'Other College') {
  const res = await db.query<{ id: number }>('select id from organisations where name = $1', [
    name,
  ]);
  return res.rows[0]!.id;
}

export async function roleId(db: Queryable, name: string) {
  const res = await db.query<{ id: number }>('select id from roles where name = $1', [name]);
  return res.rows[0]!.id;
}

/** A licence of the organisation; `expired`: it ended yesterday. */
export async function createLicense(
  db: Queryable,
  organisationId: number,
  options: { seats?: number; expired?: boolean; name?: string } = {},
): Promise<number> {
  const res = await db.query<{ id: number }>(
    `insert into license_blocks (organisation_id, license_name, number_of_seats, start_date,
                                 expiry_date, duration_id)
     values ($1, $2, $3, current_date - 400, current_date + $4::integer,
             (select id from lookups where field = 'license_duration' and code = 'P1Y'))
     returning id`,
    [
      organisationId,
      options.name ?? `Licence ${randomUUID().slice(0, 8)}`,
      options.seats ?? 10,
      options.expired ? -1 : 365,
    ],
  );
  return res.rows[0]!.id;
}

export async function headers(sub: string) {
  return { ...(await authHeader(sub)), ...xsrfHeaders() };
}

export function csvForm(text: string | Buffer, fileName = 'users.csv', type = 'text/csv') {
  return rawMultipart([
    { name: 'file', fileName, type, data: Buffer.isBuffer(text) ? text : Buffer.from(text) },
  ]);
}

export async function upload(t: TestApp, sub: string, text: string | Buffer, fileName?: string) {
  const form = csvForm(text, fileName);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/file/upload/user',
    headers: { ...(await headers(sub)), 'content-type': form.contentType },
    payload: form.payload,
  });
}

/** Uploads `text` as `sub` and answers the file id. */
export async function uploaded(t: TestApp, sub: string, text: string): Promise<string> {
  const res = await upload(t, sub, text);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ id: string }>().id;
}

export async function bulkAdd(
  t: TestApp,
  sub: string,
  body: { file: string; license: number; role: number },
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/user',
    headers: await headers(sub),
    payload: body,
  });
}

export function csvOf(rows: Array<[string, string, string]>, header = 'firstName,lastName,email') {
  return [header, ...rows.map((r) => r.join(','))].join('\n') + '\n';
}

export async function count(db: Queryable, sql: string, params: unknown[] = []) {
  const res = await db.query<{ n: number }>(`select count(*)::int as n from ${sql}`, params);
  return res.rows[0]!.n;
}
