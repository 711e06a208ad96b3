import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';
import type { GraphiQLOptions } from 'graphql-yoga';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * GraphiQL for browsers, working offline: the page comes from @graphql-yoga/render-graphiql, which
 * inlines GraphiQL's scripts, styles and editor workers (Yoga's default page loads them from a
 * CDN). The page is ~9 MB, so it is rendered and compressed once, on first use, and then served
 * with an ETag.
 */
export class GraphiqlPage {
  private html: Buffer | undefined;
  private etag = '';
  private gz: Promise<Buffer> | undefined;
  private br: Promise<Buffer> | undefined;

  constructor(private readonly options: GraphiQLOptions) {}

  async send(req: Request, res: Response): Promise<void> {
    const html = this.render();
    res.set('ETag', this.etag);
    res.set('Vary', 'Accept, Accept-Encoding');
    res.set('Cache-Control', 'public, max-age=0, must-revalidate');
    // The page runs inline scripts and blob: workers; allow exactly that, and talking to this origin.
    res.set(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob:; style-src 'unsafe-inline'; " +
        "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === this.etag)) {
      res.status(304).end();
      return;
    }
    res.type('text/html; charset=utf-8');
    const accepted = String(req.headers['accept-encoding'] ?? '');
    // Compressing 9 MB takes a while: zlib's thread pool does it, the event loop keeps serving.
    if (/\bbr\b/.test(accepted)) {
      this.br ??= brotliAsync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: html.length } });
      res.set('Content-Encoding', 'br').send(await this.br);
    } else if (/\bgzip\b/.test(accepted)) {
      this.gz ??= gzipAsync(html, { level: 6 });
      res.set('Content-Encoding', 'gzip').send(await this.gz);
    } else {
      res.send(html);
    }
  }

  private render(): Buffer {
    if (!this.html) {
      // Loaded on first use: the module is a 9 MB string, not worth holding for API-only traffic.
      const { renderGraphiQL } = require('@graphql-yoga/render-graphiql') as typeof import('@graphql-yoga/render-graphiql');
      this.html = Buffer.from(renderGraphiQL(this.options));
      this.etag = `"${createHash('sha1').update(this.html).digest('base64url')}"`;
    }
    return this.html;
  }
}

/** A browser navigating to the endpoint (Yoga's own rule: a GET that accepts HTML). */
export function wantsGraphiql(req: Request): boolean {
  return req.method === 'GET' && req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) === 'text/html';
}
