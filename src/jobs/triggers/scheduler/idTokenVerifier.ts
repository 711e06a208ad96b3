import { OAuth2Client } from 'google-auth-library';

/**
 * The one place that talks to Google's token-signing certificates. Verification checks the
 * signature against Google's published keys, the issuer, the expiry and the audience; which
 * account may call what is decided by the caller of `verify`.
 */
export interface VerifiedIdToken {
  readonly email: string | undefined;
  readonly emailVerified: boolean;
  readonly subject: string | undefined;
}

/** Why a token was refused, in words safe to send back (never the token itself). */
export class IdTokenRejected extends Error {
  override readonly name: string = 'IdTokenRejected';
}

/** The token could not be checked at all (certificates unreachable): the caller should retry. */
export class IdTokenCheckUnavailable extends Error {
  override readonly name: string = 'IdTokenCheckUnavailable';
}

export interface IdTokenVerifier {
  verify(idToken: string, audience: string): Promise<VerifiedIdToken>;
}

export class GoogleIdTokenVerifier implements IdTokenVerifier {
  private readonly client: OAuth2Client;

  /** `certsUrl` serves `{kid: PEM}` like https://www.googleapis.com/oauth2/v1/certs. */
  constructor(certsUrl: string) {
    this.client = new OAuth2Client({
      endpoints: { oauth2FederatedSignonPemCertsUrl: certsUrl },
      // Node's own fetch: without it gaxios imports node-fetch with a dynamic import(), which
      // CommonJS hosts such as the test runner cannot load.
      transporterOptions: { fetchImplementation: fetch },
    });
  }

  async verify(idToken: string, audience: string): Promise<VerifiedIdToken> {
    let payload;
    try {
      const ticket = await this.client.verifyIdToken({ idToken, audience });
      payload = ticket.getPayload();
    } catch (e) {
      const message = (e as Error).message;
      if (message.startsWith('Failed to retrieve verification certificates')) {
        throw new IdTokenCheckUnavailable("Google's token-signing certificates could not be fetched; retry later");
      }
      throw new IdTokenRejected(describeRejection(message, audience));
    }
    if (!payload) throw new IdTokenRejected('the token has no payload');
    return { email: payload.email, emailVerified: payload.email_verified === true, subject: payload.sub };
  }
}

/** The library's messages embed the token; keep only the reason. */
function describeRejection(message: string, audience: string): string {
  if (message.startsWith('Token used too late')) return 'the token has expired; request a fresh one';
  if (message.startsWith('Token used too early')) return 'the token is not valid yet (issued in the future)';
  if (message.startsWith('Expiration time too far')) return 'the token lives longer than Google ID tokens may';
  if (message.startsWith('Wrong recipient'))
    return `the token's audience is not this service; use audience ${audience}`;
  if (message.startsWith('Invalid issuer')) return 'the token was not issued by accounts.google.com';
  if (message.startsWith('Invalid token signature') || message.startsWith('No pem found')) {
    return "the token is not signed by one of Google's current keys";
  }
  return 'the token is not a well-formed Google ID token';
}
