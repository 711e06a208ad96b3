/**
 * The first chain's `follow` object of a test server's `/readyz`, typed by the caller with the
 * fields it reads, and a wait until it says what the test needs.
 */
export async function followStatus<F>(url: string): Promise<F> {
  const body = (await (await fetch(`${url}/readyz`)).json()) as { chains: { follow: F }[] };
  return body.chains[0]!.follow;
}

export async function untilFollow<F>(url: string, what: string, ok: (f: F) => boolean): Promise<F> {
  // A generous cap: a busy CPU slows the polls, never the outcome.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const f = await followStatus<F>(url);
    if (ok(f)) return f;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await followStatus(url))}`);
}
