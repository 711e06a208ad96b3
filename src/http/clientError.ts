import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log/logger';
import { errorBody, HttpError } from './errors';

/**
 * `server.on('clientError', answerClientError(logger))`: what Node's HTTP parser refuses before a
 * request reaches the app (headers over Node's limit, malformed HTTP, a request not received in
 * time) is answered like every other error, as `{"error","code"}` JSON, instead of Node's bare
 * status line with an empty body. The connection is closed: the parser cannot go on with it.
 */
export function answerClientError(logger: Logger): (err: Error & { code?: string }, socket: Duplex) => void {
  return (err, socket) => {
    // The client is gone, or an answer already started on this connection: nothing can be said.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] = describe(err);
    logger.warn({ code: err.code, status }, 'client error before the app');
    const body = JSON.stringify(errorBody(status, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Access-Control-Allow-Origin: *\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
    // As Node does after its own answer: write, then close.
    socket.destroy();
  };
}

function describe(err: Error & { code?: string }): [number, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        `request headers too large (limit ${maxHeaderSize} bytes in all); send fewer or shorter headers (cookies, tokens)`,
      ];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'chunk extensions too large; send the body without chunk extensions'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request was not received in full in time; send its headers and body without pausing'];
    default:
      return [400, `malformed HTTP request (${err.code ?? err.message}); send a valid HTTP/1.1 request`];
  }
}

/**
 * `server.on('checkExpectation', answerExpectation(logger))`: an `Expect` header other than
 * `100-continue` is refused with 417 as HTTP asks, but as JSON naming the header (Node's own
 * answer is a bare status line).
 */
export function answerExpectation(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const expect = String(req.headers.expect ?? '').slice(0, 100);
    logger.warn({ expect, status: 417 }, 'client error before the app');
    const body = JSON.stringify(
      errorBody(
        417,
        `Expect: ${expect} is not supported (only Expect: 100-continue is); send the request without that header`,
      ),
    );
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Access-Control-Allow-Origin': '*',
      Connection: 'close',
    });
    res.end(body);
  };
}

/**
 * HTTP/1.1 requires a Host header. The server is created with Node's own check off
 * (`requireHostHeader: false`), which answered a bare 400 with an empty body, and this one
 * answers it as JSON.
 */
export const requireHostHeader: RequestHandler = (req, _res, next) => {
  if (req.httpVersion !== '1.1' || req.headers.host) return next();
  throw new HttpError(400, 'missing Host header; HTTP/1.1 requests must send one (Host: <the name of this service>)', {
    Connection: 'close',
  });
};
