import { createHash } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The server side of RFC 6455 text messages, enough for a fake node's `eth_subscribe`: the
 * upgrade handshake on an HTTP server's `upgrade` event, masked client text frames in, unmasked
 * text frames out, close and ping answered. No fragmentation or extensions (clients here send
 * small single-frame messages).
 */
export interface WsPeer {
  send(text: string): void;
  /** Drops the connection without a close frame (a node or proxy that went away). */
  destroy(): void;
}

export interface WsHandlers {
  /** Accept the upgrade (false answers 503, as a node with its WebSocket side down). */
  accept(): boolean;
  onMessage(peer: WsPeer, text: string): void;
  onClose(peer: WsPeer): void;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export function serveWebSocket(server: Server, handlers: WsHandlers): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex) => {
    const key = req.headers['sec-websocket-key'];
    if (typeof key !== 'string' || !handlers.accept()) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    const accept = createHash('sha1')
      .update(key + GUID)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    let closed = false;
    const peer: WsPeer = {
      send: (text) => {
        if (!closed) socket.write(frame(0x1, Buffer.from(text, 'utf8')));
      },
      destroy: () => socket.destroy(),
    };
    const gone = () => {
      if (closed) return;
      closed = true;
      handlers.onClose(peer);
    };
    socket.on('close', gone);
    socket.on('error', gone);
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const parsed = readFrame(pending);
        if (!parsed) return;
        pending = pending.subarray(parsed.length);
        if (parsed.opcode === 0x1) handlers.onMessage(peer, parsed.payload.toString('utf8'));
        else if (parsed.opcode === 0x9) socket.write(frame(0xa, parsed.payload));
        else if (parsed.opcode === 0x8) {
          socket.end(frame(0x8, parsed.payload.subarray(0, 2)));
          gone();
          return;
        }
      }
    });
  });
}

function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : Buffer.alloc(4);
  if (n >= 126) {
    if (n > 0xffff) throw new Error('frames over 64 KiB are not supported by this fake');
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  }
  return Buffer.concat([head, payload]);
}

function readFrame(buf: Buffer): { opcode: number; payload: Buffer; length: number } | undefined {
  if (buf.length < 2) return undefined;
  const opcode = buf[0]! & 0x0f;
  const masked = (buf[1]! & 0x80) !== 0;
  let len = buf[1]! & 0x7f;
  let offset = 2;
  if (len === 126) {
    if (buf.length < 4) return undefined;
    len = buf.readUInt16BE(2);
    offset = 4;
  } else if (len === 127) {
    if (buf.length < 10) return undefined;
    len = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskOffset = offset;
  if (masked) offset += 4;
  if (buf.length < offset + len) return undefined;
  const payload = Buffer.from(buf.subarray(offset, offset + len));
  if (masked) for (let i = 0; i < len; i++) payload[i] = payload[i]! ^ buf[maskOffset + (i % 4)]!;
  return { opcode, payload, length: offset + len };
}
