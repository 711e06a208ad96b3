import { CHAINS, vaultOf } from '../../src/config/chains';
import type { StoredPool } from '../../src/domain/pool';
import { v3PoolOf } from '../../src/domain/poolTypes/v3PoolOf';
import { buildV3Models } from '../../src/domain/protocols/v3/engine/v3Models';
import { stableSurgeHook } from '../../src/domain/protocols/v3/hooks/stableSurge/stableSurgeHook';
import { vaultSwap } from '../../src/domain/protocols/v3/vault/swap';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { FakeV3Vault, type FakeV3Pool } from '../fakes/v3VaultFake';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * Hooked V3 pools at the head: a known hook's settings for the pool are read from the hook at the
 * block (StableSurge's max surge fee and threshold) and the pool is quoted through the hook's
 * maths; they change with no Vault event, so the pool is read again at each block; a pool whose
 * hook cannot be priced is left out of routes with the reason shown.
 */
const MAINNET = CHAINS.find((c) => c.id === 1)!;
const V3_VAULT = vaultOf(MAINNET, 3)!.toLowerCase();
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const ZERO = `0x${'0'.repeat(40)}`;
const SURGE = '0xb18fa0cb5de8cecb8899aae6e38b1b7ed77885da';
const S = `0x${'e2'.repeat(20)}`;
/** Registered with the hook's address but not with the hook: its getters revert for it. */
const N = `0x${'e4'.repeat(20)}`;
const E18 = 10n ** 18n;

function catalogue(address: string) {
  return {
    protocolVersion: 3,
    id: address,
    address,
    poolType: 'Stable',
    poolTypeVersion: 1,
    swapFee: '0.0001',
    totalShares: '2000',
    tokens: [
      { address: USDC, index: 0, symbol: 'USDC', decimals: 6, balance: '1000', paysYieldFees: false },
      { address: USDT, index: 1, symbol: 'USDT', decimals: 6, balance: '1000', paysYieldFees: false },
    ],
    amp: '500',
    hookConfig: { hook: { address: SURGE }, shouldCallComputeDynamicSwapFee: true, kind: 'stableSurge' },
  };
}

const fake = (address: string): FakeV3Pool => ({
  address,
  tokens: [USDC, USDT],
  decimals: [6, 6],
  balancesRaw: [1_000_000_000n, 1_050_000_000n],
  lastLiveBalances: [1_000n * E18, 1_050n * E18],
  rates: [E18, E18],
  rateProviders: [ZERO, ZERO],
  paysYieldFees: [false, false],
  staticSwapFee: 10n ** 14n,
  aggregateSwapFee: 5n * 10n ** 17n,
  aggregateYieldFee: 0n,
  paused: false,
  recovery: false,
  totalSupply: 2_050n * E18,
  hook: SURGE,
  amp: 500_000n,
});

let node: FakeChainRpc;
let v3: FakeV3Vault;
let srv: TestServer;
const pool = (id: string): StoredPool => srv.ctx.readModel.get(1)!.poolsById.get(id)!;

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  node = await FakeChainRpc.start(MAINNET.vault, []);
  v3 = new FakeV3Vault(V3_VAULT);
  v3.addPool(fake(S));
  v3.addPool(fake(N));
  v3.hooks.set(SURGE, { surge: new Map([[S, { max: 95n * 10n ** 16n, threshold: 2n * 10n ** 16n }]]) });
  node.contractCall = v3.call;
  srv = await startTestServer(
    { RPC_URL_1: node.url, FOLLOW_INTERVAL_MS: '50', ROUTER_WORKERS: '0', FOLLOW_RECHECK_CALLS_PER_SECOND: '0' },
    { features: [headFollowFeature], background: true, seed: [{ chainId: 1, pools: [catalogue(S), catalogue(N)] }] },
  );
  await until('the first read', () => srv.ctx.readModel.get(1)?.block?.number === 100);
});

afterAll(async () => {
  await srv.close();
  await node.close();
});

test("StableSurge's settings for the pool are the hook's at the head", () => {
  expect(pool(S).v3?.hook?.params).toEqual({ maxSurgeFeePercentage: '0.95', surgeThresholdPercentage: '0.02' });
});

test('the pool is quoted through the surge: an imbalancing trade pays the surge fee, a balancing one the static fee', () => {
  const served = v3PoolOf(pool(S), 0n)!;
  const params = { maxSurgeFeePercentage: 95n * 10n ** 16n, surgeThresholdPercentage: 2n * 10n ** 16n };
  const byHand = { ...served, hook: stableSurgeHook(params, served.math) };
  const withoutHook = { state: served.state, math: served.math };
  // USDT is already the larger balance: selling more of it in makes the pool more imbalanced.
  const imbalancing = { kind: 'exactIn', tokenIn: USDT, tokenOut: USDC, amountGivenRaw: 200_000_000n } as const;
  const ours = vaultSwap(served, imbalancing).amountCalculatedRaw;
  expect(ours).toBe(vaultSwap(byHand, imbalancing).amountCalculatedRaw);
  expect(ours).toBeLessThan(vaultSwap(withoutHook, imbalancing).amountCalculatedRaw);
  // Towards balance the static fee applies: the same as without the hook.
  const balancing = { kind: 'exactIn', tokenIn: USDC, tokenOut: USDT, amountGivenRaw: 20_000_000n } as const;
  expect(vaultSwap(served, balancing).amountCalculatedRaw).toBe(vaultSwap(withoutHook, balancing).amountCalculatedRaw);
});

test("a change of the hook's settings, which no Vault event names, is read at the next block", async () => {
  v3.hooks.get(SURGE)!.surge!.set(S, { max: 5n * 10n ** 17n, threshold: 3n * 10n ** 16n });
  node.mine([]);
  await until('the new settings', () => pool(S).v3?.hook?.params.surgeThresholdPercentage === '0.03');
  expect(pool(S).v3?.hook?.params.maxSurgeFeePercentage).toBe('0.5');
});

test('a pool whose hook answers nothing for it is left out of routes, with the reason shown', async () => {
  const built = buildV3Models({ pools: [pool(S), pool(N)], buffers: new Map(), timestamp: 0n });
  expect(built.models.map((m) => m.id)).toEqual([S]);
  expect(built.skipped).toEqual([{ id: N, reason: `hook ${SURGE} has no maxSurgeFeePercentage` }]);
  const view = (await (await fetch(`${srv.url}/pools/1/${N}`)).json()) as {
    routable: boolean;
    unroutableReason: string;
  };
  expect(view).toMatchObject({ routable: false, unroutableReason: `hook ${SURGE} has no maxSurgeFeePercentage` });
});
