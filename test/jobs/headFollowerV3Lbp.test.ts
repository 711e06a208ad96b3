import { CHAINS, vaultOf } from '../../src/config/chains';
import type { StoredPool } from '../../src/domain/pool';
import { v3PoolOf } from '../../src/domain/poolTypes/v3PoolOf';
import { SwapOfProjectTokenIn, SwapsDisabled } from '../../src/domain/poolTypes/weighted/v3/lbpV3Sale';
import { lbpMath } from '../../src/domain/poolTypes/weighted/v3/lbpV3Pool';
import { buildV3Models } from '../../src/domain/protocols/v3/engine/v3Models';
import { vaultSwap } from '../../src/domain/protocols/v3/vault/swap';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { FakeV3Vault, type FakeV3Pool } from '../fakes/v3VaultFake';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * V3 LBPs at the head: the sale (token indices, window, weight schedule, buy-only flag, the fixed
 * price's rate) is read from the pool's own getters pinned to the block, replacing what the
 * catalogue said; a quote prices with the weights of the quote's timestamp and is refused outside
 * the window or with the project token in when the sale is buy-only.
 */
const MAINNET = CHAINS.find((c) => c.id === 1)!;
const V3_VAULT = vaultOf(MAINNET, 3)!.toLowerCase();
const PROJECT = `0x${'0a'.repeat(20)}`;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ZERO = `0x${'0'.repeat(40)}`;
const LBP = `0x${'1b'.repeat(20)}`;
const FIXED = `0x${'1f'.repeat(20)}`;
const E18 = 10n ** 18n;
const START = 1_800_000_000n;
const END = START + 86_400n;

const tokens = [
  { address: PROJECT, index: 0, symbol: 'PRJ', decimals: 18, balance: '1000000', paysYieldFees: false },
  { address: USDC, index: 1, symbol: 'USDC', decimals: 6, balance: '50000', paysYieldFees: false },
];

function catalogue(address: string, poolType: string, typeParams: Record<string, unknown>) {
  return {
    protocolVersion: 3,
    id: address,
    address,
    poolType,
    poolTypeVersion: 1,
    factory: `0x${'fa'.repeat(20)}`,
    swapFee: '0.01',
    totalShares: '100',
    tokens,
    hookConfig: {
      hook: { address },
      shouldCallBeforeAddLiquidity: true,
      shouldCallBeforeRemoveLiquidity: true,
    },
    typeParams,
  };
}

const fakePool = (address: string, lbp: FakeV3Pool['lbp']): FakeV3Pool => ({
  address,
  tokens: [PROJECT, USDC],
  decimals: [18, 6],
  balancesRaw: [1_000_000n * E18, 50_000_000_000n],
  lastLiveBalances: [1_000_000n * E18, 50_000n * E18],
  rates: [E18, E18],
  rateProviders: [ZERO, ZERO],
  paysYieldFees: [false, false],
  staticSwapFee: 10n ** 16n,
  aggregateSwapFee: 0n,
  aggregateYieldFee: 0n,
  paused: false,
  recovery: false,
  totalSupply: 100n * E18,
  hook: address,
  ...(lbp ? { lbp } : {}),
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
  v3.addPool(
    fakePool(LBP, {
      projectTokenIndex: 0,
      reserveTokenIndex: 1,
      blocked: true,
      startTime: START,
      endTime: END,
      startWeights: [9n * 10n ** 17n, 10n ** 17n],
      endWeights: [3n * 10n ** 17n, 7n * 10n ** 17n],
    }),
  );
  v3.addPool(
    fakePool(FIXED, {
      projectTokenIndex: 0,
      reserveTokenIndex: 1,
      blocked: true,
      startTime: START,
      endTime: END,
      projectTokenRate: 2n * 10n ** 17n,
    }),
  );
  node.contractCall = v3.call;
  srv = await startTestServer(
    { RPC_URL_1: node.url, FOLLOW_INTERVAL_MS: '50', ROUTER_WORKERS: '0', FOLLOW_RECHECK_CALLS_PER_SECOND: '0' },
    {
      features: [headFollowFeature],
      background: true,
      seed: [
        {
          chainId: 1,
          pools: [
            // The catalogue's weights are stale on purpose: the chain's replace them.
            catalogue(LBP, 'LBP', {
              startTime: '1',
              endTime: '2',
              isProjectTokenSwapInBlocked: false,
              projectToken: PROJECT,
              reserveToken: USDC,
              projectTokenStartWeight: '500000000000000000',
              projectTokenEndWeight: '500000000000000000',
              reserveTokenStartWeight: '500000000000000000',
              reserveTokenEndWeight: '500000000000000000',
            }),
            // Stale too: the window is the pool's immutable data at the head.
            catalogue(FIXED, 'FixedLBP', { startTime: '1', endTime: '2' }),
          ],
        },
      ],
    },
  );
  await until('the first read', () => srv.ctx.readModel.get(1)?.block?.number === 100);
});

afterAll(async () => {
  await srv.close();
  await node.close();
});

test("an LBP's sale is the chain's: its getters at the head replace the catalogue's values", () => {
  expect(pool(LBP).v3?.typeParams).toMatchObject({
    projectToken: PROJECT,
    reserveToken: USDC,
    startTime: String(START),
    endTime: String(END),
    isProjectTokenSwapInBlocked: 'true',
    projectTokenStartWeight: '900000000000000000',
    reserveTokenEndWeight: '700000000000000000',
  });
  expect(pool(FIXED).v3?.typeParams).toMatchObject({
    projectToken: PROJECT,
    reserveToken: USDC,
    startTime: String(START),
    endTime: String(END),
    projectTokenRate: '200000000000000000',
  });
});

test('an LBP quote prices with the weights of the quote block, and they move between blocks', () => {
  const buy = { kind: 'exactIn', tokenIn: USDC, tokenOut: PROJECT, amountGivenRaw: 1_000_000_000n } as const;
  const at = (t: bigint) => vaultSwap(v3PoolOf(pool(LBP), t)!, buy).amountCalculatedRaw;
  const early = at(START + 3_600n);
  const later = at(START + 43_200n);
  // The project token's weight falls over the sale: the same reserve buys more of it later.
  expect(later).toBeGreaterThan(early);
  // At mid-sale the weights are the schedule's midpoint, 60/40: the pool's own math at those weights.
  const state = v3PoolOf(pool(LBP), START + 43_200n)!.state;
  const mid = lbpMath(
    {
      ...state,
      projectTokenIndex: 0,
      reserveTokenIndex: 1,
      startTime: START,
      endTime: END,
      isProjectTokenSwapInBlocked: true,
      startWeights: [6n * 10n ** 17n, 4n * 10n ** 17n],
      endWeights: [6n * 10n ** 17n, 4n * 10n ** 17n],
    },
    START + 43_200n,
  );
  expect(vaultSwap({ state, math: mid }, buy).amountCalculatedRaw).toBe(later);
});

test('outside the window, or selling the project token into a buy-only sale, the LBP refuses', () => {
  const buy = { kind: 'exactIn', tokenIn: USDC, tokenOut: PROJECT, amountGivenRaw: 1_000_000n } as const;
  const sell = { kind: 'exactIn', tokenIn: PROJECT, tokenOut: USDC, amountGivenRaw: E18 } as const;
  for (const id of [LBP, FIXED]) {
    expect(() => vaultSwap(v3PoolOf(pool(id), START - 1n)!, buy)).toThrow(SwapsDisabled);
    expect(() => vaultSwap(v3PoolOf(pool(id), END + 1n)!, buy)).toThrow(SwapsDisabled);
    expect(() => vaultSwap(v3PoolOf(pool(id), START)!, sell)).toThrow(SwapOfProjectTokenIn);
  }
  // Inside the window the fixed price holds: 1 USDC buys 5 project tokens, less the 1 % fee.
  expect(vaultSwap(v3PoolOf(pool(FIXED), END)!, buy).amountCalculatedRaw).toBe(4_950_000_000_000_000_000n);
});

test('the V3 routing universe carries both LBPs, only on hops that buy or sell their own tokens', () => {
  const built = buildV3Models({ pools: [pool(LBP), pool(FIXED)], buffers: new Map(), timestamp: START + 10n });
  expect(built.skipped).toEqual([]);
  expect(built.models.map((m) => [m.id, m.pathRole])).toEqual([
    [LBP, 'ends'],
    [FIXED, 'ends'],
  ]);
});
