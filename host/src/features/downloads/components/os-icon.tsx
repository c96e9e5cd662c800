import type { OperatingSystem } from '@portal/contract';

const ICON_SIZE = 20;

/** Decorative: the OS label next to it carries the meaning. */
export function OsIcon({ os }: { os: OperatingSystem }) {
  return (
    <svg
      width={ICON_SIZE}
      height={ICON_SIZE}
      viewBox="0 0 24 24"
      fill="currentColor"
      aria-hidden="true"
      focusable="false"
      data-os-icon={os}
    >
      {os === 'windows' ? <WindowsGlyph /> : <AppleGlyph />}
    </svg>
  );
}

function WindowsGlyph() {
  return (
    <>
      <path d="M2 4.6 10.2 3.5v7.8H2z" />
      <path d="M11.4 3.3 22 1.9v9.4H11.4z" />
      <path d="M2 12.7h8.2v7.8L2 19.4z" />
      <path d="M11.4 12.7H22v9.4l-10.6-1.4z" />
    </>
  );
}

function AppleGlyph() {
  return (
    <>
      <path d="M16.4 12.7c0-2.3 1.9-3.4 2-3.5-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.1-2.8.9-3.5.9-.7 0-1.8-.8-3-.8-1.5 0-3 .9-3.8 2.3-1.6 2.8-.4 7 1.2 9.3.8 1.1 1.7 2.4 2.9 2.3 1.2 0 1.6-.7 3-.7s1.8.7 3 .7c1.3 0 2.1-1.1 2.8-2.3.9-1.3 1.3-2.6 1.3-2.6s-2.5-1-2.5-3.8z" />
      <path d="M14.1 5.8c.6-.8 1.1-1.9 1-3-.9 0-2.1.6-2.7 1.4-.6.7-1.1 1.8-1 2.9 1 .1 2.1-.5 2.7-1.3z" />
    </>
  );
}
