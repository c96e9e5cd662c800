import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { buildLmsApp } from '../src/app';

describe('the data directory', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lms-data-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const build = () => buildLmsApp({ publicUrl: 'http://lms.test', portalUrl: 'http://portal.test', dataDir: dir, toolKeys: async () => { throw new Error('unused'); } });

  it('keeps the signing key, the links and the scores across a restart, readable only by its owner', async () => {
    const first = await build();
    const kid = first.lms.keys.kid;
    const link = first.lms.store.addLink({ title: 'Knee, Desktop', custom: { mode: 'Desktop' }, lineItem: { label: 'Knee', scoreMaximum: 100 } });
    const timestamp = new Date().toISOString();
    assert.equal(first.lms.store.putScore(link.lineItemId!, { userId: '101', scoreGiven: 70, scoreMaximum: 100, activityProgress: 'Completed', gradingProgress: 'FullyGraded', timestamp, receivedAt: timestamp }), true);
    await first.close();
    assert.equal(statSync(path.join(dir, 'lms.json')).mode & 0o077, 0);

    const second = await build();
    try {
      assert.equal(second.lms.keys.kid, kid);
      assert.deepEqual(second.lms.store.links().map((l) => l.title), ['Radiography', 'Knee, Desktop']);
      assert.equal(second.lms.store.scoresOf(link.lineItemId!)[0]?.scoreGiven, 70);
      // New links continue the numbering instead of reusing an id.
      assert.equal(second.lms.store.addLink({ title: 'Another', custom: {} }).id, 'link-3');
    } finally {
      await second.close();
    }
  });

  it('keeps the roster\'s leavers and statuses across a restart, and its reset', async () => {
    const first = await build();
    assert.equal(first.lms.roster.remove('2010'), true);
    assert.equal(first.lms.roster.setStatus('106', 'Inactive')?.status, 'Inactive');
    await first.close();

    const second = await build();
    try {
      assert.equal(second.lms.roster.members().length, 119);
      assert.equal(second.lms.roster.member('2010'), null);
      assert.equal(second.lms.roster.member('106')?.status, 'Inactive');
      second.lms.roster.reset();
    } finally {
      await second.close();
    }
    const third = await build();
    try {
      assert.equal(third.lms.roster.members().length, 120);
      assert.equal(third.lms.roster.member('106')?.status, 'Active');
    } finally {
      await third.close();
    }
  });
});
