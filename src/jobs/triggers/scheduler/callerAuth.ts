import type { RequestHandler } from 'express';
import { HttpError, NotConfigured } from '../../../http/errors';
import { IdTokenCheckUnavailable, IdTokenRejected, IdTokenVerifier } from './idTokenVerifier';

/** Who may call the internal job endpoints: tokens for `audience` on behalf of one of `accounts`. */
export interface CallerPolicy {
  readonly audience: string;
  readonly accounts: readonly string[];
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/**
 * Lets a request through only with a Google-signed ID token for this service from an allowed
 * service account: 401 when the token is missing or not valid for us, 403 when it is valid but
 * belongs to another account, 503 when the endpoints are not configured.
 */
export function requireGoogleCaller(verifier: IdTokenVerifier, policy: CallerPolicy | string): RequestHandler {
  return async (req, _res, next) => {
    if (typeof policy === 'string') throw new NotConfigured(policy);
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) {
      throw new HttpError(
        401,
        'missing Authorization: Bearer <Google ID token>; internal job endpoints are called by Cloud Scheduler and Cloud Tasks with an OIDC token',
        CHALLENGE,
      );
    }
    let caller;
    try {
      caller = await verifier.verify(match[1] as string, policy.audience);
    } catch (e) {
      if (e instanceof IdTokenRejected) throw new HttpError(401, `ID token refused: ${e.message}`, CHALLENGE);
      if (e instanceof IdTokenCheckUnavailable) throw new HttpError(503, e.message, { 'Retry-After': '10' });
      throw e;
    }
    if (!caller.email || !caller.emailVerified || !policy.accounts.includes(caller.email)) {
      throw new HttpError(
        403,
        `account ${caller.email ?? '(no email in token)'} may not run internal jobs; allowed: ${policy.accounts.join(', ')}`,
      );
    }
    req.log?.debug({ caller: caller.email }, 'internal job caller verified');
    next();
  };
}
