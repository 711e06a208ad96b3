import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google's token-signing certificate endpoint (`{kid: PEM}`), plus a signer
 * that issues ID tokens shaped like the ones Cloud Scheduler and Cloud Tasks send.
 */
export interface LocalGoogleIssuer {
  readonly certsUrl: string;
  /** Requests the certificate endpoint has answered. */
  readonly certRequests: () => number;
  signIdToken(claims: IdTokenClaims, options?: { key?: KeyObject; kid?: string; alg?: string }): string;
  /** A key pair whose public half the endpoint does not publish (a forger's key). */
  readonly foreignKey: KeyObject;
  close(): Promise<void>;
}

export interface IdTokenClaims {
  readonly aud: string;
  readonly email?: string;
  readonly emailVerified?: boolean;
  readonly iss?: string;
  /** Unix seconds; default now and now + 1 h, as Google issues them. */
  readonly iat?: number;
  readonly exp?: number;
}

const b64url = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

export async function startLocalGoogleIssuer(): Promise<LocalGoogleIssuer> {
  const kid = 'local-test-key';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  let requests = 0;
  const server: Server = createServer((_req, res) => {
    requests += 1;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ [kid]: publicKey.export({ type: 'spki', format: 'pem' }) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    certsUrl: `http://127.0.0.1:${port}/oauth2/v1/certs`,
    certRequests: () => requests,
    foreignKey: foreign,
    signIdToken(claims, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const alg = options.alg ?? 'RS256';
      const header = { alg, kid: options.kid ?? kid, typ: 'JWT' };
      const payload = {
        iss: claims.iss ?? 'https://accounts.google.com',
        aud: claims.aud,
        azp: '100000000000000000001',
        sub: '100000000000000000001',
        ...(claims.email !== undefined ? { email: claims.email, email_verified: claims.emailVerified ?? true } : {}),
        iat: claims.iat ?? now,
        exp: claims.exp ?? now + 3600,
      };
      const signingInput = `${b64url(header)}.${b64url(payload)}`;
      const signature =
        alg === 'none'
          ? ''
          : sign('sha256', Buffer.from(signingInput), options.key ?? privateKey).toString('base64url');
      return `${signingInput}.${signature}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
