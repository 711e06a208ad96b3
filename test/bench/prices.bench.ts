import type { Address } from '../../src/domain/address';
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/env';
import type { StoredToken } from '../../src/domain/pool';
import { updatePrices } from '../../src/jobs/updatePrices';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import { startFakePriceServer, syntheticPrice } from '../fakes/priceServer';
import { figure } from './lib/report';

const TOKENS = 2_000;

/**
 * One price run over 2,000 tokens of one chain against the local price server (batches of 50, no
 * rate limit: this measures our side), then a second run with every price moved. The default
 * free-tier pacing (25 requests a minute) is printed as what the same run costs against CoinGecko.
 */
export async function run(): Promise<void> {
  const fake = await startFakePriceServer({
    coins: { ethereum: 2500 },
    defaultTokenPrice: (_p, a) => syntheticPrice(a),
  });
  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-prices-'));
  const store = new SqliteStore(join(dir, 'bench.sqlite'), 0);
  try {
    const tokens: StoredToken[] = Array.from({ length: TOKENS }, (_, i) => ({
      address: `0x${createHash('sha256').update(`price-bench:${i}`).digest('hex').slice(0, 40)}` as Address,
      symbol: `T${i}`,
      name: null,
      decimals: 18,
      price: null,
      priceUsd: null,
      lastUpdate: null,
      noPriceData: false,
    }));
    await store.commit(1, { tokens, bumpTokensVersion: true });
    const config = loadConfig({
      NETWORKS: '1',
      DATA_DIR: dir,
      PRICE_API_URL: fake.url,
      PRICE_REQUESTS_PER_MINUTE: '1000000',
      PRICE_FRESHNESS_SECONDS: '0',
    });
    const ctx = await createContext(config, { store, logger: silentLogger() });

    const t0 = performance.now();
    const first = await updatePrices(ctx);
    const firstS = (performance.now() - t0) / 1000;
    const c = first.chains[0]!;
    process.stdout.write(`${c.tokens} tokens: ${c.priced} priced, ${c.changed} written, ${first.requests} requests\n`);
    figure('price run, 2,000 tokens, first prices', firstS, 's');

    fake.setCoinPrice('ethereum', 2600);
    const t1 = performance.now();
    const second = await updatePrices(ctx);
    figure(
      `price run, 2,000 tokens, all moved (${second.chains[0]!.changed} written)`,
      (performance.now() - t1) / 1000,
      's',
    );

    const requests = 1 + Math.ceil(TOKENS / loadConfig({}).prices.batchSize);
    figure(
      `same run at the default ${loadConfig({}).prices.requestsPerMinute} requests/min (${requests} requests)`,
      ((requests - 1) * 60) / loadConfig({}).prices.requestsPerMinute,
      's',
    );
  } finally {
    await store.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
