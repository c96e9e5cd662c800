import type { AuditEntry } from '@portal/contract';

/** One changed field of an audit entry: its name and the value before and after, as text. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const MAX_TEXT = 80;
const MAX_LIST = 5;
/** Fields every object carries that say nothing a reader of the history needs. */
const IGNORED = new Set(['id', 'organisation']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const clip = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** How values are shown: `empty` for nothing, `count` for long lists, `nameOf` for lookup ids. */
export interface ValueText {
  empty: string;
  count: (n: number) => string;
  /** The name of lookup id `id` of this field, or undefined when the field holds no lookup id. */
  nameOf?: (field: string, id: number) => string | undefined;
}

/** A value as short readable text. Lists longer than 5 are counted; lookup ids are named. */
export function showValue(value: unknown, field: string, how: ValueText): string {
  if (value === null || value === undefined || value === '') return how.empty;
  if (Array.isArray(value)) {
    if (value.length === 0) return how.empty;
    if (value.length > MAX_LIST) return how.count(value.length);
    return clip(value.map((v) => showValue(v, field, how)).join(', '));
  }
  if (typeof value === 'number') return how.nameOf?.(field, value) ?? String(value);
  if (isObject(value)) return clip(JSON.stringify(value));
  return clip(String(value));
}

/**
 * The fields an update changed, in the order the object lists them. A create or a delete has
 * only one side: nothing is listed (the entry's action and object say it all).
 */
export function changedFields(entry: Pick<AuditEntry, 'before' | 'after'>, how: ValueText): FieldChange[] {
  const { before, after } = entry;
  if (!isObject(before) || !isObject(after)) return [];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((f) => !IGNORED.has(f));
  return fields
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: showValue(before[field], field, how), after: showValue(after[field], field, how) }));
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** What the entry is about, as a reader knows it: a name, else the object's id. */
export function objectLabel(entry: AuditEntry): string {
  const source = [entry.after, entry.before].find(isObject) ?? {};
  switch (entry.entityType) {
    case 'organisation':
      return text(source.name) ?? `#${entry.entityId}`;
    case 'license_block':
    case 'license_block_user':
      return text(source.licenseName) ?? `#${entry.entityId}`;
    case 'file':
      return text(source.originalName) ?? `#${entry.entityId}`;
    case 'user': {
      const name = text(source.fullName) ?? text(source.email);
      if (name) return name;
      // A user's own first sign-in records only the status; the actor is that user.
      return entry.actorId === entry.entityId ? entry.actorName : `#${entry.entityId}`;
    }
    case 'lti_score':
      // A grade sent to the learning platform (entity id: the session): whose it was.
      return text(source.learner) ?? text(source.email) ?? `#${entry.entityId}`;
    default:
      return `#${entry.entityId}`;
  }
}

/**
 * Whether the portal itself acted (the daily licence expiry, grade passback): the API stores such
 * entries with no actor id, the English name `System` and no e-mail. A deleted user's entries
 * also lose their actor id, but keep their name and e-mail, so all three are checked.
 */
export function isSystemActor(entry: Pick<AuditEntry, 'actorId' | 'actorName' | 'actorEmail'>): boolean {
  return entry.actorId === null && entry.actorName === 'System' && entry.actorEmail === '';
}
