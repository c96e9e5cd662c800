import assert from 'node:assert/strict';
import type { DemoAccount } from '@portal/contract/demo-accounts';
import type { ProductConfiguration } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';
import { account, authHeader, xsrfHeaders, type TestApp } from '../../../../helper';
import { rawMultipart } from '../simulator/session-fixtures';
import type { Fixture } from '../../../../security/suite-shapes';

export const sysAdmin = account('sys admin');
export const orgAdmin = account('org admin', 'Demo Hospital');
export const learner = account('learner', 'Demo Hospital');

export type ConfigurationFileKind = 'sim-config' | 'sim-config-translation';

/** A config file the seeded Radiography schema accepts. */
export const RADIOGRAPHY_CONFIG = {
  examination: 'knee',
  bodyArea: 'lower-limb',
  exposure: { kv: 65, mAs: 4 },
};
export const TRANSLATION = { en: { title: 'Knee' }, de: { title: 'Knie' } };

export async function headers(sub: string) {
  return { ...(await authHeader(sub)), ...xsrfHeaders() };
}

export async function productIdOf(db: Queryable, code: string): Promise<number> {
  const res = await db.query<{ id: number }>('select id from products where code = $1', [code]);
  return res.rows[0]!.id;
}

export async function practiceViewCategoryOf(
  db: Queryable,
  productCode: string,
  code?: string,
): Promise<number> {
  const res = await db.query<{ id: number }>(
    `select c.id from practice_view_categories c join products p on p.id = c.product_id
      where p.code = $1 and ($2::text is null or c.code = $2) order by c.sort, c.id limit 1`,
    [productCode, code ?? null],
  );
  return res.rows[0]!.id;
}

export function jsonForm(
  content: string | Buffer,
  fileName = 'config.json',
  type = 'application/json',
) {
  return rawMultipart([
    {
      name: 'file',
      fileName,
      type,
      data: Buffer.isBuffer(content) ? content : Buffer.from(content),
    },
  ]);
}

export async function uploadFile(
  t: TestApp,
  kind: ConfigurationFileKind,
  content: unknown,
  options: { as?: DemoAccount; fileName?: string; type?: string; raw?: boolean } = {},
) {
  const form = jsonForm(
    options.raw ? (content as string | Buffer) : JSON.stringify(content),
    options.fileName ?? `${kind}.json`,
    options.type,
  );
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/file/upload/${kind}`,
    headers: { ...(await headers((options.as ?? sysAdmin).sub)), 'content-type': form.contentType },
    payload: form.payload,
  });
}

/** Uploads `content` (as JSON) and answers the file id. */
export async function uploadedFile(
  t: TestApp,
  kind: ConfigurationFileKind,
  content: unknown,
  as: DemoAccount = sysAdmin,
): Promise<string> {
  const res = await uploadFile(t, kind, content, { as });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<{ id: string }>().id;
}

/** A body POST/PUT accepts for Radiography, with fresh uploads. */
export async function configurationBody(
  t: TestApp,
  overrides: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  return {
    configurationName: `Knee ${Math.random().toString(36).slice(2, 10)}`,
    practiceViewCategory: await practiceViewCategoryOf(t.db, 'radiography', 'lower-limb'),
    configFile: await uploadedFile(t, 'sim-config', RADIOGRAPHY_CONFIG),
    translationFile: await uploadedFile(t, 'sim-config-translation', TRANSLATION),
    ...overrides,
  };
}

export async function createConfiguration(
  t: TestApp,
  productId: number,
  body?: Record<string, unknown>,
): Promise<ProductConfiguration> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/product/${productId}/configuration`,
    headers: await headers(sysAdmin.sub),
    payload: body ?? (await configurationBody(t)),
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<ProductConfiguration>();
}

/**
 * The configuration routes for the auth matrix (api/test/security): shapes are in
 * security/suite-shapes.ts. Products are global, so the refusals that matter are the permission
 * (organisation administrators and learners lack `global.manage_sim_config`) and the product in the
 * path: another product's configuration is 404 even for a global administrator.
 */
export function productConfigurationFixtures(app: () => TestApp): Record<string, Fixture> {
  let setup: Promise<{ radiography: number; birthing: number; configuration: number }> | null =
    null;
  const ctx = () =>
    (setup ??= (async () => {
      const t = app();
      const radiography = await productIdOf(t.db, 'radiography');
      return {
        radiography,
        birthing: await productIdOf(t.db, 'birthing'),
        configuration: (await createConfiguration(t, radiography)).id,
      };
    })());
  const otherProductsPath = async (rest = '') => {
    const c = await ctx();
    return `/api/v1/product/${c.birthing}/configuration/${c.configuration}${rest}`;
  };
  const uploadRoute = (kind: ConfigurationFileKind, content: unknown): Fixture => ({
    actor: sysAdmin,
    build: async () => {
      const form = jsonForm(JSON.stringify(content), `${kind}.json`);
      return {
        url: `/api/v1/file/upload/${kind}`,
        headers: { 'content-type': form.contentType },
        payload: form.payload,
      };
    },
  });

  return {
    'GET /api/v1/product/:id/configuration': {
      actor: sysAdmin,
      build: async () => ({ url: `/api/v1/product/${(await ctx()).radiography}/configuration` }),
    },
    'POST /api/v1/product/:id/configuration': {
      actor: sysAdmin,
      build: async () => ({
        url: `/api/v1/product/${(await ctx()).radiography}/configuration`,
        payload: await configurationBody(app()),
      }),
    },
    'GET /api/v1/product/:id/configuration/:configurationId': {
      actor: sysAdmin,
      build: async () => {
        const c = await ctx();
        return { url: `/api/v1/product/${c.radiography}/configuration/${c.configuration}` };
      },
      foreign: async () => [
        {
          as: sysAdmin,
          what: "a Radiography configuration under another product's path",
          req: { url: await otherProductsPath() },
        },
      ],
    },
    'PUT /api/v1/product/:id/configuration/:configurationId': {
      actor: sysAdmin,
      build: async () => {
        const c = await ctx();
        return {
          url: `/api/v1/product/${c.radiography}/configuration/${c.configuration}`,
          payload: await configurationBody(app()),
        };
      },
      foreign: async () => [
        {
          as: sysAdmin,
          what: "a Radiography configuration under another product's path",
          req: { url: await otherProductsPath(), payload: await configurationBody(app()) },
        },
      ],
    },
    'POST /api/v1/file/upload/sim-config': uploadRoute('sim-config', RADIOGRAPHY_CONFIG),
    'POST /api/v1/file/upload/sim-config-translation': uploadRoute(
      'sim-config-translation',
      TRANSLATION,
    ),
  };
}
