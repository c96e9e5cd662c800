import type { Mail } from './mailer';

/** The languages the mails are written in; any other user language gets English. */
type MailLanguage = 'en' | 'de';
const mailLanguage = (language: string): MailLanguage =>
  language.toLowerCase().startsWith('de') ? 'de' : 'en';

export interface EmailChangeMailInput {
  /** The user's language code (users.language). */
  language: string;
  name: string;
  oldEmail: string;
  newEmail: string;
  /** The confirmation page with the token in its fragment. */
  link: string;
  ttlHours: number;
  productName: string;
}

/**
 * To the new address: the link that makes the change. It does not name the old address, so a
 * wrong or hostile new address learns nothing about the account it was pointed at.
 */
export function confirmationMail(input: EmailChangeMailInput): Mail {
  const { name, newEmail, link, ttlHours, productName } = input;
  if (mailLanguage(input.language) === 'de') {
    return {
      to: newEmail,
      subject: `${productName}: neue E-Mail-Adresse bestätigen`,
      text: [
        `Hallo ${name},`,
        '',
        `eine Administratorin oder ein Administrator von ${productName} möchte die E-Mail-Adresse ` +
          `Ihres Kontos auf ${newEmail} ändern. Die Änderung gilt erst, wenn Sie sie bestätigen:`,
        '',
        link,
        '',
        `Der Link ist ${ttlHours} Stunden gültig und nur einmal verwendbar. Wenn Sie diese ` +
          'Änderung nicht erwartet haben, ignorieren Sie diese E-Mail; dann ändert sich nichts.',
      ].join('\n'),
    };
  }
  return {
    to: newEmail,
    subject: `${productName}: confirm your new e-mail address`,
    text: [
      `Hello ${name},`,
      '',
      `an administrator of ${productName} has asked to change your account's e-mail address to ` +
        `${newEmail}. The change only takes effect once you confirm it:`,
      '',
      link,
      '',
      `The link works for ${ttlHours} hours and only once. If you did not expect this change, ` +
        'ignore this e-mail and nothing changes.',
    ].join('\n'),
  };
}

/** To the old address: word that a change was asked for, before anything changed. */
export function noticeMail(input: EmailChangeMailInput): Mail {
  const { name, oldEmail, newEmail, productName } = input;
  if (mailLanguage(input.language) === 'de') {
    return {
      to: oldEmail,
      subject: `${productName}: Änderung Ihrer E-Mail-Adresse angefragt`,
      text: [
        `Hallo ${name},`,
        '',
        `eine Administratorin oder ein Administrator von ${productName} hat angefragt, die ` +
          `E-Mail-Adresse Ihres Kontos von ${oldEmail} auf ${newEmail} zu ändern.`,
        '',
        'Noch hat sich nichts geändert: Die Änderung gilt erst, wenn die neue Adresse sie ' +
          'bestätigt. Bis dahin melden Sie sich weiter mit dieser Adresse an.',
        '',
        'Wenn Sie diese Änderung nicht erwartet haben, wenden Sie sich bitte sofort an Ihre ' +
          'Administration.',
      ].join('\n'),
    };
  }
  return {
    to: oldEmail,
    subject: `${productName}: a change of your e-mail address was requested`,
    text: [
      `Hello ${name},`,
      '',
      `an administrator of ${productName} has asked to change your account's e-mail address ` +
        `from ${oldEmail} to ${newEmail}.`,
      '',
      'Nothing has changed yet: the change only takes effect once the new address confirms it. ' +
        'Until then you keep signing in with this address.',
      '',
      'If you did not expect this change, contact your administrator at once.',
    ].join('\n'),
  };
}
