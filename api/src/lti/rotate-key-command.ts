import type { Db } from '../db/driver';
import type { AuditActor } from '../repositories/audit-repository';
import { createToolKeys, RETIRED_KEY_PUBLISHED_HOURS, type ToolKeyInfo } from './tool-keys';

/** How the audit log names the operator of `lti:rotate-key` (no portal user runs it). */
export function commandActor(operator: string): AuditActor {
  return { id: null, firstName: operator, lastName: '(lti:rotate-key, command line)', email: '' };
}

export interface RotateKeyCommandOptions {
  operator: string;
  /** `--now`: the new key signs at once (see api/README.md#lti-tool-keys). */
  immediately: boolean;
  now?: Date;
}

function keyLine(key: ToolKeyInfo): string {
  const until = key.retiredAt ? `, until ${key.retiredAt.toISOString()}` : '';
  return `  ${key.state.padEnd(8)} ${key.kid}  signs from ${key.signsFrom.toISOString()}${until}`;
}

/**
 * `pnpm --filter @portal/api lti:rotate-key [--now]` (scripts/lti-rotate-key.ts): publishes the
 * tool's next key as the 90-day schedule does, or with `immediately` one that signs at once.
 * Answers the lines to print: what happened and every key with its state.
 */
export async function runRotateKeyCommand(db: Db, options: RotateKeyCommandOptions): Promise<string[]> {
  const now = options.now ?? new Date();
  const keys = createToolKeys(db);
  await keys.ensure(now);
  const result = await keys.rotate({
    actor: commandActor(options.operator),
    now,
    immediately: options.immediately,
    reason: 'command',
  });
  const lines: string[] = [];
  if (!result.rotated) {
    lines.push(
      `A next key (${result.kid}) is already published and signs from ${result.signsFrom.toISOString()}; nothing changed.`,
      'Run with --now to replace every key at once instead (see api/README.md, "LTI tool keys").',
    );
  } else if (options.immediately) {
    lines.push(
      `New key ${result.kid} signs now. Platforms that cached the JWKS refuse its tokens (grades, deep linking) until they fetch it again.`,
    );
  } else {
    lines.push(
      `Next key ${result.kid} published; it signs from ${result.signsFrom.toISOString()}.`,
      `The key it replaces signs until then and stays published ${RETIRED_KEY_PUBLISHED_HOURS} h longer.`,
    );
  }
  lines.push('Keys:', ...(await keys.list(now)).map(keyLine));
  return lines;
}
