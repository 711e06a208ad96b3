import type { Request, Response } from 'express';
import type { PreparedBody } from '../readModel/preparedBody';

/** Sends a prepared body: 304 on a matching `If-None-Match`, else br/gzip/identity as accepted. */
export async function sendPrepared(req: Request, res: Response, body: PreparedBody): Promise<void> {
  res.set('ETag', body.etag);
  res.vary('Accept-Encoding');
  res.set('Cache-Control', 'public, max-age=0, must-revalidate');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === body.etag)) {
    res.status(304).end();
    return;
  }
  res.type(body.contentType);
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    res.set('Content-Encoding', 'br').send(await body.brotli());
  } else if (/\bgzip\b/.test(accepted)) {
    res.set('Content-Encoding', 'gzip').send(await body.gzip());
  } else {
    res.send(body.bytes);
  }
}
