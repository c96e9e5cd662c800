/** The portal operator's support address, shown wherever a user is told to get help. */
export const SUPPORT_EMAIL = 'support@simulation-portal.example';
