/**
 * The human message inside a simulator error answer. Tenderly answers
 * `{"error": {"id", "slug", "message"}}`; plainer shapes are accepted too.
 */
export function upstreamMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as { error?: unknown; message?: unknown };
  if (typeof b.error === 'object' && b.error !== null) {
    const e = b.error as { message?: unknown; slug?: unknown };
    if (typeof e.message === 'string' && e.message !== '') return e.message.slice(0, 500);
    if (typeof e.slug === 'string') return e.slug.slice(0, 500);
  }
  if (typeof b.error === 'string' && b.error !== '') return b.error.slice(0, 500);
  if (typeof b.message === 'string' && b.message !== '') return b.message.slice(0, 500);
  return undefined;
}
