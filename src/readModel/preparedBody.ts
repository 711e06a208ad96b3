import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A JSON response body serialized once per data version, with its ETag and its compressed forms
 * made on first use (most clients ask for one encoding only).
 */
export class PreparedBody {
  readonly json: Buffer;
  readonly etag: string;
  private gz: Buffer | undefined;
  private br: Buffer | undefined;

  constructor(value: unknown) {
    this.json = Buffer.from(JSON.stringify(value));
    this.etag = `"${createHash('sha1').update(this.json).digest('base64url')}"`;
  }

  gzip(): Buffer {
    return (this.gz ??= gzipSync(this.json, { level: 6 }));
  }

  brotli(): Buffer {
    return (this.br ??= brotliCompressSync(this.json, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.json.length },
    }));
  }
}
