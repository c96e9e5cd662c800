import type { AddressInfo } from 'node:net';
import type { CreatedSession, SimulationMode } from '@portal/contract';
import { account, authHeader, buildTestApp, xsrfHeaders, type TestApp } from '@portal/api/test/helper';

/** The real API, in-process on a fresh in-memory database, listening on an ephemeral port. */
export interface RunningApi extends TestApp {
  url: string;
}

export async function startApi(): Promise<RunningApi> {
  const api = await buildTestApp();
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = api.app.server.address() as AddressInfo;
  return { ...api, url: `http://127.0.0.1:${port}` };
}

export const learner = account('learner', 'Demo Hospital');

/**
 * A session for the demo learner on the leaf with `configuration`, created through the portal's
 * own route as the launch screen does.
 */
export async function createSession(api: RunningApi, configuration: string, mode: SimulationMode = 'Desktop'): Promise<CreatedSession & { productId: number }> {
  const leaf = (
    await api.db.query<{ id: number; product_id: number }>(
      'select id, product_id from product_categories where simulation_configuration = $1',
      [configuration],
    )
  ).rows[0];
  if (!leaf) throw new Error(`No seeded leaf with configuration ${configuration}`);
  const response = await api.app.inject({
    method: 'POST',
    url: `/api/v1/product/${leaf.product_id}/session`,
    headers: { ...(await authHeader(learner.sub)), ...xsrfHeaders() },
    payload: { configuration, mode, categoryId: leaf.id },
  });
  if (response.statusCode !== 201) throw new Error(`Creating a session answered ${response.statusCode}: ${response.body}`);
  const created = response.json<CreatedSession>();
  if (typeof created.token !== 'string' || typeof created.uuid !== 'string') throw new Error(`Unexpected session: ${response.body}`);
  return { ...created, productId: leaf.product_id };
}

export async function sessionRow(api: RunningApi, uuid: string) {
  const row = (
    await api.db.query<{ status: string; report_details: { summary?: string; score?: number } | null; evidence: number }>(
      `select s.status, s.report_details, (select count(*)::int from evidence e where e.session_uuid = s.uuid) as evidence
         from simulation_sessions s where s.uuid = $1`,
      [uuid],
    )
  ).rows[0];
  if (!row) throw new Error(`No session ${uuid}`);
  return row;
}

export async function evidenceRows(api: RunningApi, uuid: string) {
  return (
    await api.db.query<{ position: number; practice_activity: string; evidence_data: Record<string, unknown>; image_file_id: string | null }>(
      'select position, practice_activity, evidence_data, image_file_id from evidence where session_uuid = $1 order by position',
      [uuid],
    )
  ).rows;
}
