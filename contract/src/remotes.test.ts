import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mountPaths, REMOTE_NAMES, REMOTES, type RemoteManifest } from './remotes';

const remotes: RemoteManifest[] = REMOTE_NAMES.map((name) => REMOTES[name]);

test('no two remotes share a port, a mount or a namespace', () => {
  const unique = (values: unknown[]) => assert.equal(new Set(values).size, values.length, `${values.join(', ')}`);
  unique(remotes.map((remote) => remote.devPort));
  unique(remotes.flatMap(mountPaths));
  unique(remotes.map((remote) => remote.namespace));
});

test('mounts are absolute paths without a trailing slash, LTI mounts under /lti', () => {
  for (const remote of remotes) {
    for (const mount of mountPaths(remote)) assert.match(mount, /^\/[a-z][a-z/-]*[a-z]$/);
    if (remote.ltiMount) assert.equal(remote.ltiMount, `/lti${remote.mount}`);
  }
});

test("namespaces are i18next names a remote can register (never the host's 'translation')", () => {
  for (const remote of remotes) {
    assert.match(remote.namespace, /^[a-z][a-z0-9-]{0,31}$/);
    assert.notEqual(remote.namespace, 'translation');
  }
});

test('mountPaths lists the layout mount first, then the LTI mount when there is one', () => {
  assert.deepEqual(mountPaths(REMOTES.reports), ['/report', '/lti/report']);
  assert.deepEqual(mountPaths(REMOTES.admin), ['/admin']);
});
