import Big from 'big.js';
import { toPlainDecimal } from '../../domain/decimal';
import { requestJson, RetryPolicy, UpstreamError } from '../upstream';
import { RequestGate } from './requestGate';

/**
 * Typed client for a CoinGecko-shaped price API (`/simple/price`, `/simple/token_price/<platform>`).
 * Prices come back as exact decimal strings; addresses and ids the provider does not know are simply
 * absent from the result, which is how CoinGecko itself answers.
 */
export const PRICE_UPSTREAM = 'price API';

export interface PriceClientOptions {
  /** Base URL without trailing slash, e.g. https://api.coingecko.com/api/v3 */
  readonly apiUrl: string;
  readonly apiKey: string | undefined;
  /** Contract addresses per `/simple/token_price` request. */
  readonly batchSize: number;
  readonly requestsPerMinute: number;
  /** Per-attempt timeout; shortened to the time left before the run's deadline. */
  readonly timeoutMs: number;
  /** How the run's deadline is named in errors. */
  readonly deadlineLabel?: string;
}

export interface BatchResult {
  readonly addresses: readonly string[];
  /** Lower-case address -> USD price; absent addresses are unknown to the provider. */
  readonly prices?: ReadonlyMap<string, string>;
  /** Set when the batch could not be fetched (after retries, or the budget ran out). */
  readonly error?: string;
}

export interface PriceClient {
  /** USD price per coin id (the native assets). */
  coinPricesUsd(ids: readonly string[], deadline: number): Promise<Map<string, string>>;
  /** Token USD prices on one platform, fetched batch by batch; one failed batch does not stop the rest. */
  tokenPricesUsd(platform: string, addresses: readonly string[], deadline: number): Promise<BatchResult[]>;
  /** Requests sent (first attempts; retries of one request are not counted). */
  readonly requestsSent: number;
}

/**
 * CoinGecko's Demo (free) plan reads the key from `x-cg-demo-api-key` at api.coingecko.com; paid
 * plans read `x-cg-pro-api-key` and only at pro-api.coingecko.com. The base URL therefore decides
 * the header: a pro host gets the pro header, everything else (public API, proxies, the local fake)
 * the demo header.
 */
export function apiKeyHeader(apiUrl: string): string {
  let host = '';
  try {
    host = new URL(apiUrl).hostname.toLowerCase();
  } catch {
    host = '';
  }
  return host.startsWith('pro-api.') ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';
}

const RETRY: Omit<RetryPolicy, 'deadline'> = { attempts: 6, baseDelayMs: 500, maxDelayMs: 8_000 };

/** A provider price (JSON number or numeric string) -> canonical decimal, or undefined when unusable. */
export function usdFrom(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const usd = (entry as { usd?: unknown }).usd;
  if (typeof usd === 'number') {
    if (!Number.isFinite(usd) || usd <= 0) return undefined;
    // A price is not a token amount: the provider sends a float, and Big keeps its shortest form.
    return toPlainDecimal(new Big(usd).toFixed());
  }
  if (typeof usd === 'string' && /^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(usd.trim())) {
    const plain = toPlainDecimal(usd);
    return plain === '0' ? undefined : plain;
  }
  return undefined;
}

/**
 * CoinGecko answers `{ "<asked id or address>": { "usd": <number> } }`, leaving out what it does not
 * know. Anything else (another key, a value that is not such an object, a price that is not a
 * number) means the provider is not answering the question asked, and the whole answer is refused:
 * reading it as "no price known" would mark every token as unknown.
 */
export function checkPriceAnswer(body: unknown, asked: readonly string[], path: string): Record<string, unknown> {
  const bad = (why: string) =>
    new UpstreamError(
      PRICE_UPSTREAM,
      `answered ${path} with JSON of an unexpected shape (${why}); expected {"<id>": {"usd": <number>}}`,
    );
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad(Array.isArray(body) ? 'an array' : typeof body);
  const wanted = new Set(asked.map((a) => a.toLowerCase()));
  for (const [key, value] of Object.entries(body)) {
    if (!wanted.has(key.toLowerCase())) throw bad(`key '${key.slice(0, 60)}' was not asked for`);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`'${key}' is not an object`);
    const usd = (value as { usd?: unknown }).usd;
    if (
      usd !== undefined &&
      typeof usd !== 'number' &&
      !(typeof usd === 'string' && /^\d+(\.\d+)?([eE][+-]?\d+)?$/.test(usd.trim()))
    ) {
      throw bad(`usd of '${key}' is not a number`);
    }
  }
  return body as Record<string, unknown>;
}

export function createPriceClient(options: PriceClientOptions, clock: () => number = Date.now): PriceClient {
  const gate = new RequestGate(options.requestsPerMinute, clock);
  const headers: Record<string, string> = options.apiKey ? { [apiKeyHeader(options.apiUrl)]: options.apiKey } : {};
  let requestsSent = 0;

  async function get(path: string, asked: readonly string[], deadline: number): Promise<Record<string, unknown>> {
    if (!(await gate.take(deadline)))
      throw new UpstreamError(
        PRICE_UPSTREAM,
        `no time left before ${options.deadlineLabel ?? "the run's deadline"} to start this request`,
      );
    requestsSent += 1;
    const res = await requestJson<unknown>(
      PRICE_UPSTREAM,
      { url: `${options.apiUrl}${path}`, headers, timeoutMs: options.timeoutMs },
      { ...RETRY, deadline, deadlineLabel: options.deadlineLabel },
    );
    return checkPriceAnswer(res.body, asked, path.split('?')[0] ?? path);
  }

  return {
    get requestsSent() {
      return requestsSent;
    },
    async coinPricesUsd(ids, deadline) {
      const unique = [...new Set(ids)];
      const out = new Map<string, string>();
      if (unique.length === 0) return out;
      const body = await get(
        `/simple/price?ids=${unique.map(encodeURIComponent).join(',')}&vs_currencies=usd`,
        unique,
        deadline,
      );
      for (const id of unique) {
        const usd = usdFrom(body[id]);
        if (usd !== undefined) out.set(id, usd);
      }
      return out;
    },
    async tokenPricesUsd(platform, addresses, deadline) {
      const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
      const results: BatchResult[] = [];
      for (let i = 0; i < unique.length; i += options.batchSize) {
        const batch = unique.slice(i, i + options.batchSize);
        try {
          const body = await get(
            `/simple/token_price/${encodeURIComponent(platform)}?contract_addresses=${batch.join(',')}&vs_currencies=usd`,
            batch,
            deadline,
          );
          // CoinGecko keys by lower-case address; accept any case from look-alike providers.
          const byLower = new Map(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v]));
          const prices = new Map<string, string>();
          for (const a of batch) {
            const usd = usdFrom(byLower.get(a));
            if (usd !== undefined) prices.set(a, usd);
          }
          results.push({ addresses: batch, prices });
        } catch (e) {
          if (!(e instanceof UpstreamError)) throw e;
          results.push({ addresses: batch, error: e.message });
        }
      }
      return results;
    },
  };
}
