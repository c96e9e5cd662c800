import type { CreatedSession } from '@portal/contract';
import { buildLaunchLink, canBuildLaunchLink, type LaunchLinkSource } from '../launch-link';

const session: CreatedSession = { token: 'tok en', uuid: '0b6f2c3e-8a41-4d5b-9c7e-2f1a3b4c5d6e' };
const radiography = {
  id: 1,
  protocol: 'vmc-radiography',
  launchProtocols: ['vmc-radiography', 'vmc-radiography-vr'],
};
const birthing = { id: 3, protocol: 'vmc-birthing', launchProtocols: ['vmc-birthing'] };

/** A product record whose own (and only) scheme is `protocol`. */
const record = (id: number, protocol: string) => ({ id, protocol, launchProtocols: [protocol] });
const app = (product: LaunchLinkSource['product'], protocol: string | null = null) =>
  ({ simulatorUrl: null, product, protocol }) satisfies LaunchLinkSource;
const web = (simulatorUrl: string, protocol: string | null = null) =>
  ({ simulatorUrl, product: radiography, protocol }) satisfies LaunchLinkSource;

describe('the launch link', () => {
  it("opens the installed app through the product record's own scheme, with token and session", () => {
    expect(buildLaunchLink(app(birthing), session)).toEqual({
      href: `vmc-birthing://launch?token=tok+en&session=${session.uuid}`,
      kind: 'app',
    });
    expect(canBuildLaunchLink(app(birthing))).toBe(true);
    expect(buildLaunchLink(app(birthing, 'vmc-birthing'), session)?.href).toBe(
      `vmc-birthing://launch?token=tok+en&session=${session.uuid}`,
    );
  });

  it("opens the app through an alternative scheme on the product's allow-list when the launch asks for it", () => {
    expect(buildLaunchLink(app(radiography, 'vmc-radiography-vr'), session)).toEqual({
      href: `vmc-radiography-vr://launch?token=tok+en&session=${session.uuid}`,
      kind: 'app',
    });
    expect(canBuildLaunchLink(app(radiography, 'vmc-radiography-vr'))).toBe(true);
  });

  it.each(['http://simulator.test', 'http://simulator.test/', 'https://sim.example:8443/'])(
    'goes to the configured browser simulator %s with the token',
    (simulatorUrl) => {
      const link = buildLaunchLink(web(simulatorUrl), session);
      expect(link?.kind).toBe('web');
      expect(new URL(link!.href).origin).toBe(new URL(simulatorUrl).origin);
      expect(link!.href).toBe(`${simulatorUrl.replace(/\/$/, '')}/launch?token=tok+en`);
    },
  );

  it('drops an empty query or fragment left in the configured simulator URL', () => {
    expect(buildLaunchLink(web('https://simulator.test/?'), session)?.href).toBe(
      'https://simulator.test/launch?token=tok+en',
    );
    expect(buildLaunchLink(web('https://simulator.test/#'), session)?.href).toBe(
      'https://simulator.test/launch?token=tok+en',
    );
  });

  it('keeps a path the simulator is served under', () => {
    expect(buildLaunchLink(web('https://cdn.example/sim/'), session)?.href).toBe(
      'https://cdn.example/sim/launch?token=tok+en',
    );
  });

  describe('refuses', () => {
    it.each([
      ['javascript:', 'javascript'],
      ['javascript: with the attack URL tail', 'javascript:alert(document.domain)//'],
      ['data:', 'data'],
      ['vbscript:', 'vbscript'],
      ['file:', 'file'],
      ['blob:', 'blob'],
      ['about:', 'about'],
      ['http: as an app scheme', 'http'],
      ['https: as an app scheme', 'https'],
      ['another origin in the protocol', 'https://attacker.example/c?x='],
      ['upper case', 'JavaScript'],
      ['upper case app scheme', 'VMC-Radiography'],
      ['leading white space', ' javascript'],
      ['trailing white space', 'vmc-radiography '],
      ['a tab inside', 'java\tscript'],
      ['a new line inside', 'vmc-radiography\n'],
      ['a leading digit', '1vmc'],
      ['an empty scheme', ''],
      ['a colon', 'vmc-radiography:'],
    ])('%s as the product scheme', (_name, protocol) => {
      const source = app(record(9, protocol));
      expect(buildLaunchLink(source, session)).toBeNull();
      expect(canBuildLaunchLink(source)).toBe(false);
    });

    it.each([
      ['javascript:', 'javascript:alert(document.domain)//'],
      ['javascript', 'javascript'],
      ['another origin', 'https://attacker.example/c?x='],
      ['https', 'https'],
      ["another product's scheme", 'vmc-birthing'],
      ['an unknown scheme', 'vmc-other'],
      ['an allowed scheme in other case', 'VMC-Radiography-VR'],
      ['an allowed scheme with white space', 'vmc-radiography-vr '],
      ['an allowed scheme with its colon', 'vmc-radiography-vr:'],
      ['an empty scheme', ''],
    ])(
      "%s asked for by the launch, outside the product's allow-list (with or without a browser simulator)",
      (_name, protocol) => {
        for (const source of [app(radiography, protocol), web('http://simulator.test', protocol)]) {
          expect(buildLaunchLink(source, session)).toBeNull();
          expect(canBuildLaunchLink(source)).toBe(false);
        }
      },
    );

    it('a browser scheme asked for, even when a product record lists it', () => {
      const tampered = {
        ...radiography,
        launchProtocols: [...radiography.launchProtocols, 'javascript'],
      };
      expect(buildLaunchLink(app(tampered, 'javascript'), session)).toBeNull();
      expect(canBuildLaunchLink(app(tampered, 'javascript'))).toBe(false);
    });

    it("the product's own scheme when its record does not list it", () => {
      const unlisted = { ...radiography, launchProtocols: ['vmc-radiography-vr'] };
      expect(buildLaunchLink(app(unlisted), session)).toBeNull();
    });

    it.each([
      ['javascript:', 'javascript:alert(document.domain)//'],
      ['data:', 'data:text/html,<script>alert(1)</script>'],
      ['vbscript:', 'vbscript:msgbox(1)'],
      ['file:', 'file:///etc/passwd'],
      ['an app scheme', 'vmc-radiography://launch'],
      ['a relative URL', '/simulator'],
      ['credentials', 'https://user:pass@attacker.example'],
      ['a query that would swallow the token', 'https://attacker.example/c?x='],
      ['a fragment that would hide the path', 'https://simulator.test/#x'],
    ])('%s as the configured simulator', (_name, simulatorUrl) => {
      expect(buildLaunchLink(web(simulatorUrl), session)).toBeNull();
      expect(canBuildLaunchLink(web(simulatorUrl))).toBe(false);
    });
  });

  it('ignores the product scheme when a browser simulator is configured', () => {
    const source = { ...web('http://simulator.test'), product: record(9, 'javascript') };
    expect(buildLaunchLink(source, session)?.href).toBe(
      'http://simulator.test/launch?token=tok+en',
    );
  });

  it('goes to the browser simulator when the launch asks for an allowed alternative scheme', () => {
    expect(buildLaunchLink(web('http://simulator.test', 'vmc-radiography-vr'), session)?.href).toBe(
      'http://simulator.test/launch?token=tok+en',
    );
  });
});
