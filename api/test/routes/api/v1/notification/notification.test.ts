import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Notification } from '@portal/contract';
import { account, authHeader, buildTestApp, type TestApp } from '../../../../helper';
import { licenseWith, orgAdmin, orgId, sysAdmin } from './notification-fixtures';

describe('GET /api/v1/notification', () => {
  let t: TestApp;
  let demo: number;
  let other: number;
  /** Licence id → what it is, for readable assertions. */
  const names = new Map<number, string>();

  const notifications = async (sub: string, query = '') => {
    const res = await t.app.inject({
      url: `/api/v1/notification${query}`,
      headers: await authHeader(sub),
    });
    return { status: res.statusCode, body: res.json() as unknown };
  };
  /** Only the licences made here (the seed's own may have notifications too). */
  const ours = (list: unknown) =>
    (list as Notification[])
      .filter((n) => names.has(n.license))
      .map((n) => `${n.kind} ${names.get(n.license)}`);

  before(async () => {
    t = await buildTestApp();
    demo = await orgId(t.db, 'Demo Hospital');
    other = await orgId(t.db, 'Other College');
    const make = async (
      label: string,
      organisation: number,
      options: Parameters<typeof licenseWith>[2],
    ) => names.set((await licenseWith(t.db, organisation, options)).id, label);
    await make('ends in 10 days', demo, { expiresInDays: 10 });
    await make('ends today', demo, { expiresInDays: 0 });
    await make('ends in 30 days', demo, { expiresInDays: 30 });
    await make('ends in 31 days', demo, { expiresInDays: 31 });
    await make('ended 5 days ago', demo, { expiresInDays: -5 });
    await make('ended 31 days ago', demo, { expiresInDays: -31 });
    await make('deactivated, ends in 10 days', demo, { expiresInDays: 10, active: false });
    await make('9 of 10 seats', demo, { expiresInDays: 365, seats: 10, seatsUsed: 9 });
    await make('8 of 10 seats', demo, { expiresInDays: 365, seats: 10, seatsUsed: 8 });
    await make('no seats', demo, { expiresInDays: 365, seats: 0 });
    await make('full, ends in 3 days', demo, { expiresInDays: 3, seats: 2, seatsUsed: 2 });
    await make('Other College ends in 5 days', other, { expiresInDays: 5 });
  });
  after(() => t.close());

  const DEMO_EXPECTED = [
    'license_ended ended 5 days ago',
    'license_expiring ends today',
    'license_expiring full, ends in 3 days',
    'license_expiring ends in 10 days',
    'license_expiring ends in 30 days',
    'license_seats_nearly_full full, ends in 3 days',
    'license_seats_nearly_full 9 of 10 seats',
  ];

  test('an organisation administrator hears about their own organisation’s licences only', async () => {
    const { status, body } = await notifications(orgAdmin.sub);
    assert.equal(status, 200);
    assert.deepEqual(ours(body), DEMO_EXPECTED);
    assert.ok((body as Notification[]).every((n) => n.organisation === demo));
    const own = await notifications(orgAdmin.sub, `?organisation=${demo}`);
    assert.deepEqual(own.body, body);
    const foreign = await notifications(orgAdmin.sub, `?organisation=${other}`);
    assert.equal(foreign.status, 404);
  });

  test('a global administrator hears about every organisation, or one', async () => {
    const all = await notifications(sysAdmin.sub);
    assert.equal(all.status, 200);
    assert.deepEqual(ours(all.body), [
      'license_ended ended 5 days ago',
      'license_expiring ends today',
      'license_expiring full, ends in 3 days',
      'license_expiring Other College ends in 5 days',
      'license_expiring ends in 10 days',
      'license_expiring ends in 30 days',
      'license_seats_nearly_full full, ends in 3 days',
      'license_seats_nearly_full 9 of 10 seats',
    ]);
    const otherOnly = await notifications(sysAdmin.sub, `?organisation=${other}`);
    assert.deepEqual(ours(otherOnly.body), ['license_expiring Other College ends in 5 days']);
    assert.ok((otherOnly.body as Notification[]).every((n) => n.organisation === other));
  });

  test('each notification names the organisation, the licence, its expiry and seats', async () => {
    const { body } = await notifications(orgAdmin.sub);
    const list = body as Notification[];
    const ended = list.find((n) => names.get(n.license) === 'ended 5 days ago')!;
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    assert.deepEqual(
      { ...ended, license: 0, licenseName: '' },
      {
        kind: 'license_ended',
        organisation: demo,
        organisationName: 'Demo Hospital',
        license: 0,
        licenseName: '',
        expiryDate: day(-5),
        seatsUsed: 0,
        numberOfSeats: 10,
      },
    );
    const seats = list.find(
      (n) => n.kind === 'license_seats_nearly_full' && names.get(n.license) === '9 of 10 seats',
    )!;
    assert.equal(seats.expiryDate, null);
    assert.equal(seats.seatsUsed, 9);
    assert.equal(seats.numberOfSeats, 10);
  });

  test('who may not read notifications', async () => {
    for (const who of [account('learner', 'Demo Hospital'), account('educator', 'Demo Hospital')]) {
      assert.equal((await notifications(who.sub)).status, 403, who.role);
    }
    const bad = await notifications(sysAdmin.sub, '?organisation=abc');
    assert.equal(bad.status, 400);
    const unknown = await notifications(sysAdmin.sub, '?organisation=2000000000');
    assert.deepEqual(unknown.body, []);
  });
});
