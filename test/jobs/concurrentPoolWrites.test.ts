import type { Address } from '../../src/domain/address';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/env';
import type { StoredPool } from '../../src/domain/pool';
import { decoratePools } from '../../src/jobs/decoratePools';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import type { ChainChange, Store } from '../../src/store/Store';
import { storedPool } from '../helpers/poolFixtures';

/**
 * Pool update and decoration hold different leases and run on the same schedule, so they overlap.
 * Whichever commits second must not roll back what the other wrote.
 */
const WETH = '0x00000000000000000000000000000000000000e1' as Address;
const USDC = '0x00000000000000000000000000000000000000c1' as Address;
const POOL = storedPool({
  id: `0x${'ab'.repeat(20)}000200000000000000000001`,
  tokens: [
    { address: WETH, symbol: 'WETH', name: null, decimals: 18, balance: '10', weight: '0.5', priceRate: '1' },
    { address: USDC, symbol: 'USDC', name: null, decimals: 6, balance: '30000', weight: '0.5', priceRate: '1' },
  ],
});

/** The store as another instance sees it: `onCommit` runs just before this instance's commits land. */
function racing(inner: Store, onCommit: (change: ChainChange) => Promise<void>): Store {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'commit') {
        return async (chainId: number, change: ChainChange) => {
          await onCommit(change);
          return target.commit(chainId, change);
        };
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

describe('overlapping pool update and decoration', () => {
  let dir: string;
  let inner: SqliteStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bps-race-'));
    inner = new SqliteStore(join(dir, 's.sqlite'), 0);
    await inner.commit(1, {
      pools: [POOL],
      tokens: [WETH, USDC].map((address, i) => ({
        address,
        symbol: null,
        name: null,
        decimals: i === 0 ? 18 : 6,
        price: null,
        priceUsd: i === 0 ? '3000' : '1',
        lastUpdate: 1,
        noPriceData: false,
      })),
      bumpPoolsVersion: true,
    });
  });
  afterEach(async () => {
    await inner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a pool update that commits while decoration computes keeps its balances, and the pool still gets decorated', async () => {
    let updated = false;
    const store = racing(inner, async (change) => {
      if (updated || !change.pools?.some((p) => p.decoratedAt !== undefined)) return;
      updated = true;
      // Another instance's pool update lands first: a swap moved the balances.
      const moved: StoredPool = {
        ...POOL,
        tokens: [
          { ...POOL.tokens[0]!, balance: '11' },
          { ...POOL.tokens[1]!, balance: '27300.5' },
        ],
      };
      await inner.commit(1, { pools: [moved], bumpPoolsVersion: true });
    });
    const ctx = await createContext(loadConfig({ NETWORKS: '1', DATA_DIR: dir }), { logger: silentLogger(), store });
    const report = await decoratePools(ctx, 1);

    expect(updated).toBe(true);
    expect(report.changed).toBe(1);
    const pool = (await inner.getPool(1, POOL.id))!;
    expect(pool.tokens.map((t) => t.balance)).toEqual(['11', '27300.5']);
    expect(pool.totalLiquidity).toBeDefined();
    expect((await inner.getMeta(1)).poolsVersion).toBe(3);
  });
});
