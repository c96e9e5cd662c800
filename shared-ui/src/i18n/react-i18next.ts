// The portal's one door to react-i18next, for the same reason as ../router.ts: shared whole,
// react-i18next would ship Trans, withTranslation, SSR helpers and an HTML parser that no screen
// uses. Its context and the i18next instance set by initReactI18next live in this one module copy.
export { initReactI18next, useTranslation } from 'react-i18next';
