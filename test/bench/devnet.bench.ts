import { performance } from 'node:perf_hooks';
import { devAccount, traderAccounts } from '../../src/devnet/accounts';
import { deployDevnet } from '../../src/devnet/deploy';
import { startInProcessChain } from '../../src/devnet/localChain';
import { exactOfSorRoute } from '../routing/v2/exactReplay';
import { sorTimestamp } from '../../src/routing/v2/sorConfig';
import { directPools, directQuote } from '../routing/v2/directSor';
import { HAS_SNAPSHOT, loadSnapshotPools } from '../helpers/snapshot';
import { QUOTE_CASES, TOKENS } from './quoteCases';
import { figure } from './lib/report';

/**
 * The local chain and the exact quote amounts:
 * - deploying the whole devnet (Balancer V2 stack, its tokens, every pool `npm run demo` serves, the
 *   gauge system and the funded traders) in process; the figure names the pool count;
 * - what replaying a route with the Vault's arithmetic (the engine's pool models, src/domain/swap)
 *   adds to a quote, on the SOR's routes for the mainnet snapshot's quote mix (target: well under the
 *   SOR's own time), and the share of those routes every pool of which the models simulate (a SOR
 *   route that a pool would revert on counts as not simulated).
 */
export async function run(): Promise<void> {
  const chain = startInProcessChain();
  await chain.provider.getBlockNumber();
  const t0 = performance.now();
  const devnet = await deployDevnet(devAccount(0, chain.provider), { traders: traderAccounts(chain.provider) });
  figure(`devnet deploy (${devnet.pools.length} pools, in-process)`, performance.now() - t0, 'ms', {
    op: '<',
    value: 10_000,
  });
  await chain.close();

  if (!HAS_SNAPSHOT) {
    process.stdout.write('exact replay: skipped (../shared/data snapshot absent)\n');
    return;
  }
  const pools = directPools(loadSnapshotPools());
  const timestamp = sorTimestamp(Date.now());
  let sorMs = 0;
  const routes = [];
  for (const c of QUOTE_CASES) {
    const s = performance.now();
    const info = await directQuote(pools, c, { timestamp });
    sorMs += performance.now() - s;
    if (info.swaps.length > 0) routes.push({ kind: c.orderKind, info });
  }
  const ROUNDS = 20;
  let replayed = 0;
  let simulated = 0;
  const s = performance.now();
  for (let r = 0; r < ROUNDS; r++) {
    for (const { kind, info } of routes) {
      const out = exactOfSorRoute(kind, info, pools, TOKENS.WETH.address, timestamp);
      replayed++;
      if (out !== undefined) simulated++;
    }
  }
  const replayMs = (performance.now() - s) / replayed;
  figure('routes replayed exactly (all pools simulated)', (100 * simulated) / replayed, '%');
  figure('exact replay per route', replayMs, 'ms', { op: '<', value: 1 });
  figure('SOR per quote (new SOR + getSwaps, same mix)', sorMs / QUOTE_CASES.length, 'ms');
}
