import { USERS, type LmsUser } from './store';

/**
 * The Demo course's roster as Names and Role Provisioning Services 2.0 serves it: the platform's
 * own users (who can sign in here) plus generated members, 120 in all, so a tool has to follow
 * pages of 50. The generated ones look like a real course's export: some have no e-mail (Canvas
 * hides it by privacy setting), a few no name at all (the certification suite's anonymous
 * members), a few are Inactive (a concluded enrolment) and a handful teach.
 */

export const MEMBERSHIP_ROLE = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  teachingAssistant: 'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
} as const;

export const MEMBER_STATUSES = ['Active', 'Inactive', 'Deleted'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** One member of the course, as NRPS 2.0 §2.2 names its fields; absent fields are left out. */
export interface Member {
  user_id: string;
  status: MemberStatus;
  roles: string[];
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

export const COURSE_SIZE = 120;
/** Generated members' ids start here, far from the platform users' 101…; an id never changes owner. */
const FIRST_GENERATED_ID = 2001;

const GIVEN = [
  'Amira', 'Jonas', 'Chiara', 'Mateo', 'Ingrid', 'Kwame', 'Yuki', 'Leonie', 'Tomasz', 'Aisha',
  'Finn', 'Sofia', 'Ravi', 'Elena', 'Mehmet', 'Nora', 'Lucas', 'Hanna', 'Diego', 'Mei',
  'Oskar', 'Fatima', 'Emil', 'Zoe', 'Ibrahim', 'Clara', 'Noah', 'Priya', 'Anton', 'Lea',
  'Samuel', 'Greta', 'Omar', 'Julia', 'Viktor', 'Ana', 'Paul', 'Leila', 'Milan', 'Ida',
] as const;
const FAMILY = [
  'Schneider', 'Okafor', 'Rossi', 'García', 'Lindqvist', 'Mensah', 'Tanaka', 'Becker', 'Nowak', 'Khan',
  'Jensen', 'Costa', 'Iyer', 'Popescu', 'Yılmaz', 'Berg', 'Martin', 'Fischer', 'Herrera', 'Chen',
  'Larsen', 'Haddad', 'Wagner', 'Dubois', 'Adeyemi', 'Novak', 'Weber', 'Sharma', 'Kovač', 'Meyer',
  'Silva', 'Hoffmann', 'Farouk', 'Keller', 'Petrov', 'Santos', 'Richter', 'Nasser', 'Horvat', 'Nilsson',
] as const;

/** ASCII local part of an e-mail address: accents dropped, as directory exports have them. */
const mailPart = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

/** The platform's own users: membership roles only (NRPS lists context roles, not institution ones). */
function memberOfUser(user: LmsUser): Member {
  return {
    user_id: user.id,
    status: 'Active',
    roles: [user.instructor ? MEMBERSHIP_ROLE.instructor : MEMBERSHIP_ROLE.learner],
    name: `${user.firstName} ${user.lastName}`,
    given_name: user.firstName,
    family_name: user.lastName,
    email: user.email,
  };
}

/**
 * The n-th generated member (0-based). Coprime strides through both name lists give 111 distinct
 * full names; which members lack an e-mail, a name or are inactive follows from n alone, so every
 * start serves the same roster.
 */
function generatedMember(n: number): Member {
  const given = GIVEN[(n * 7) % GIVEN.length]!;
  const family = FAMILY[(n * 13 + Math.floor(n / GIVEN.length)) % FAMILY.length]!;
  const roles = n === 5 || n === 60 ? [MEMBERSHIP_ROLE.instructor] : n === 33 ? [MEMBERSHIP_ROLE.teachingAssistant] : [MEMBERSHIP_ROLE.learner];
  const member: Member = { user_id: String(FIRST_GENERATED_ID + n), status: [17, 48, 79, 104].includes(n) ? 'Inactive' : 'Active', roles };
  // Anonymous (no name parts, no e-mail, as the certification suite's launches): 3 members.
  if ([12, 57, 91].includes(n)) return member;
  member.name = `${given} ${family}`;
  // A display name without given/family name: 2 members.
  if (![26, 74].includes(n)) {
    member.given_name = given;
    member.family_name = family;
  }
  // Every ninth hides its e-mail address.
  if (n % 9 !== 4) member.email = `${mailPart(given)}.${mailPart(family)}${n}@students.demo.test`;
  return member;
}

/** The roster of a fresh platform: the platform users first, then the generated members. */
export const COURSE_MEMBERS: readonly Member[] = [
  ...USERS.map(memberOfUser),
  ...Array.from({ length: COURSE_SIZE - USERS.length }, (_, n) => generatedMember(n)),
];

/** What tests changed (LMS_DATA_DIR keeps it): members who left, and statuses set by hand. */
export interface RosterSnapshot {
  removed: string[];
  statuses: Record<string, MemberStatus>;
}

export function createRoster(options: { saved?: RosterSnapshot | null; onChange?: (snapshot: RosterSnapshot) => void } = {}) {
  const removed = new Set<string>(options.saved?.removed ?? []);
  const statuses = new Map<string, MemberStatus>(Object.entries(options.saved?.statuses ?? {}));
  const snapshot = (): RosterSnapshot => ({ removed: [...removed], statuses: Object.fromEntries(statuses) });
  const changed = () => options.onChange?.(snapshot());
  const base = (userId: string) => COURSE_MEMBERS.find((m) => m.user_id === userId) ?? null;
  const withStatus = (member: Member): Member => ({ ...member, status: statuses.get(member.user_id) ?? member.status });

  return {
    /** The members now in the course, in roster order. */
    members: (): Member[] => COURSE_MEMBERS.filter((m) => !removed.has(m.user_id)).map(withStatus),
    /** A member of the course now, or null (never was, or left). */
    member(userId: string): Member | null {
      const member = base(userId);
      return member && !removed.has(userId) ? withStatus(member) : null;
    },
    /** Whether the id is one of the roster's at all (present or left). */
    known: (userId: string) => base(userId) !== null,
    /** The member leaves: absent from the memberships from now on. */
    remove(userId: string): boolean {
      if (!base(userId) || removed.has(userId)) return false;
      removed.add(userId);
      changed();
      return true;
    },
    /** Sets the status; a member who had left is back in the course with it. */
    setStatus(userId: string, status: MemberStatus): Member | null {
      const member = base(userId);
      if (!member) return null;
      removed.delete(userId);
      statuses.set(userId, status);
      changed();
      return withStatus(member);
    },
    reset() {
      removed.clear();
      statuses.clear();
      changed();
    },
    snapshot,
  };
}

export type Roster = ReturnType<typeof createRoster>;
