// `pnpm lint`'s Dockerfile check: every deploy/*.Dockerfile through dockerfile-utils (the linter of
// the VS Code Docker extension's language server). Warnings fail as well as errors: the files are
// few and ours, so a deprecated or doubtful instruction is fixed rather than carried.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';

const DEPLOY_DIR = fileURLToPath(new URL('../../deploy/', import.meta.url));
const SEVERITY = { 1: 'error', 2: 'warning' };

export function dockerfiles(dir = DEPLOY_DIR) {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.Dockerfile'))
    .sort()
    .map((name) => path.join(dir, name));
}

/** Every finding of the linter in one file, as `file:line: severity: message`. */
export function lintDockerfile(file) {
  return validate(readFileSync(file, 'utf8')).map(
    (finding) =>
      `${path.relative(process.cwd(), file)}:${finding.range.start.line + 1}: ` +
      `${SEVERITY[finding.severity] ?? 'note'}: ${finding.message}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = dockerfiles();
  const findings = files.flatMap(lintDockerfile);
  for (const line of findings) console.error(line);
  if (files.length === 0) {
    console.error('no deploy/*.Dockerfile found');
    process.exit(1);
  }
  if (findings.length > 0) process.exit(1);
  console.log(`dockerfile-utils: ${files.length} Dockerfiles, no findings`);
}
