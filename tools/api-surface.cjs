// The runtime exports of a federated shared package, checked against the version it declares.
// Remotes ask the page for `^<version>` of shared-ui and shared-auth (strictVersion), so the version
// must follow the exports: an added export needs at least a minor bump, a removed one a major bump.
// `<package>/api-surface.json` records the exports of the current version.
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

function parse(version) {
  const [major, minor, patch] = version.split('.').map(Number);
  return { major, minor, patch };
}

/**
 * Compares `moduleExports` with the recorded surface. Returns the problems (empty when fine).
 * With UPDATE_API_SURFACE=1 it records the current exports under the current version instead,
 * after the same semver check.
 */
function checkApiSurface(packageDir, moduleExports) {
  const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const file = path.join(packageDir, 'api-surface.json');
  const recorded = JSON.parse(readFileSync(file, 'utf8'));
  const current = Object.keys(moduleExports)
    .filter((name) => name !== '__esModule')
    .sort();
  const added = current.filter((name) => !recorded.exports.includes(name));
  const removed = recorded.exports.filter((name) => !current.includes(name));
  if (!added.length && !removed.length) return [];

  const was = parse(recorded.version);
  const now = parse(version);
  const problems = [];
  if (removed.length && !(now.major > was.major))
    problems.push(
      `removed ${removed.join(', ')}: needs a major version (package.json says ${version}, recorded ${recorded.version})`,
    );
  else if (
    added.length &&
    !(now.major > was.major || (now.major === was.major && now.minor > was.minor))
  )
    problems.push(
      `added ${added.join(', ')}: needs a minor version (package.json says ${version}, recorded ${recorded.version})`,
    );
  if (!problems.length) {
    if (process.env.UPDATE_API_SURFACE === '1')
      writeFileSync(file, `${JSON.stringify({ version, exports: current }, null, 2)}\n`);
    else
      problems.push(
        `exports changed (${[...added.map((n) => `+${n}`), ...removed.map((n) => `-${n}`)].join(' ')}): run the test with UPDATE_API_SURFACE=1 to record them for ${version}`,
      );
  }
  return problems;
}

module.exports = { checkApiSurface };
