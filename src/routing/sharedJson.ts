/**
 * Values handed to quote threads as JSON in SharedArrayBuffers: a task that carries one costs no
 * copy, and each thread decodes it once per key.
 */

export function encodeShared(value: unknown): SharedArrayBuffer {
  const bytes = Buffer.from(JSON.stringify(value));
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

export function decodeShared<T>(shared: SharedArrayBuffer): T {
  // TextDecoder refuses views on shared memory; copy once into an ordinary buffer.
  return JSON.parse(Buffer.from(new Uint8Array(shared)).toString('utf8')) as T;
}
