import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DemoAccount } from '@portal/contract/demo-accounts';
import type { SimulationDownload, UploadedFile } from '@portal/contract';
import type { Queryable } from '../../../../../src/db/driver';
import { account, authHeader, xsrfHeaders, type TestApp } from '../../../../helper';
import { rawMultipart } from '../simulator/session-fixtures';
import type { Fixture, Req } from '../../../../security/suite-shapes';

export const sysAdmin = account('sys admin');
export const orgAdmin = account('org admin', 'Demo Hospital');
export const learner = account('learner', 'Demo Hospital');
export const otherLearner = account('learner', 'Other College');

/** A minimal ZIP (end of central directory only): an archive by its signature. */
export const ZIP_BYTES = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]);
/** The head of a Windows executable. */
export const EXE_BYTES = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62, 0x90)]);
/** A disk image: anything, then the UDIF trailer. */
export const DMG_BYTES = Buffer.concat([
  Buffer.alloc(1024, 7),
  Buffer.from('koly'),
  Buffer.alloc(508),
]);

export async function productId(db: Queryable, code: string): Promise<number> {
  const res = await db.query<{ id: number }>('select id from products where code = $1', [code]);
  return res.rows[0]!.id;
}

export async function headers(sub: string) {
  return { ...(await authHeader(sub)), ...xsrfHeaders() };
}

export function installerForm(bytes: Buffer, fileName = 'setup.zip', type = 'application/zip') {
  return rawMultipart([{ name: 'file', fileName, type, data: bytes }]);
}

export async function uploadInstaller(
  t: TestApp,
  sub: string,
  bytes: Buffer = ZIP_BYTES,
  fileName = 'setup.zip',
) {
  const form = installerForm(bytes, fileName);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/file/upload/sim-installation-file',
    headers: { ...(await headers(sub)), 'content-type': form.contentType },
    payload: form.payload,
  });
}

/** Uploads an installer as the global administrator and answers its file. */
export async function uploadedInstaller(t: TestApp, bytes?: Buffer, fileName?: string) {
  const res = await uploadInstaller(t, sysAdmin.sub, bytes, fileName);
  assert.equal(res.statusCode, 201, res.body);
  return res.json<UploadedFile>();
}

/** A version number no other test of this process has used. */
let versionCounter = 100;
export const freshVersion = () => `9.${versionCounter++}.0`;

export const downloadUrl = (product: number, id?: number) =>
  `/api/v1/product/${product}/simulation-download${id === undefined ? '' : `/${id}`}`;

export async function saveDownload(
  t: TestApp,
  sub: string,
  product: number,
  body: Record<string, unknown>,
  id?: number,
) {
  return t.app.inject({
    method: id === undefined ? 'POST' : 'PUT',
    url: downloadUrl(product, id),
    headers: await headers(sub),
    payload: body,
  });
}

/** Creates a download as the global administrator and answers it. */
export async function createdDownload(
  t: TestApp,
  product: number,
  body: Record<string, unknown> = {},
): Promise<SimulationDownload> {
  const res = await saveDownload(t, sysAdmin.sub, product, {
    version: freshVersion(),
    operatingSystem: 'windows',
    fileUrl: 'https://downloads.example.test/setup.exe',
    ...body,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json<SimulationDownload>();
}

/** An organisation administrator of Other College, which is licensed for Radiography only. */
export async function otherOrgAdmin(db: Queryable): Promise<DemoAccount> {
  const sub = randomUUID();
  await db.query(
    `insert into users (id, email, first_name, last_name, organisation_id, role_id)
     values ($1, $2, 'Olga', 'Admin', (select id from organisations where name = 'Other College'),
             (select id from roles where name = 'org admin'))`,
    [sub, `${sub}@other.test`],
  );
  return { ...orgAdmin, sub, email: `${sub}@other.test`, organisation: 'Other College' };
}

/**
 * The simulation-download and installer-upload routes for the auth matrix (api/test/security):
 * shapes are in security/suite-shapes.ts. Every write builds a fresh version so controls never
 * collide.
 */
export function simulationDownloadFixtures(app: () => TestApp): Record<string, Fixture> {
  let setup: Promise<{ radiography: number; birthing: number; other: DemoAccount }> | null = null;
  const ctx = () =>
    (setup ??= (async () => {
      const { db } = app();
      return {
        radiography: await productId(db, 'radiography'),
        birthing: await productId(db, 'birthing'),
        other: await otherOrgAdmin(db),
      };
    })());
  const body = () => ({
    version: freshVersion(),
    operatingSystem: 'mac',
    fileUrl: 'https://downloads.example.test/matrix.dmg',
  });
  const existing = async () => {
    const c = await ctx();
    return createdDownload(app(), c.radiography);
  };
  /** Reads: an organisation administrator may not see a product their licences do not cover. */
  const unlicensedRead = (path: (c: { birthing: number }, id: number) => string) => async () => {
    const c = await ctx();
    const birthing = await createdDownload(app(), c.birthing);
    return [
      {
        as: c.other,
        what: "a product the administrator's organisation is not licensed for",
        req: { url: path(c, birthing.id) },
      },
    ];
  };
  /** Writes: installers serve every organisation, so an organisation administrator changes none. */
  const orgAdminWrite = (req: () => Promise<Req>) => async () => [
    {
      as: orgAdmin,
      what: "an organisation administrator changing every organisation's installers",
      req: await req(),
    },
  ];

  return {
    'GET /api/v1/product/:id/simulation-download': {
      actor: orgAdmin,
      build: async () => ({ url: downloadUrl((await ctx()).radiography) }),
      foreign: unlicensedRead((c) => downloadUrl(c.birthing)),
    },
    'POST /api/v1/product/:id/simulation-download': {
      actor: sysAdmin,
      build: async () => ({ url: downloadUrl((await ctx()).radiography), payload: body() }),
      foreign: orgAdminWrite(async () => ({
        url: downloadUrl((await ctx()).radiography),
        payload: body(),
      })),
    },
    'GET /api/v1/product/:id/simulation-download/:downloadId': {
      actor: orgAdmin,
      build: async () => {
        const d = await existing();
        return { url: downloadUrl(d.product, d.id) };
      },
      foreign: async () => {
        const c = await ctx();
        const mine = await existing();
        return [
          ...(await unlicensedRead((p, id) => downloadUrl(p.birthing, id))()),
          {
            as: orgAdmin,
            what: "another product's download under this product's path",
            req: { url: downloadUrl(c.birthing, mine.id) },
          },
        ];
      },
    },
    'PUT /api/v1/product/:id/simulation-download/:downloadId': {
      actor: sysAdmin,
      build: async () => {
        const d = await existing();
        return { url: downloadUrl(d.product, d.id), payload: { ...body(), isActive: false } };
      },
      foreign: async () => {
        const c = await ctx();
        const d = await existing();
        return [
          ...(await orgAdminWrite(async () => ({
            url: downloadUrl(d.product, d.id),
            payload: body(),
          }))()),
          {
            as: sysAdmin,
            what: "another product's download under this product's path",
            req: { url: downloadUrl(c.birthing, d.id), payload: body() },
          },
        ];
      },
    },
    'POST /api/v1/file/upload/sim-installation-file': {
      actor: sysAdmin,
      build: async () => {
        const form = installerForm(ZIP_BYTES);
        return {
          url: '/api/v1/file/upload/sim-installation-file',
          headers: { 'content-type': form.contentType },
          payload: form.payload,
        };
      },
      foreign: async () => {
        const form = installerForm(ZIP_BYTES);
        return [
          {
            as: orgAdmin,
            what: "an organisation administrator uploading every organisation's installer",
            req: {
              url: '/api/v1/file/upload/sim-installation-file',
              headers: { 'content-type': form.contentType },
              payload: form.payload,
            },
          },
        ];
      },
    },
  };
}
