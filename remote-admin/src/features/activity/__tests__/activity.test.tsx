import { screen, waitFor, within } from '@testing-library/react';
import { axe } from 'jest-axe';
import i18next from 'i18next';
import { http, HttpResponse } from 'msw';
import { setupTestServer } from '../../../testing/msw-server';
import { renderRemote } from '../../../testing/render-remote';
import {
  adminUser,
  ALL_ADMIN_PERMISSIONS,
  auditEntry,
  invalidPage,
  licence,
  organisation,
  ORG_ADMIN_PERMISSIONS,
  paged,
  serveLookups,
  serveOrganisation,
  servePaged,
} from '../../../testing/admin-api';
import { changedFields, isSystemActor, objectLabel, showValue } from '../components/audit-changes';

const server = setupTestServer();

const PATH = '/admin/organisation/1/activity';
const AUDIT = '/api/v1/audit';
const USER = adminUser();

/** dd/MM/yyyy HH:mm in the test's time zone, as the page shows it. */
function shown(iso: string) {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const ENTRIES = [
  auditEntry(),
  auditEntry({
    id: 2,
    at: '2026-11-19T16:40:00Z',
    action: 'create',
    entityType: 'license_block',
    entityId: '7',
    actorName: 'Sam Sysadmin',
    actorEmail: 'sysadmin@demo.test',
    before: null,
    after: licence(),
  }),
  auditEntry({
    id: 3,
    at: '2026-11-18T08:00:00Z',
    action: 'activate',
    entityType: 'user',
    entityId: USER.id,
    actorId: USER.id,
    actorName: 'Lena Learner',
    actorEmail: 'lena@demo.test',
    before: { accountStatus: 'invited' },
    after: { accountStatus: 'active' },
  }),
];

beforeEach(() => {
  serveOrganisation(server, organisation());
  serveLookups(server);
});

describe('organisation activity', () => {
  it('is a tab of the organisation and lists who did what when, newest first, with what changed', async () => {
    const { queries } = servePaged(server, AUDIT, () => paged(ENTRIES));
    renderRemote({ server, path: '/admin/organisation/1', permissions: ORG_ADMIN_PERMISSIONS });
    const tab = await screen.findByRole('link', { name: 'Activity' });
    expect(tab).toHaveAttribute('href', PATH);

    renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS });
    const table = await screen.findByRole('table', { name: 'Activity' });
    const [header, first, second, third] = await within(table).findAllByRole('row');
    expect(within(header as HTMLElement).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(
      expect.arrayContaining([expect.stringContaining('When'), expect.stringContaining('Who'), 'Changes']),
    );
    const row = within(first as HTMLElement);
    expect(row.getByRole('cell', { name: shown(ENTRIES[0]!.at) })).toBeInTheDocument();
    expect(first).toHaveTextContent('Olga Orgadmin');
    expect(first).toHaveTextContent('orgadmin@demo.test');
    expect(row.getByRole('cell', { name: 'Changed' })).toBeInTheDocument();
    expect(row.getByRole('cell', { name: 'Organisation: Demo Hospital' })).toBeInTheDocument();
    // Only what changed, lookup ids by their names.
    const changes = row.getAllByRole('listitem');
    expect(changes).toHaveLength(2);
    expect(changes[0]).toHaveTextContent('City: Leeds changed to → York');
    expect(changes[1]).toHaveTextContent('Country: United Kingdom changed to → Germany');

    expect(within(second as HTMLElement).getByRole('cell', { name: 'Licence: Radiography 2026' })).toBeInTheDocument();
    expect(within(second as HTMLElement).queryAllByRole('listitem')).toHaveLength(0);
    expect(within(third as HTMLElement).getByRole('cell', { name: 'First sign-in' })).toBeInTheDocument();
    expect(within(third as HTMLElement).getByRole('cell', { name: 'User: Lena Learner' })).toBeInTheDocument();
    expect(third).toHaveTextContent('Account: invited changed to → active');

    const query = queries.at(-1)!;
    expect(query.get('organisation')).toBe('1');
    expect(query.get('ordering')).toBe('-at');
  });

  it('shows the skeleton while loading, then "No records found"', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    servePaged(server, AUDIT, () => paged([]));
    server.use(
      // The first answer waits, so the skeleton can be seen.
      http.get(
        AUDIT,
        async () => {
          await gate;
          return HttpResponse.json(paged([]));
        },
        { once: true },
      ),
    );
    renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS });
    const table = await screen.findByRole('table', { name: 'Activity' });
    expect(table).toHaveAttribute('aria-busy', 'true');
    release();
    expect(await screen.findByText('No records found')).toBeInTheDocument();
  });

  it('sorts and searches from the keyboard and goes back to page 1 on "Invalid page."', async () => {
    const { queries } = servePaged(server, AUDIT, (query) => (query.get('page') === '2' ? invalidPage() : paged(ENTRIES, 2)));
    const { user } = renderRemote({ server, path: PATH, permissions: ALL_ADMIN_PERMISSIONS });
    await screen.findByRole('table', { name: 'Activity' });

    const who = screen.getByRole('button', { name: 'Who' });
    who.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(queries.at(-1)?.get('ordering')).toBe('actorName'));
    await user.type(screen.getByRole('searchbox', { name: 'Search activity' }), 'olga');
    await waitFor(() => expect(queries.at(-1)?.get('filter')).toBe('olga'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(queries.map((q) => q.get('page')).slice(-2)).toEqual(['2', '1']));
  });

  describe('the portal as author', () => {
    // The daily licence expiry writes as "System" (no actor id, no e-mail); a deleted user keeps name and e-mail.
    const EXPIRY = auditEntry({
      id: 4,
      action: 'update',
      entityType: 'license_block',
      entityId: '7',
      actorId: null,
      actorName: 'System',
      actorEmail: '',
      before: licence(),
      after: licence(),
    });
    const DELETED_USER = auditEntry({ id: 5, actorId: null, actorName: 'Dora Deleted', actorEmail: 'dora@demo.test' });
    afterEach(() => i18next.changeLanguage('en'));

    it('is named "System (automatic)" in English and "System (automatisch)" in German', async () => {
      servePaged(server, AUDIT, () => paged([EXPIRY, DELETED_USER]));
      renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS });
      const table = await screen.findByRole('table', { name: 'Activity' });
      const [, system, deleted] = await within(table).findAllByRole('row');
      expect(within(system as HTMLElement).getByRole('cell', { name: 'System (automatic)' })).toBeInTheDocument();
      expect(deleted).toHaveTextContent('Dora Deleted');
      expect(deleted).toHaveTextContent('dora@demo.test');

      await i18next.changeLanguage('de');
      renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS });
      const tableDe = await screen.findByRole('table', { name: 'Aktivität' });
      const [, systemDe] = await within(tableDe).findAllByRole('row');
      expect(within(systemDe as HTMLElement).getByRole('cell', { name: 'System (automatisch)' })).toBeInTheDocument();
    });

    it('is told from a deleted user by its missing e-mail', () => {
      expect(isSystemActor(EXPIRY)).toBe(true);
      expect(isSystemActor(DELETED_USER)).toBe(false);
      expect(isSystemActor({ actorId: 'u1', actorName: 'System', actorEmail: '' })).toBe(false);
    });
  });

  it('has no axe violations', async () => {
    servePaged(server, AUDIT, () => paged(ENTRIES));
    const { container } = renderRemote({ server, path: PATH, permissions: ORG_ADMIN_PERMISSIONS });
    await screen.findByRole('cell', { name: 'Organisation: Demo Hospital' });
    const results = await axe(container, { rules: { region: { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});

describe('audit changes', () => {
  const how = { empty: '(none)', count: (n: number) => `${n} items` };

  it('lists only changed fields, not ids, with lists shortened and nothing for a create', () => {
    expect(
      changedFields(
        {
          before: { id: 7, licenseName: 'A', seatsUsed: 3, userIds: [] },
          after: { id: 7, licenseName: 'A', seatsUsed: 9, userIds: ['a', 'b', 'c', 'd', 'e', 'f'] },
        },
        how,
      ),
    ).toEqual([
      { field: 'seatsUsed', before: '3', after: '9' },
      { field: 'userIds', before: '(none)', after: '6 items' },
    ]);
    expect(changedFields({ before: null, after: licence() }, how)).toEqual([]);
    expect(showValue('x'.repeat(200), 'name', how)).toHaveLength(80);
  });

  it('names the object by what a reader knows it by', () => {
    expect(objectLabel(auditEntry({ entityType: 'license_block_user', before: { licenseName: 'Radiography 2026', userId: 'u' }, after: null }))).toBe(
      'Radiography 2026',
    );
    expect(objectLabel(auditEntry({ entityType: 'user', entityId: 'u1', before: null, after: { email: 'x@demo.test', accountStatus: 'invited' } }))).toBe(
      'x@demo.test',
    );
    expect(objectLabel(auditEntry({ entityType: 'file', entityId: 'f1', before: null, after: {} }))).toBe('#f1');
    expect(objectLabel(auditEntry({ entityType: 'lti_score', entityId: 's1', before: null, after: { learner: 'Lena Learner', scoreGiven: 80 } }))).toBe(
      'Lena Learner',
    );
    expect(objectLabel(auditEntry({ entityType: 'lti_score', entityId: 's1', before: null, after: { learner: null, email: null } }))).toBe('#s1');
  });
});
