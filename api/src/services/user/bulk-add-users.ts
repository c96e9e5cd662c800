import { randomUUID } from 'node:crypto';
import {
  LICENSE_BLOCK_MESSAGES,
  USER_ADMIN_MESSAGES as M,
  type BulkUserInput,
  type BulkUserResult,
  type CsvRowError,
} from '@portal/contract';
import { createAccountItem } from '../../identity/provisioning';
import { fillMessage, parseUsersCsv } from '../../lib/csv/users-csv';
import { ApiError, notFound } from '../../lib/http-errors';
import { isGlobalAdmin } from '../../lib/object-access';
import { createAuditRepository } from '../../repositories/audit-repository';
import { createFileRepository } from '../../repositories/file-repository';
import { createLicenseRepository } from '../../repositories/license-repository';
import { createOutboxRepository } from '../../repositories/outbox-repository';
import {
  createUserRepository,
  type AuthUser,
  type NewUser,
} from '../../repositories/user-repository';
import type { ServiceContext } from '../service-context';
import { runUnitOfWork } from '../unit-of-work';

type Errors = Record<string, string[] | CsvRowError[]>;
const refuse = (errors: Errors): ApiError => new ApiError(400, errors);

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** Rows in file order, errors of one row in column order. */
const byRow = (a: CsvRowError, b: CsvRowError) => a.row - b.row;

/**
 * POST /api/v1/user: every row of an uploaded users CSV becomes a user of the licence's
 * organisation holding one of its seats, in one transaction with their outbox items, the file's
 * move to `saved` and the audit entry. Any problem refuses the whole file and nothing is written.
 */
export async function bulkAddUsers(
  ctx: ServiceContext,
  actor: AuthUser,
  input: BulkUserInput,
): Promise<BulkUserResult> {
  const global = isGlobalAdmin(actor);
  const role = await ctx.repos.users.findRole(input.role);
  if (!role) throw refuse({ role: [M.invalidChoice] });
  if (role.isGlobal && !global) throw refuse({ role: [M.sysAdminOnly] });

  const license = await ctx.repos.licenses.findOwner(input.license);
  // Another organisation's licence is as unknown as one that does not exist.
  if (!license || (!global && license.organisationId !== actor.organisationId)) throw notFound();

  return runUnitOfWork(ctx.db, async (uow) => {
    const users = createUserRepository(uow.q);
    const licenses = createLicenseRepository(uow.q);
    // Locked: a second bulk add of the same file waits here, then finds it saved.
    const file = await createFileRepository(uow.q).lockUpload(input.file, 'user');
    if (!file || file.ownerId !== actor.id) throw notFound();
    if (file.state !== 'uploaded') throw refuse({ file: [M.fileNotUploaded] });
    const opened = await ctx.storage.open(file.storageKey);
    if (!opened) throw refuse({ file: [M.fileNotUploaded] });
    const parsed = parseUsersCsv(await readAll(opened.stream));
    if (!parsed.ok) throw refuse({ file: parsed.fileErrors });

    const rowErrors = [...parsed.rowErrors];
    const taken = await users.emailsInUse(parsed.rows.map((r) => r.email));
    for (const r of parsed.rows) {
      if (taken.has(r.email)) rowErrors.push({ row: r.row, field: 'email', message: M.emailTaken });
    }

    // The licence as it stands now; assignUsers below decides under the licence's lock.
    const state = await licenses.seatState(input.license);
    const licenseErrors: string[] = [];
    if (!state || !state.usable) licenseErrors.push(LICENSE_BLOCK_MESSAGES.inactive);
    else {
      // Every row of the file needs a seat, including those with other errors still to fix.
      const fileRows = rowsInOrder(parsed);
      if (fileRows.length > state.free) {
        licenseErrors.push(fillMessage(LICENSE_BLOCK_MESSAGES.notEnoughSeats, { n: state.free }));
        seatErrors(fileRows, state.free, rowErrors);
      }
    }
    if (rowErrors.length > 0 || licenseErrors.length > 0) {
      const rowsWithErrors = new Set(rowErrors.map((e) => e.row)).size;
      throw refuse({
        ...(rowErrors.length > 0
          ? { file: [fillMessage(M.rowsRefused, { n: rowsWithErrors })] }
          : {}),
        ...(licenseErrors.length > 0 ? { license: licenseErrors } : {}),
        ...(rowErrors.length > 0 ? { rows: rowErrors.sort(byRow) } : {}),
      });
    }

    const newUsers: NewUser[] = parsed.rows.map((r) => ({
      id: randomUUID(),
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
    }));
    await users.insertUsers(newUsers, license.organisationId, role.id, license.language ?? 'en');
    const assigned = await licenses.assignUsers({
      licenseBlockId: input.license,
      organisationId: license.organisationId,
      userIds: newUsers.map((u) => u.id),
      actor,
    });
    if (!assigned.ok) {
      // Another writer took seats or changed the licence since the check above.
      if (assigned.reason === 'seats') {
        const errors: CsvRowError[] = [];
        seatErrors(
          parsed.rows.map((r) => r.row),
          assigned.available,
          errors,
        );
        throw refuse({
          file: [fillMessage(M.rowsRefused, { n: errors.length })],
          license: [fillMessage(LICENSE_BLOCK_MESSAGES.notEnoughSeats, { n: assigned.available })],
          rows: errors,
        });
      }
      if (assigned.reason === 'inactive')
        throw refuse({ license: [LICENSE_BLOCK_MESSAGES.inactive] });
      if (assigned.reason === 'not-found') throw notFound();
      throw new Error(`new users not found in their organisation: ${assigned.userIds.join(', ')}`);
    }
    await createOutboxRepository(uow.q).enqueue(newUsers.map(createAccountItem));
    await createFileRepository(uow.q).markSaved(file.id);
    await createAuditRepository(uow.q).record({
      actor,
      action: 'create',
      entityType: 'user',
      entityId: `bulk:${file.id}`,
      organisationId: license.organisationId,
      after: {
        file: file.id,
        license: input.license,
        role: role.name,
        count: newUsers.length,
        users: newUsers.map((u) => ({ id: u.id, email: u.email })),
      },
    });
    uow.afterCommit(() => ctx.outboxWorker.kick());
    return { count: newUsers.length, users: newUsers };
  });
}

/** The rows of the file in order: good ones and those with errors (each row once). */
function rowsInOrder(parsed: { rows: { row: number }[]; rowErrors: CsvRowError[] }): number[] {
  return [
    ...new Set([...parsed.rows.map((r) => r.row), ...parsed.rowErrors.map((e) => e.row)]),
  ].sort((a, b) => a - b);
}

/** The rows past the licence's free seats, each with the seat message. */
function seatErrors(rows: readonly number[], free: number, into: CsvRowError[]) {
  const message = fillMessage(LICENSE_BLOCK_MESSAGES.notEnoughSeats, { n: Math.max(free, 0) });
  for (const row of rows.slice(Math.max(free, 0))) into.push({ row, field: 'license', message });
}
