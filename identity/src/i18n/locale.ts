import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, type PasswordProblem } from '../accounts/password-policy';

/**
 * The languages of our own pages. Like Keycloak, a `kc_locale` query parameter picks the language
 * and the `KEYCLOAK_LOCALE` cookie keeps it for the rest of the flow (sign-in page, confirmation,
 * success page), which the portal cannot put in those URLs itself.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const LOCALE_PARAM = 'kc_locale';
export const LOCALE_COOKIE = 'KEYCLOAK_LOCALE';

/** `de`, `de-DE` and `DE` all mean German; anything unsupported is undefined (caller falls back). */
export function parseLocale(value: string | null | undefined): Locale | undefined {
  const language = value?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === language);
}

/** Reads our locale cookie from a raw `Cookie` header. */
export function localeFromCookieHeader(header: string | undefined): Locale | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === LOCALE_COOKIE) return parseLocale(part.slice(eq + 1));
  }
  return undefined;
}

/** "12 hours", "2 days", "30 minutes": how long a link stays valid, in the reader's language. */
function duration(seconds: number, units: { day: [string, string]; hour: [string, string]; minute: [string, string] }): string {
  const pick = (count: number, [one, many]: [string, string]) => `${count} ${count === 1 ? one : many}`;
  if (seconds >= 86_400 && seconds % 86_400 === 0) return pick(seconds / 86_400, units.day);
  if (seconds >= 3_600 && seconds % 3_600 === 0) return pick(seconds / 3_600, units.hour);
  return pick(Math.max(1, Math.round(seconds / 60)), units.minute);
}

export interface Messages {
  signIn: {
    title: string;
    heading: string;
    email: string;
    password: string;
    submit: string;
    invalidCredentials: string;
    /** Sign-in refused for a while from this address (the per-address cap). */
    tooManyAttempts: (minutes: number) => string;
    /**
     * The account typed is locked for a while (Keycloak's brute-force detection). Unknown e-mails
     * are counted alike, so this says nothing about whether the account exists.
     */
    accountLocked: (minutes: number) => string;
    /** The learning platform's (brokered) sign-in failed: the provider refused or could not be reached. */
    brokerFailed: string;
    /** The brokered identity is linked to no account here (first broker login refused). */
    brokerNotLinked: string;
    /** The linked account is disabled. */
    brokerDisabled: string;
  };
  device: {
    title: string;
    intro: string;
    codeLabel: string;
    submit: string;
    invalidCode: string;
    expiredCode: string;
    usedCode: string;
    missingCode: string;
    cancelled: string;
    failed: string;
    tooManyAttempts: (minutes: number) => string;
  };
  deviceConfirm: {
    title: string;
    question: (name: string) => string;
    codeLabel: string;
    hint: string;
    allow: string;
    deny: string;
  };
  deviceSuccess: {
    title: string;
    message: string;
  };
  setPassword: {
    title: string;
    intro: (email: string) => string;
    password: string;
    confirmation: string;
    rules: string;
    submit: string;
    problems: Record<PasswordProblem, string>;
    invalidLinkTitle: string;
    invalidLink: string;
    /** The form's anti-forgery cookie is missing or different: an old tab or a forged post. */
    staleForm: string;
    tooManyAttempts: (minutes: number) => string;
    doneTitle: string;
    done: string;
  };
  /** Keycloak's UPDATE_PASSWORD action, started from the portal ("Change password"). */
  updatePassword: {
    title: string;
    intro: (email: string) => string;
    current: string;
    password: string;
    confirmation: string;
    submit: string;
    cancel: string;
    missingCurrent: string;
    wrongCurrent: string;
    /** Too many wrong current passwords, for the account (locked) or from the address. */
    tooManyAttempts: (minutes: number) => string;
  };
  invitation: {
    subject: (product: string) => string;
    greeting: (name: string) => string;
    body: (product: string) => string;
    action: string;
    validity: (seconds: number) => string;
    ignore: string;
  };
}

const EN: Messages = {
  signIn: {
    title: 'Sign in',
    heading: 'Sign in to your account',
    email: 'Email',
    password: 'Password',
    submit: 'Sign in',
    invalidCredentials: 'Invalid email or password.',
    tooManyAttempts: (minutes) =>
      `Too many failed sign-in attempts from your network. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    accountLocked: (minutes) =>
      `Too many failed sign-in attempts for this account. It is locked for now: try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    brokerFailed:
      'Signing you in through your learning platform did not work. Launch the activity from your course again, or sign in with your password.',
    brokerNotLinked:
      'Your learning platform account is not linked to an account here yet. Launch the activity from your course again in a minute, or sign in with your password.',
    brokerDisabled: 'The account your learning platform signed you in as is disabled.',
  },
  device: {
    title: 'Device login',
    intro: 'Enter the code shown on your device.',
    codeLabel: 'Code',
    submit: 'Continue',
    invalidCode: 'The code is invalid. Check the code shown on your device and try again.',
    expiredCode: 'The code has expired. Start the sign-in on your device again.',
    usedCode: 'This code has already been used. Start the sign-in on your device again.',
    missingCode: 'Enter the code shown on your device.',
    cancelled: 'The device sign-in was cancelled. The device was not signed in.',
    failed: 'The device sign-in could not be completed. Start it again on your device.',
    tooManyAttempts: (minutes) =>
      `Too many invalid codes were entered. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  },
  deviceConfirm: {
    title: 'Allow device',
    question: (name) => `Allow the device to sign in as ${name}?`,
    codeLabel: 'Code',
    hint: 'Only allow it if your device shows this code.',
    allow: 'Allow',
    deny: 'Deny',
  },
  deviceSuccess: {
    title: 'Device login successful',
    message: 'Your device is signed in. You can close this page and continue on your device.',
  },
  setPassword: {
    title: 'Set your password',
    intro: (email) => `Choose a password for ${email}.`,
    password: 'New password',
    confirmation: 'Confirm password',
    rules: `At least ${PASSWORD_MIN_LENGTH} characters, not your email address.`,
    submit: 'Set password',
    problems: {
      missing: 'Enter a password.',
      tooShort: `Use at least ${PASSWORD_MIN_LENGTH} characters.`,
      tooLong: `Use at most ${PASSWORD_MAX_LENGTH} characters.`,
      equalsEmail: 'The password must not be your email address.',
      mismatch: 'The passwords do not match.',
    },
    invalidLinkTitle: 'Link no longer valid',
    invalidLink:
      'This link is invalid, has expired or was already used. Ask your administrator to send you a new invitation.',
    staleForm: 'This page has expired. Open the link from your email again.',
    tooManyAttempts: (minutes) =>
      `Too many failed attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    doneTitle: 'Password set',
    done: 'Your password is set. You can now sign in.',
  },
  updatePassword: {
    title: 'Change password',
    intro: (email) => `Change the password of ${email}.`,
    current: 'Current password',
    password: 'New password',
    confirmation: 'New password again',
    submit: 'Change password',
    cancel: 'Cancel',
    missingCurrent: 'Enter your current password.',
    wrongCurrent: 'The current password is not correct.',
    tooManyAttempts: (minutes) =>
      `Too many wrong passwords. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  },
  invitation: {
    subject: (product) => `Set up your ${product} account`,
    greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
    body: (product) => `an account has been created for you in the ${product}. Set your password to sign in:`,
    action: 'Set password',
    validity: (seconds) =>
      `The link can be used once and is valid for ${duration(seconds, { day: ['day', 'days'], hour: ['hour', 'hours'], minute: ['minute', 'minutes'] })}.`,
    ignore: 'If you did not expect this email, you can ignore it.',
  },
};

const DE: Messages = {
  signIn: {
    title: 'Anmelden',
    heading: 'Bei Ihrem Konto anmelden',
    email: 'E-Mail',
    password: 'Passwort',
    submit: 'Anmelden',
    invalidCredentials: 'Ungültige E-Mail-Adresse oder ungültiges Passwort.',
    tooManyAttempts: (minutes) =>
      `Zu viele fehlgeschlagene Anmeldeversuche aus Ihrem Netzwerk. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
    accountLocked: (minutes) =>
      `Zu viele fehlgeschlagene Anmeldeversuche für dieses Konto. Es ist vorübergehend gesperrt: Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
    brokerFailed:
      'Die Anmeldung über Ihre Lernplattform hat nicht funktioniert. Starten Sie die Aktivität erneut aus Ihrem Kurs oder melden Sie sich mit Ihrem Passwort an.',
    brokerNotLinked:
      'Ihr Konto der Lernplattform ist noch mit keinem Konto hier verknüpft. Starten Sie die Aktivität in einer Minute erneut aus Ihrem Kurs oder melden Sie sich mit Ihrem Passwort an.',
    brokerDisabled: 'Das Konto, als das Ihre Lernplattform Sie angemeldet hat, ist deaktiviert.',
  },
  device: {
    title: 'Geräteanmeldung',
    intro: 'Geben Sie den Code ein, der auf Ihrem Gerät angezeigt wird.',
    codeLabel: 'Code',
    submit: 'Weiter',
    invalidCode: 'Der Code ist ungültig. Prüfen Sie den Code auf Ihrem Gerät und versuchen Sie es erneut.',
    expiredCode: 'Der Code ist abgelaufen. Starten Sie die Anmeldung auf Ihrem Gerät erneut.',
    usedCode: 'Dieser Code wurde bereits verwendet. Starten Sie die Anmeldung auf Ihrem Gerät erneut.',
    missingCode: 'Geben Sie den Code ein, der auf Ihrem Gerät angezeigt wird.',
    cancelled: 'Die Geräteanmeldung wurde abgebrochen. Das Gerät wurde nicht angemeldet.',
    failed: 'Die Geräteanmeldung konnte nicht abgeschlossen werden. Starten Sie sie auf Ihrem Gerät erneut.',
    tooManyAttempts: (minutes) =>
      `Zu viele ungültige Codes eingegeben. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
  },
  deviceConfirm: {
    title: 'Gerät zulassen',
    question: (name) => `Darf sich das Gerät als ${name} anmelden?`,
    codeLabel: 'Code',
    hint: 'Erlauben Sie es nur, wenn Ihr Gerät diesen Code anzeigt.',
    allow: 'Zulassen',
    deny: 'Ablehnen',
  },
  deviceSuccess: {
    title: 'Geräteanmeldung erfolgreich',
    message: 'Ihr Gerät ist angemeldet. Sie können diese Seite schließen und auf Ihrem Gerät fortfahren.',
  },
  setPassword: {
    title: 'Passwort festlegen',
    intro: (email) => `Wählen Sie ein Passwort für ${email}.`,
    password: 'Neues Passwort',
    confirmation: 'Passwort bestätigen',
    rules: `Mindestens ${PASSWORD_MIN_LENGTH} Zeichen, nicht Ihre E-Mail-Adresse.`,
    submit: 'Passwort festlegen',
    problems: {
      missing: 'Geben Sie ein Passwort ein.',
      tooShort: `Verwenden Sie mindestens ${PASSWORD_MIN_LENGTH} Zeichen.`,
      tooLong: `Verwenden Sie höchstens ${PASSWORD_MAX_LENGTH} Zeichen.`,
      equalsEmail: 'Das Passwort darf nicht Ihre E-Mail-Adresse sein.',
      mismatch: 'Die Passwörter stimmen nicht überein.',
    },
    invalidLinkTitle: 'Link nicht mehr gültig',
    invalidLink:
      'Dieser Link ist ungültig, abgelaufen oder wurde bereits verwendet. Bitten Sie Ihre Administration um eine neue Einladung.',
    staleForm: 'Diese Seite ist abgelaufen. Öffnen Sie den Link aus Ihrer E-Mail erneut.',
    tooManyAttempts: (minutes) =>
      `Zu viele fehlgeschlagene Versuche. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
    doneTitle: 'Passwort festgelegt',
    done: 'Ihr Passwort ist festgelegt. Sie können sich jetzt anmelden.',
  },
  updatePassword: {
    title: 'Passwort ändern',
    intro: (email) => `Ändern Sie das Passwort für ${email}.`,
    current: 'Aktuelles Passwort',
    password: 'Neues Passwort',
    confirmation: 'Neues Passwort wiederholen',
    submit: 'Passwort ändern',
    cancel: 'Abbrechen',
    missingCurrent: 'Geben Sie Ihr aktuelles Passwort ein.',
    wrongCurrent: 'Das aktuelle Passwort ist nicht korrekt.',
    tooManyAttempts: (minutes) =>
      `Zu viele falsche Passwörter. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
  },
  invitation: {
    subject: (product) => `Richten Sie Ihr Konto für ${product} ein`,
    greeting: (name) => (name ? `Hallo ${name},` : 'Hallo,'),
    body: (product) => `für Sie wurde ein Konto in ${product} angelegt. Legen Sie Ihr Passwort fest, um sich anzumelden:`,
    action: 'Passwort festlegen',
    validity: (seconds) =>
      `Der Link kann einmal verwendet werden und ist ${duration(seconds, { day: ['Tag', 'Tage'], hour: ['Stunde', 'Stunden'], minute: ['Minute', 'Minuten'] })} gültig.`,
    ignore: 'Wenn Sie diese E-Mail nicht erwartet haben, können Sie sie ignorieren.',
  },
};

const MESSAGES: Record<Locale, Messages> = { en: EN, de: DE };

export const messagesFor = (locale: Locale): Messages => MESSAGES[locale];
