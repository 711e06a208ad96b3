import { Router } from 'express';
import { HttpError } from '../http/errors';
import { REASONS } from '../http/errorReasons';
import { UpstreamError } from '../sources/upstream';
import type { ScreeningCache } from './screeningCache';
import { parseWalletAddress } from './walletAddress';

/**
 * `GET /check-wallet?address=0x...` answers `{"is_blocked": bool}` as the old API did. When the
 * check cannot run (no key, provider down or slow) the answer is a 503, never `false`.
 */
export function checkWalletRouter(cache: ScreeningCache | undefined): Router {
  const r = Router();
  r.get('/check-wallet', async (req, res) => {
    const parsed = parseWalletAddress(req.query.address);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    if (!cache)
      throw new HttpError(
        503,
        'sanctions screening is not configured on this deployment (SANCTIONS_API_KEY is not set); the address was not checked',
        {},
        { reason: REASONS.NOT_CONFIGURED },
      );
    let blocked: boolean;
    try {
      blocked = await cache.isBlocked(parsed.address);
    } catch (e) {
      req.log.warn({ err: (e as Error).message }, 'sanctions check failed');
      // The provider's HTTP status helps the caller; its address and answer stay in our logs.
      const detail =
        e instanceof UpstreamError && e.status !== undefined
          ? `provider answered HTTP ${e.status}`
          : 'no usable answer from the provider';
      throw new HttpError(
        503,
        `unable to perform sanctions check (${detail}); the address was not screened, retry later`,
        { 'Retry-After': '5' },
        { reason: REASONS.UPSTREAM_FAILED },
      );
    }
    res.set('Cache-Control', 'no-store').json({ is_blocked: blocked });
  });
  return r;
}
