import type { Request, Response } from 'express';
import type { PreparedBody } from '../readModel/preparedBody';

/** Sends pre-serialized JSON: 304 on a matching `If-None-Match`, else br/gzip/identity as accepted. */
export function sendPrepared(req: Request, res: Response, body: PreparedBody): void {
  res.set('ETag', body.etag);
  res.set('Vary', 'Accept-Encoding');
  res.set('Cache-Control', 'public, max-age=0, must-revalidate');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === body.etag)) {
    res.status(304).end();
    return;
  }
  res.type('application/json');
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    res.set('Content-Encoding', 'br').send(body.brotli());
  } else if (/\bgzip\b/.test(accepted)) {
    res.set('Content-Encoding', 'gzip').send(body.gzip());
  } else {
    res.send(body.json);
  }
}
