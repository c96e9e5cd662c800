import { theme } from '../theme';

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const c = theme.colors;

describe('theme colours', () => {
  it.each([
    ['text on surface', c.text, c.surface],
    ['text on background', c.text, c.background],
    ['muted text on surface', c.textMuted, c.surface],
    ['muted text on background', c.textMuted, c.background],
    ['muted text on muted surface', c.textMuted, c.surfaceMuted],
    ['links on surface', c.primary, c.surface],
    ['links on background', c.primary, c.background],
    ['primary button text', c.onPrimary, c.primary],
    ['primary button hover text', c.onPrimary, c.primaryHover],
    ['danger button text', c.onDanger, c.danger],
    ['danger button hover text', c.onDanger, c.dangerHover],
    ['success banner text', c.successText, c.successBackground],
    ['error banner text', c.errorText, c.errorBackground],
    ['error text on surface', c.errorText, c.surface],
    ['active pill', c.activeText, c.activeBackground],
    ['inactive pill', c.inactiveText, c.inactiveBackground],
  ])('%s meets WCAG AA for text (4.5:1)', (_name, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['form control borders', c.borderStrong, c.surface],
    ['focus ring', c.focus, c.surface],
    ['focus ring on the page', c.focus, c.background],
  ])('%s reach 3:1 against their background', (_name, fg, bg) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(3);
  });

  it('switches the sidebar at 1024px and uses system fonts only', () => {
    expect(theme.breakpoints.lg).toBe('1024px');
    expect(theme.media.lg).toBe('@media (min-width: 1024px)');
    expect(theme.fonts.body.startsWith('system-ui')).toBe(true);
  });
});
