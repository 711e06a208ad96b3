import type { Request, Response } from 'express';
import type { GraphiQLOptions } from 'graphql-yoga';
import { sendPrepared } from '../http/sendPrepared';
import { PreparedBody } from '../readModel/preparedBody';

/**
 * GraphiQL for browsers, working offline: the page comes from @graphql-yoga/render-graphiql, which
 * inlines GraphiQL's scripts, styles and editor workers (Yoga's default page loads them from a
 * CDN). The page is ~9 MB, so it is rendered and compressed once, on first use, and then served
 * with an ETag.
 */
export class GraphiqlPage {
  private body: PreparedBody | undefined;

  constructor(private readonly options: GraphiQLOptions) {}

  async send(req: Request, res: Response): Promise<void> {
    res.vary('Accept');
    // The page runs inline scripts and blob: workers; allow exactly that, and talking to this origin.
    res.set(
      'Content-Security-Policy',
      "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob:; style-src 'unsafe-inline'; " +
        "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    await sendPrepared(req, res, this.render());
  }

  private render(): PreparedBody {
    if (!this.body) {
      // Loaded on first use: the module is a 9 MB string, not worth holding for API-only traffic.
      const { renderGraphiQL } =
        require('@graphql-yoga/render-graphiql') as typeof import('@graphql-yoga/render-graphiql');
      this.body = new PreparedBody(Buffer.from(renderGraphiQL(this.options)), 'text/html; charset=utf-8');
    }
    return this.body;
  }
}

/** A browser navigating to the endpoint (Yoga's own rule: a GET that accepts HTML). */
export function wantsGraphiql(req: Request): boolean {
  return (
    req.method === 'GET' &&
    req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) === 'text/html'
  );
}
