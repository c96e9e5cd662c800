import { openLaunchLink, type LaunchWindow } from '../open-launch-link';

function fakeWindow() {
  const calls: string[] = [];
  const win: LaunchWindow = {
    open: (url, target, features) => calls.push(`open ${url} ${target} ${features}`),
    location: { assign: (url) => void calls.push(`assign ${url}`) },
  };
  return { win, calls };
}

describe('opening the launch link', () => {
  it('opens the browser simulator in a new tab', () => {
    const { win, calls } = fakeWindow();
    openLaunchLink('http://localhost:8090/launch?token=t', win);
    expect(calls).toEqual(['open http://localhost:8090/launch?token=t _blank noopener']);
  });

  it('hands an app URL scheme to the operating system from this page', () => {
    const { win, calls } = fakeWindow();
    openLaunchLink('vmc-radiography://launch?token=t&session=s', win);
    expect(calls).toEqual(['assign vmc-radiography://launch?token=t&session=s']);
  });
});
