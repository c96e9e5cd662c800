import { fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { axe } from 'jest-axe';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import { paged, servePaged } from '../../../testing/admin-api';
import { serveProductLookups, SYS_ADMIN_PERMISSIONS } from '../../../testing/product-admin-api';

const server = setupTestServer();
jest.setTimeout(30_000);

const SCHEMA_URL = '/api/v1/product/1/configuration-schema';
const GLOBAL_ADMIN = [...SYS_ADMIN_PERMISSIONS, 'global.manage_validation_schema'];
const SCHEMA = { type: 'object', required: ['bodyArea'], properties: { bodyArea: { type: 'string' } } };

/** The schema route: answers the stored schema, records PUT bodies, answers `refuse` with 400. */
function serveSchema(refuse?: Record<string, string[]>) {
  let stored: Record<string, unknown> = SCHEMA;
  const puts: unknown[] = [];
  server.use(
    http.get(SCHEMA_URL, () => HttpResponse.json({ product: 1, schema: stored })),
    http.put(SCHEMA_URL, async ({ request }) => {
      const body = (await request.json()) as { schema: Record<string, unknown> };
      puts.push(body);
      if (refuse) return HttpResponse.json(refuse, { status: 400 });
      stored = body.schema;
      return HttpResponse.json({ product: 1, schema: stored });
    }),
  );
  return { puts };
}

beforeEach(() => {
  serveProductLookups(server);
  servePaged(server, '/api/v1/product/1/configuration', () => paged([]));
});
afterEach(() => i18next.changeLanguage('en'));

const schemaField = () => screen.findByRole('textbox', { name: /JSON Schema/ });
const replaceText = (field: HTMLElement, text: string) => fireEvent.change(field, { target: { value: text } });

describe('configuration schema on the product page', () => {
  it('shows the stored schema to a global administrator and saves an edited one', async () => {
    const { puts } = serveSchema();
    const { container, user } = renderRemote({ server, path: '/admin/product/1', permissions: GLOBAL_ADMIN });

    expect(await screen.findByRole('heading', { name: 'Configuration schema', level: 2 })).toBeInTheDocument();
    const field = await schemaField();
    expect(JSON.parse((field as HTMLTextAreaElement).value)).toEqual(SCHEMA);

    const edited = { ...SCHEMA, required: ['bodyArea', 'position'] };
    replaceText(field, JSON.stringify(edited));
    await user.click(screen.getByRole('button', { name: 'Save schema' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Configuration schema saved');
    expect(puts).toEqual([{ schema: edited }]);
    const results = await axe(container, { rules: { region: { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  it('refuses text that is no JSON object before asking the API', async () => {
    const { puts } = serveSchema();
    const { user } = renderRemote({ server, path: '/admin/product/1', permissions: GLOBAL_ADMIN });

    const field = await schemaField();
    replaceText(field, '{"type": ');
    await user.click(screen.getByRole('button', { name: 'Save schema' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('The text is not valid JSON.'));
    replaceText(field, '[1, 2]');
    await user.click(screen.getByRole('button', { name: 'Save schema' }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('The schema must be a JSON object.'));
    expect(puts).toEqual([]);
  });

  it("shows the API's problems under the field, in German too", async () => {
    await i18next.changeLanguage('de');
    serveSchema({ schema: ['/type: must be equal to one of the allowed values', '/properties/kv/minimum: must be number'] });
    const { user } = renderRemote({ server, path: '/admin/product/1', permissions: GLOBAL_ADMIN });

    const field = await screen.findByRole('textbox', { name: /JSON-Schema/ });
    replaceText(field, '{"type": "objekt"}');
    await user.click(screen.getByRole('button', { name: 'Schema speichern' }));

    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(expect.stringContaining('/type: muss einem der erlaubten Werte entsprechen')),
    );
    expect(field).toHaveAccessibleDescription(expect.stringContaining('/properties/kv/minimum: muss vom Typ number sein'));
  });

  it('is not there for whoever lacks the permission, and the schema is not asked for', async () => {
    const asked: string[] = [];
    server.use(
      http.get(SCHEMA_URL, ({ request }) => {
        asked.push(request.url);
        return HttpResponse.json({ detail: 'You do not have permission to perform this action.' }, { status: 403 });
      }),
    );
    renderRemote({ server, path: '/admin/product/1', permissions: SYS_ADMIN_PERMISSIONS });

    expect(await screen.findByRole('table', { name: 'Product configurations' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Configuration schema' })).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});
