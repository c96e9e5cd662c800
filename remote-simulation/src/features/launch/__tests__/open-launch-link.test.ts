import type { CreatedSession } from '@portal/contract';
import { buildLaunchLink, type LaunchLink } from '../launch-link';
import { openLaunchLink, type LaunchWindow } from '../open-launch-link';

const session: CreatedSession = { token: 't', uuid: 's' };
const radiography = { id: 1, protocol: 'vmc-radiography', launchProtocols: ['vmc-radiography'] };

function fakeWindow() {
  const calls: string[] = [];
  const win: LaunchWindow = {
    open: (url, target, features) => calls.push(`open ${url} ${target} ${features}`),
    location: { assign: (url) => void calls.push(`assign ${url}`) },
  };
  return { win, calls };
}

function built(simulatorUrl: string | null): LaunchLink {
  const link = buildLaunchLink({ simulatorUrl, product: radiography, protocol: null }, session);
  if (!link) throw new Error('expected a launch link');
  return link;
}

describe('opening the launch link', () => {
  it('opens the browser simulator in a new tab', () => {
    const { win, calls } = fakeWindow();
    openLaunchLink(built('http://localhost:8090'), win);
    expect(calls).toEqual(['open http://localhost:8090/launch?token=t _blank noopener']);
  });

  it('hands an app URL scheme to the operating system from this page', () => {
    const { win, calls } = fakeWindow();
    openLaunchLink(built(null), win);
    expect(calls).toEqual(['assign vmc-radiography://launch?token=t&session=s']);
  });

  it.each<[string, unknown]>([
    ['a plain string', 'javascript:alert(document.domain)//'],
    ['a look-alike object', { href: 'javascript:alert(document.domain)//', kind: 'app' }],
    ['a copy of a built link', { ...built(null) }],
    ['a look-alike web link', { href: 'https://attacker.example/c?x=', kind: 'web' }],
  ])('refuses %s that the link builder did not produce, and opens nothing', (_name, link) => {
    const { win, calls } = fakeWindow();
    expect(() => openLaunchLink(link as LaunchLink, win)).toThrow(/did not build/);
    expect(calls).toEqual([]);
  });

  it('cannot be redirected by changing a built link afterwards', () => {
    const link = built(null);
    expect(() => {
      (link as { href: string }).href = 'javascript:alert(1)';
    }).toThrow(TypeError);
    expect(link.href).toBe('vmc-radiography://launch?token=t&session=s');
  });
});
