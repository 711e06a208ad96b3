import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { errorBody } from '../errors';
import { isJobPath } from './requestClass';

/**
 * With `JOBS_SECRET` set, the public job endpoints (`POST /pools/{chainId}/update`,
 * `POST /tokens/update/`) need `Authorization: Bearer <secret>`, so a public deployment cannot be
 * made to hammer its upstreams. Both sides are hashed first so the comparison takes the same time
 * whatever the length or content of the guess.
 */
const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

export function jobsAuth(secret: string | undefined): RequestHandler {
  if (!secret) return (_req, _res, next) => next();
  const expected = digest(secret);
  return (req, res, next) => {
    if (!isJobPath(req.path)) return next();
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    if (m && timingSafeEqual(digest(m[1] as string), expected)) return next();
    res
      .status(401)
      .set('WWW-Authenticate', 'Bearer realm="jobs"')
      .json(
        errorBody(
          401,
          `${m ? 'wrong job secret' : 'missing job secret'}: job endpoints need the header 'Authorization: Bearer <JOBS_SECRET>'`,
        ),
      );
  };
}
