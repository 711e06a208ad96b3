import { HttpFake, Received, sendJson, sleep, startHttpFake } from './httpFake';

/**
 * A local CoinGecko-shaped price API on 127.0.0.1: `GET /simple/price?ids=a,b&vs_currencies=usd`
 * -> `{ "<id>": { "usd": n } }` and `GET /simple/token_price/<platform>?contract_addresses=a,b&vs_currencies=usd`
 * -> `{ "<lower-case address>": { "usd": n } }`. Like CoinGecko, ids and addresses it does not know
 * are left out of the answer. Prices and faults are switched at run time.
 *
 * Used by the price tests, the price benchmark and the local demo (`npm run demo`).
 */
export type PriceFault =
  /** 429 with a `Retry-After` header (seconds). */
  | { readonly status: 429; readonly retryAfterSeconds: number }
  /** Any 5xx. */
  | { readonly status: 500 | 502 | 503 }
  /** 200 with this JSON, whatever was asked (a provider answering in a shape it should not). */
  | { readonly status: 200; readonly body: unknown };

export interface FakePriceServerOptions {
  /** Coin id -> USD, e.g. `{ ethereum: 2500 }`. */
  readonly coins?: Readonly<Record<string, number>>;
  /** Platform -> address -> USD. */
  readonly tokens?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Price for any address not set explicitly; `syntheticPrice` prices every address. */
  readonly defaultTokenPrice?: (platform: string, address: string) => number | undefined;
  /** When set, requests without this key in `x-cg-demo-api-key` / `x-cg-pro-api-key` get 401. */
  readonly apiKey?: string;
}

export interface FakePriceServer extends HttpFake {
  setCoinPrice(id: string, usd: number): void;
  setTokenPrice(platform: string, address: string, usd: number): void;
  /** Addresses the provider pretends not to know (left out of answers, even with a default price). */
  readonly unknown: Set<string>;
  /** The next `times` requests (of any path) answer with `fault`. */
  failNext(fault: PriceFault, times?: number): void;
  /** Every request waits this long before it is answered. */
  delayMs: number;
  /** Requests received so far (including failed ones). */
  requestCount(): number;
  /** `/simple/token_price` requests received so far. */
  tokenRequests(): Received[];
  /** Contract addresses asked for, over all token requests. */
  addressesRequested(): string[];
  /** Forgets faults, delay, unknown tokens and the request log (prices stay). */
  reset(): void;
}

/** A deterministic price in [1, 1001) USD derived from the address, for "price every token" runs. */
export function syntheticPrice(address: string): number {
  const n = parseInt(address.toLowerCase().replace(/^0x/, '').slice(0, 8) || '0', 16) % 100_000;
  return 1 + n / 100;
}

export async function startFakePriceServer(options: FakePriceServerOptions = {}): Promise<FakePriceServer> {
  const coins = new Map(Object.entries(options.coins ?? { ethereum: 2500 }));
  const tokens = new Map<string, Map<string, number>>();
  for (const [platform, prices] of Object.entries(options.tokens ?? {})) {
    tokens.set(platform, new Map(Object.entries(prices).map(([a, p]) => [a.toLowerCase(), p])));
  }
  const unknown = new Set<string>();
  const faults: PriceFault[] = [];
  const state = { delayMs: 0 };

  const tokenPrice = (platform: string, address: string): number | undefined => {
    if (unknown.has(address)) return undefined;
    return tokens.get(platform)?.get(address) ?? options.defaultTokenPrice?.(platform, address);
  };

  const fake = await startHttpFake(async (req, res) => {
    if (state.delayMs > 0) await sleep(state.delayMs);
    const fault = faults.shift();
    if (fault?.status === 429)
      return sendJson(
        res,
        429,
        { status: { error_code: 429, error_message: "You've exceeded the Rate Limit." } },
        { 'retry-after': String(fault.retryAfterSeconds) },
      );
    if (fault?.status === 200) return sendJson(res, 200, fault.body);
    if (fault) return sendJson(res, fault.status, { error: 'fake price server fault' });
    if (
      options.apiKey !== undefined &&
      req.headers['x-cg-demo-api-key'] !== options.apiKey &&
      req.headers['x-cg-pro-api-key'] !== options.apiKey
    ) {
      return sendJson(res, 401, { status: { error_code: 10002, error_message: 'API key missing or invalid' } });
    }
    const url = new URL(req.url, 'http://fake');
    if (url.searchParams.get('vs_currencies') !== 'usd')
      return sendJson(res, 400, { error: 'vs_currencies must be usd' });
    if (url.pathname === '/simple/price') {
      const out: Record<string, { usd: number }> = {};
      for (const id of (url.searchParams.get('ids') ?? '').split(',')) {
        const usd = coins.get(id);
        if (usd !== undefined) out[id] = { usd };
      }
      return sendJson(res, 200, out);
    }
    const m = /^\/simple\/token_price\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const platform = decodeURIComponent(m[1]!);
      const out: Record<string, { usd: number }> = {};
      for (const raw of (url.searchParams.get('contract_addresses') ?? '').split(',')) {
        const address = raw.trim().toLowerCase();
        const usd = address ? tokenPrice(platform, address) : undefined;
        if (usd !== undefined) out[address] = { usd };
      }
      return sendJson(res, 200, out);
    }
    return sendJson(res, 404, { error: `no such path ${url.pathname}` });
  });

  const tokenRequests = () => fake.received.filter((r) => r.url.startsWith('/simple/token_price/'));
  return {
    ...fake,
    unknown,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    setCoinPrice: (id, usd) => void coins.set(id, usd),
    setTokenPrice: (platform, address, usd) => {
      let m = tokens.get(platform);
      if (!m) tokens.set(platform, (m = new Map()));
      m.set(address.toLowerCase(), usd);
    },
    failNext: (fault, times = 1) => {
      for (let i = 0; i < times; i += 1) faults.push(fault);
    },
    requestCount: () => fake.received.length,
    tokenRequests,
    addressesRequested: () =>
      tokenRequests().flatMap((r) =>
        (new URL(r.url, 'http://fake').searchParams.get('contract_addresses') ?? '').split(',').filter(Boolean),
      ),
    reset: () => {
      faults.length = 0;
      state.delayMs = 0;
      unknown.clear();
      fake.received.length = 0;
    },
  };
}
