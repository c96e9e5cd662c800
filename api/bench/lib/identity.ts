import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

const KID = 'bench-key';
const CLIENT_ID = 'frontend';

/**
 * Stands in for the identity provider: serves a JWKS at the Keycloak path the API fetches keys
 * from, and signs Keycloak-shaped access tokens (docs/architecture.md) for the bench's users.
 */
export class BenchIdentity {
  private constructor(
    private readonly server: Server,
    private readonly privateKey: CryptoKey,
    readonly issuer: string,
  ) {}

  static async start(): Promise<BenchIdentity> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    const keys = JSON.stringify({ keys: [jwk] });
    const server = createServer((req, res) => {
      if (req.url === '/realms/main/protocol/openid-connect/certs') {
        res.setHeader('content-type', 'application/json');
        res.end(keys);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new BenchIdentity(server, privateKey, `http://127.0.0.1:${port}/realms/main`);
  }

  /** Valid for the whole run, so no learner ever has to refresh mid-measurement. */
  async token(sub: string, email: string, ttlSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      azp: CLIENT_ID,
      typ: 'Bearer',
      sid: randomBytes(8).toString('hex'),
      scope: 'openid profile email',
      email,
      realm_access: { roles: ['default-roles-main'] },
    })
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(this.issuer)
      .setAudience('account')
      .setIssuedAt(now - 5)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.privateKey);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
