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

export interface Messages {
  signIn: {
    title: string;
    heading: string;
    email: string;
    password: string;
    submit: string;
    invalidCredentials: string;
    /** Sign-in refused for a while; says nothing about whether the account exists. */
    tooManyAttempts: (minutes: number) => string;
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
      `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
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
      `Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
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
};

const MESSAGES: Record<Locale, Messages> = { en: EN, de: DE };

export const messagesFor = (locale: Locale): Messages => MESSAGES[locale];
