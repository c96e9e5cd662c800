/**
 * The portal theme. Every foreground/background pair used for text meets WCAG AA (4.5:1; checked
 * by __tests__/theme.test.ts), and non-text boundaries (input borders, focus ring) reach 3:1.
 */
export const theme = {
  colors: {
    text: '#1f2933',
    textMuted: '#52606d',
    background: '#f4f6f8',
    surface: '#ffffff',
    surfaceMuted: '#eef2f5',
    border: '#d3dae1',
    /** Borders of form controls: 3:1 against white (WCAG 1.4.11). */
    borderStrong: '#7b8794',
    primary: '#0b5c8a',
    primaryHover: '#084768',
    onPrimary: '#ffffff',
    focus: '#1565c0',
    danger: '#b42318',
    dangerHover: '#8f1c13',
    onDanger: '#ffffff',
    success: '#1b6e35',
    successBackground: '#e8f5ec',
    successText: '#14532d',
    errorBackground: '#fdeceb',
    errorText: '#8a1c14',
    inactiveBackground: '#eef2f5',
    inactiveText: '#3e4c59',
    activeBackground: '#e8f5ec',
    activeText: '#14532d',
    skeleton: '#e1e7ec',
    backdrop: 'rgba(15, 23, 31, 0.55)',
  },
  space: {
    xxs: '2px',
    xs: '4px',
    sm: '8px',
    md: '16px',
    lg: '24px',
    xl: '32px',
    xxl: '48px',
  },
  radii: { sm: '4px', md: '8px', pill: '999px' },
  breakpoints: { sm: '576px', md: '768px', lg: '1024px', xl: '1280px' },
  media: {
    sm: '@media (min-width: 576px)',
    md: '@media (min-width: 768px)',
    /** From here up the sidebar is fixed instead of sliding over. */
    lg: '@media (min-width: 1024px)',
    xl: '@media (min-width: 1280px)',
  },
  fonts: {
    // System fonts only: no web font download on first load.
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  },
  fontSizes: { sm: '0.875rem', md: '1rem', lg: '1.25rem', xl: '1.5rem', xxl: '2rem' },
  fontWeights: { normal: 400, medium: 500, bold: 600 },
  lineHeights: { tight: 1.25, normal: 1.5 },
  shadows: {
    sm: '0 1px 2px rgba(15, 23, 31, 0.08)',
    md: '0 4px 12px rgba(15, 23, 31, 0.12)',
    lg: '0 12px 32px rgba(15, 23, 31, 0.2)',
  },
  zIndices: { sidebar: 100, overlay: 900, modal: 1000 },
} as const;

export type Theme = typeof theme;

declare module 'styled-components' {
  // Types `props.theme` in every styled component of every app that imports shared-ui.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- module augmentation needs an interface, see above
  export interface DefaultTheme extends Theme {}
}
