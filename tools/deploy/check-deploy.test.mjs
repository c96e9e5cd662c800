// What the Dockerfile linter cannot see (docs/deploy.md#what-checks-this): each image's final
// stage runs as a user other than root, checks its health, takes nothing from the machine that
// builds but the health check script, and starts the way `npm start` starts the service; and
// docs/deploy.md names no variable the code does not read, and leaves out none it does.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DockerfileParser } from 'dockerfile-ast';
import { serviceDefinitions } from '../../scripts/services.mjs';
import { dockerfiles } from './lint-dockerfiles.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const HEALTHCHECK_SCRIPT = 'deploy/healthcheck.mjs';

/** The services of scripts/services.mjs each build file makes an image of. */
const IMAGES = {
  'api.Dockerfile': ['api'],
  'identity.Dockerfile': ['identity'],
  'host.Dockerfile': ['host'],
  'remote.Dockerfile': ['remote-simulation', 'remote-reports', 'remote-admin'],
};
/** Stand-ins for outside systems: started by `npm start`, never deployed (docs/deploy.md). */
const STAND_INS = ['lms', 'simulator'];

function parseDockerfile(file) {
  const instructions = DockerfileParser.parse(readFileSync(file, 'utf8')).getInstructions();
  const froms = instructions.filter((i) => i.getKeyword() === 'FROM');
  const finalStage = instructions.slice(instructions.lastIndexOf(froms.at(-1)));
  const of = (list, keyword) => list.filter((i) => i.getKeyword() === keyword);
  return { instructions, froms, finalStage, of };
}

/** `NAME=value …` of the ENV instructions given, as an object. */
function envOf(envInstructions) {
  return Object.fromEntries(
    envInstructions.flatMap((i) => i.getProperties().map((p) => [p.getName(), p.getValue()])),
  );
}

const files = dockerfiles();

describe('deploy/*.Dockerfile', () => {
  it('has a build file for every service npm start runs, but the stand-ins', () => {
    assert.deepEqual(files.map((file) => path.basename(file)).sort(), Object.keys(IMAGES).sort());
    const built = Object.values(IMAGES).flat().sort();
    const deployable = serviceDefinitions()
      .map((service) => service.name)
      .filter((name) => !STAND_INS.includes(name))
      .sort();
    assert.deepEqual(built, deployable);
  });

  const baseImages = new Set();
  for (const file of files) {
    const name = path.basename(file);
    describe(name, () => {
      const { instructions, froms, finalStage, of } = parseDockerfile(file);

      it('is multi-stage on one exactly pinned Node 20 slim image', () => {
        assert.ok(froms.length >= 2, 'a build stage and a final stage');
        for (const from of froms) assert.equal(from.getImage(), '${NODE_IMAGE}');
        const [arg] = of(instructions, 'ARG');
        const [property] = arg.getProperties();
        assert.equal(property.getName(), 'NODE_IMAGE');
        assert.match(
          property.getValue(),
          /^node:20\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})?$/,
        );
        baseImages.add(property.getValue());
        assert.equal(baseImages.size, 1, `one base image for every file, not ${[...baseImages]}`);
      });

      it('runs its final stage as a user other than root, set before the command', () => {
        const users = of(finalStage, 'USER');
        assert.ok(users.length > 0, 'the final stage sets USER');
        const user = users.at(-1).getArgumentsContent().split(':')[0];
        assert.notEqual(user, 'root');
        assert.notEqual(user, '0');
        const cmd = of(finalStage, 'CMD').at(-1);
        assert.ok(finalStage.indexOf(users.at(-1)) < finalStage.indexOf(cmd));
      });

      it('checks /healthz on the port the image listens on', () => {
        const checks = of(finalStage, 'HEALTHCHECK');
        assert.equal(checks.length, 1);
        const command = JSON.parse(checks[0].getArgumentsContent().replace(/^CMD\s+/, ''));
        assert.deepEqual(command.slice(0, 2), ['node', '/app/healthcheck.mjs']);
        const [, , portVariable, fallback] = command;
        const env = envOf(of(finalStage, 'ENV'));
        assert.equal(env[portVariable], fallback, `ENV ${portVariable} is the checked port`);
        const exposed = of(finalStage, 'EXPOSE').map((i) => i.getArgumentsContent());
        assert.deepEqual(exposed, [fallback]);
      });

      it('copies nothing from the build context into the image but the health check', () => {
        assert.equal(of(instructions, 'ADD').length, 0, 'COPY, not ADD');
        // node_modules only as `pnpm deploy --prod` wrote them in the build stage (/out).
        for (const copy of of(instructions, 'COPY')) {
          const sources = copy
            .getArguments()
            .slice(0, -1)
            .map((a) => a.getValue());
          for (const source of sources.filter((s) => s.includes('node_modules'))) {
            assert.ok(copy.getFromFlag() && source.startsWith('/out/'), `COPY ${source}`);
          }
        }
        const fromContext = of(finalStage, 'COPY').filter((copy) => !copy.getFromFlag());
        for (const copy of fromContext) {
          assert.deepEqual(
            copy.getArguments().map((a) => a.getValue()),
            [HEALTHCHECK_SCRIPT, '/app/healthcheck.mjs'],
          );
        }
      });

      it('takes its runtime dependencies from pnpm deploy --prod, installed from the lockfile', () => {
        const runs = of(instructions, 'RUN').map((i) => i.getArgumentsContent());
        assert.ok(runs.some((run) => /\bpnpm fetch\b/.test(run)));
        assert.ok(runs.some((run) => /\bpnpm --filter \S+ deploy --prod --offline\b/.test(run)));
        for (const run of runs.filter((r) => /\bpnpm install\b/.test(r))) {
          assert.match(run, /--frozen-lockfile/);
        }
      });

      it('starts the way scripts/services.mjs starts the service', () => {
        const cmd = JSON.parse(of(finalStage, 'CMD').at(-1).getArgumentsContent());
        const workdir = of(finalStage, 'WORKDIR').at(-1).getArgumentsContent();
        for (const service of serviceDefinitions().filter((s) => IMAGES[name].includes(s.name))) {
          assert.deepEqual(cmd, ['node', ...service.command.slice(1)], service.name);
          // The repository's layout, so relative imports and default data folders still hold.
          const folder = IMAGES[name].length > 1 ? 'remote' : path.basename(service.cwd);
          assert.equal(workdir, `/app/${folder}`);
        }
      });
    });
  }
});

describe('.dockerignore', () => {
  it('keeps installed, built and local files out of the build context', () => {
    const patterns = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const needed of ['**/node_modules', '**/dist', '**/.data', '**/.env', '.git']) {
      assert.ok(patterns.includes(needed), `${needed} is ignored`);
    }
  });
});

/** docs/deploy.md's variable table under the heading `### title`: the names of its first column. */
function tableVariables(markdown, title) {
  const section = markdown.split(/^### /m).find((part) => part.startsWith(`${title}\n`));
  assert.ok(section, `docs/deploy.md has a section "${title}"`);
  return section
    .split('\n')
    .map((line) => /^\| `([A-Z][A-Z0-9_]*)` \|/.exec(line)?.[1])
    .filter(Boolean)
    .sort();
}

/**
 * The keys of the API's and the identity provider's environment schemas, as the services load
 * them (TypeScript through tsx, which the API has installed): one process for both.
 */
function typeScriptSchemaKeys() {
  const modules = { api: 'api/src/config.ts', identity: 'identity/src/config.ts' };
  const script = `const urls = ${JSON.stringify(
    Object.fromEntries(
      Object.entries(modules).map(([name, file]) => [
        name,
        pathToFileURL(path.join(ROOT, file)).href,
      ]),
    ),
  )};
    const [api, identity] = await Promise.all([import(urls.api), import(urls.identity)]);
    console.log(JSON.stringify({
      api: Object.keys(api.ConfigSchema.properties),
      identity: Object.keys(identity.IdentityEnvSchema.properties),
    }));`;
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    {
      cwd: path.join(ROOT, 'api'),
      encoding: 'utf8',
    },
  );
  return JSON.parse(out);
}

const sorted = (names) => [...new Set(names)].sort();

describe('docs/deploy.md', () => {
  const doc = read('docs/deploy.md');
  const schemas = typeScriptSchemaKeys();

  it("lists exactly the API's variables", () => {
    assert.match(read('api/src/demo/demo-lti.ts'), /process\.env\.LMS_URL/);
    const expected = sorted([...schemas.api, 'LMS_URL']);
    assert.deepEqual(tableVariables(doc, 'API'), expected);
  });

  it("lists exactly the bundled identity provider's variables", () => {
    const expected = sorted(schemas.identity);
    assert.deepEqual(tableVariables(doc, 'Identity provider'), expected);
  });

  it("lists exactly the host's and the remotes' variables", async () => {
    // The static server reads LOG_LEVEL itself; host and remotes declare the rest.
    assert.match(read('tools/static-server/index.mjs'), /process\.env\.LOG_LEVEL/);
    const { HostEnvSchema } = await import(
      pathToFileURL(path.join(ROOT, 'host/server-config.mjs')).href
    );
    assert.deepEqual(
      tableVariables(doc, 'Host'),
      sorted([...Object.keys(HostEnvSchema.properties), 'LOG_LEVEL']),
    );
    const { LISTEN_ENV } = await import(
      pathToFileURL(path.join(ROOT, 'tools/static-server/index.mjs')).href
    );
    const remoteServers = ['simulation', 'reports', 'admin'].map((r) =>
      read(`remote-${r}/server.mjs`),
    );
    const declared = ['PORT', 'REMOTE_ROOT'].filter((name) =>
      remoteServers.some((source) => new RegExp(`\\b${name}:`).test(source)),
    );
    assert.deepEqual(
      tableVariables(doc, 'Remotes'),
      sorted([...declared, ...Object.keys(LISTEN_ENV), 'LOG_LEVEL']),
    );
  });

  it('names no variable that the code, the realm export or the build files do not have', () => {
    const sources = [
      ...['api/src', 'api/scripts', 'identity/src'].flatMap((dir) =>
        readdirSync(path.join(ROOT, dir), { recursive: true })
          .filter((file) => /\.(ts|mjs)$/.test(file))
          .map((file) => read(path.join(dir, file))),
      ),
      ...['host/server.mjs', 'host/server-config.mjs', 'tools/static-server/index.mjs'].map(read),
      ...['simulation', 'reports', 'admin'].map((r) => read(`remote-${r}/server.mjs`)),
      ...['tools/service-kit/index.mjs', 'scripts/services.mjs'].map(read),
      read('identity/keycloak/realm-main.json'),
      ...files.map((file) => readFileSync(file, 'utf8')),
    ].join('\n');
    const named = sorted(
      [...doc.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((match) => match[1]),
    );
    assert.ok(named.length > 80, `found the variables (${named.length})`);
    const unknown = named.filter((name) => !new RegExp(`\\b${name}\\b`).test(sources));
    assert.deepEqual(unknown, []);
  });
});

describe('deploy/healthcheck.mjs', () => {
  /** Runs the script against a server answering `status` (null: nothing listens). */
  async function check(status, args = ['CHECKED_PORT', '1']) {
    const server = createServer((request, response) => {
      response.statusCode = request.url === '/healthz' ? status : 404;
      response.end();
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    if (status === null) await new Promise((resolve) => server.close(resolve));
    try {
      const child = spawn(process.execPath, [path.join(ROOT, HEALTHCHECK_SCRIPT), ...args], {
        env: { ...process.env, CHECKED_PORT: String(port) },
        stdio: 'ignore',
      });
      return await new Promise((resolve) => child.on('exit', resolve));
    } finally {
      server.close();
    }
  }

  it('passes on a 200 from /healthz on the port the named variable holds', async () => {
    assert.equal(await check(200), 0);
  });

  it('fails on any other answer, and when nothing listens', async () => {
    assert.equal(await check(503), 1);
    assert.equal(await check(null), 1);
  });

  it('refuses to run without a port', async () => {
    assert.equal(await check(200, []), 2);
  });
});
