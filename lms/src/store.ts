import { randomBytes } from 'node:crypto';
import { DEMO_ACCOUNTS, DEMO_BRIGHTSPACE_ACCOUNTS, DEMO_PASSWORD } from '@portal/contract/demo-accounts';

/**
 * What the learning platform knows: its users, the one demo course with its links and gradebook,
 * and the short-lived things of its protocols (sign-in sessions, launch hints, tokens, codes).
 * In memory, and with a data directory also on disk (data-file.ts); a fresh start has the demo course
 * with its one link.
 */

export const ROLE = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  administrator: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
} as const;

export interface LmsUser {
  /** The platform's stable user id: the LTI `sub` and the Brightspace `Identifier`. */
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Whether the user teaches the demo course (may add links, sees every learner's grades). */
  instructor: boolean;
  /** LTI roles in launches. */
  roles: string[];
  /** The portal organisation of the same person, if any: it picks the client of their launches (institutions.ts). */
  institution: string | null;
}

/** The demo accounts (same e-mails as the portal's) plus users only this platform has. */
const LMS_ONLY = [
  { email: 'learner2@demo.test', firstName: 'Lena', lastName: 'Learner2', role: 'learner', organisation: 'Demo Hospital' },
] as const;

function rolesOf(role: string): { instructor: boolean; roles: string[] } {
  switch (role) {
    case 'educator':
      return { instructor: true, roles: [ROLE.instructor] };
    case 'org admin':
    case 'sys admin':
      return { instructor: true, roles: [ROLE.instructor, ROLE.administrator] };
    default:
      return { instructor: false, roles: [ROLE.learner] };
  }
}

/**
 * Numeric ids as Brightspace has them; fixed, so a restart keeps every user who they were. New
 * users go at the end: an id once given stays that user's (scores and the portal's links keep it).
 */
export const USERS: readonly LmsUser[] = [...DEMO_ACCOUNTS, ...LMS_ONLY, ...DEMO_BRIGHTSPACE_ACCOUNTS].map((account, index) => ({
  id: String(101 + index),
  email: account.email,
  firstName: account.firstName,
  lastName: account.lastName,
  ...rolesOf(account.role),
  institution: account.organisation,
}));
export const PASSWORD = DEMO_PASSWORD;

export const displayName = (user: LmsUser) => `${user.firstName} ${user.lastName}`;

export const COURSE = { id: 'demo-course', label: 'DEMO-101', title: 'Demo course' } as const;

export interface CourseLink {
  id: string;
  title: string;
  custom: Record<string, string>;
  lineItemId: string | null;
}

export interface LineItem {
  id: string;
  label: string;
  scoreMaximum: number;
  resourceLinkId: string | null;
  resourceId?: string;
  tag?: string;
}

export interface Score {
  userId: string;
  scoreGiven?: number;
  scoreMaximum?: number;
  comment?: string;
  activityProgress: string;
  gradingProgress: string;
  timestamp: string;
  /** When we stored it. */
  receivedAt: string;
}

/** The course's first link: Radiography › Lower limb › Knee on the desktop, as the portal's catalogue has it. */
export const FIRST_LINK_CUSTOM = {
  configuration: 'radiography.lower-limb.knee',
  protocol: 'vmc-radiography',
  productId: '1',
  mode: 'Desktop',
} as const;

const token = () => randomBytes(32).toString('base64url');

/** Something single use with an expiry; `take` answers it once. */
class Expiring<T> {
  private readonly items = new Map<string, { value: T; expires: number }>();
  constructor(private readonly ttlMs: number) {}
  put(value: T, key = token()): string {
    this.sweep();
    this.items.set(key, { value, expires: Date.now() + this.ttlMs });
    return key;
  }
  get(key: string | undefined): T | null {
    if (key === undefined) return null;
    const item = this.items.get(key);
    if (!item || item.expires < Date.now()) return null;
    return item.value;
  }
  take(key: string | undefined): T | null {
    const value = this.get(key);
    if (key !== undefined) this.items.delete(key);
    return value;
  }
  has(key: string): boolean {
    return this.get(key) !== null;
  }
  delete(key: string): void {
    this.items.delete(key);
  }
  private sweep() {
    const now = Date.now();
    for (const [key, item] of this.items) if (item.expires < now) this.items.delete(key);
  }
}

/** What a launch button prepared, found again by the `lti_message_hint` the tool hands back. */
export type LaunchIntent =
  /** `iframe`: the embedded launch, shown in a frame of our course page. */
  | { kind: 'link'; userId: string; linkId: string; documentTarget: 'window' | 'iframe' }
  | { kind: 'deep-link'; userId: string; data: string };

/** The course as kept on disk (LMS_DATA_DIR): links, line items and scores survive a restart. */
export interface CourseSnapshot {
  links: CourseLink[];
  lineItems: LineItem[];
  scores: Record<string, Score[]>;
  nextId: number;
}

export function createStore(options: { saved?: CourseSnapshot | null; onChange?: (snapshot: CourseSnapshot) => void } = {}) {
  const links: CourseLink[] = [];
  const lineItems = new Map<string, LineItem>();
  /** line item id → user id → the newest score. */
  const scores = new Map<string, Map<string, Score>>();
  let nextId = 1;
  const snapshot = (): CourseSnapshot => ({
    links: [...links],
    lineItems: [...lineItems.values()],
    scores: Object.fromEntries([...scores].map(([id, byUser]) => [id, [...byUser.values()]])),
    nextId,
  });
  const changed = () => options.onChange?.(snapshot());

  function addLink(input: { title: string; custom: Record<string, string>; lineItem?: Omit<LineItem, 'id' | 'resourceLinkId'> }): CourseLink {
    const id = `link-${nextId++}`;
    let lineItemId: string | null = null;
    if (input.lineItem) {
      lineItemId = String(lineItems.size + 1);
      lineItems.set(lineItemId, { ...input.lineItem, id: lineItemId, resourceLinkId: id });
    }
    const link = { id, title: input.title, custom: input.custom, lineItemId };
    links.push(link);
    changed();
    return link;
  }

  if (options.saved) {
    links.push(...options.saved.links);
    for (const item of options.saved.lineItems) lineItems.set(item.id, item);
    for (const [id, list] of Object.entries(options.saved.scores)) scores.set(id, new Map(list.map((score) => [score.userId, score])));
    nextId = options.saved.nextId;
  } else addLink({
    title: 'Radiography',
    custom: { ...FIRST_LINK_CUSTOM },
    lineItem: { label: 'Radiography', scoreMaximum: 100, resourceId: 'radiography.lower-limb.knee', tag: 'simulation' },
  });

  return {
    users: USERS,
    user: (id: string | undefined) => USERS.find((u) => u.id === id) ?? null,
    userByEmail: (email: string) => USERS.find((u) => u.email === email.trim().toLowerCase()) ?? null,
    links: () => links as readonly CourseLink[],
    link: (id: string) => links.find((l) => l.id === id) ?? null,
    addLink,
    lineItems: () => [...lineItems.values()],
    lineItem: (id: string) => lineItems.get(id) ?? null,
    scoresOf: (lineItemId: string) => [...(scores.get(lineItemId)?.values() ?? [])],
    /**
     * Keeps the score unless the stored one is newer (AGS 2.0 §3.4: the platform must not update
     * a result with a score whose timestamp is older than the last one). Answers whether it was kept.
     */
    putScore(lineItemId: string, score: Score): boolean {
      let byUser = scores.get(lineItemId);
      if (!byUser) scores.set(lineItemId, (byUser = new Map()));
      const stored = byUser.get(score.userId);
      if (stored && Date.parse(stored.timestamp) > Date.parse(score.timestamp)) return false;
      byUser.set(score.userId, score);
      changed();
      return true;
    },
    /** Sign-in sessions (cookie value → user id), 8 hours. */
    sessions: new Expiring<string>(8 * 3600_000),
    /** Launches the buttons started: 10 minutes to come back through the tool's login. */
    intents: new Expiring<LaunchIntent>(600_000),
    /** Deep linking requests sent, by their `data`: what the tool's response must echo. */
    deepLinkRequests: new Expiring<{ userId: string; nonce: string }>(3600_000),
    /** AGS bearer tokens → their scopes, 1 hour. */
    accessTokens: new Expiring<{ scopes: string[] }>(3600_000),
    /** Client assertion jti values seen (RFC 7523 §3: single use), kept past any assertion's lifetime. */
    usedJtis: new Expiring<true>(3600_000),
    /** Brightspace-style OAuth: codes (10 minutes), access tokens (1 hour), refresh tokens (1 day). */
    d2lCodes: new Expiring<{ userId: string; clientId: string; redirectUri: string; scope: string }>(600_000),
    d2lTokens: new Expiring<{ userId: string; scope: string }>(3600_000),
    d2lRefreshTokens: new Expiring<{ userId: string; scope: string }>(86_400_000),
    newToken: token,
  };
}

export type LmsStore = ReturnType<typeof createStore>;
