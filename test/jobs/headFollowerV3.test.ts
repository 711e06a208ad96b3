import { CHAINS, vaultOf } from '../../src/config/chains';
import { decimalToUnits } from '../../src/domain/decimal';
import type { StoredPool } from '../../src/domain/pool';
import { poolTypeDef } from '../../src/domain/poolTypes/registry';
import { v3PoolOf } from '../../src/domain/poolTypes/v3PoolOf';
import { bufferStateOf, erc4626Of } from '../../src/domain/protocols/v3/stored/buffers';
import { v3PoolStateOf } from '../../src/domain/protocols/v3/stored/v3PoolState';
import { PoolInRecoveryModeError, PoolPausedError } from '../../src/domain/protocols/v3/vault/errors';
import { vaultSwap } from '../../src/domain/protocols/v3/vault/swap';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { FakeV3Vault } from '../fakes/v3VaultFake';
import { startTestServer, type TestServer } from '../helpers/testServer';
import {
  buffer,
  catalogueStable,
  catalogueWeighted,
  DAI,
  E18,
  PROVIDER,
  S,
  stable,
  USDC,
  USDT,
  W,
  WAUSDC,
  weighted,
} from '../helpers/v3FollowFixtures';

/**
 * The head follower's V3 source against a fake node: V3 pools and the Vault's buffers are read
 * from the V3 Vault at the head (raw balances, rates, fees, flags, the type's own parameters),
 * only the pools the V3 Vault's logs name are read again at a new block, except those whose rates
 * move with no event, and buffers are read every block.
 */
const MAINNET = CHAINS.find((c) => c.id === 1)!;
const V3_VAULT = vaultOf(MAINNET, 3)!.toLowerCase();
let node: FakeChainRpc;
let v3: FakeV3Vault;
let srv: TestServer;

const snapshot = () => srv.ctx.readModel.get(1)!;
const pool = (id: string): StoredPool => snapshot().poolsById.get(id)!;

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeEach(async () => {
  node = await FakeChainRpc.start(MAINNET.vault, []);
  v3 = new FakeV3Vault(V3_VAULT);
  v3.addPool(weighted());
  v3.addPool(stable());
  v3.addBuffer(buffer());
  v3.erc20Decimals.set(USDT, 6);
  node.contractCall = v3.call;
  srv = await startTestServer(
    {
      RPC_URL_1: node.url,
      FOLLOW_INTERVAL_MS: '50',
      ROUTER_WORKERS: '0',
      // No slow re-read of pools nothing named: these tests are about what the logs name.
      FOLLOW_RECHECK_CALLS_PER_SECOND: '0',
    },
    {
      features: [headFollowFeature],
      background: true,
      seed: [{ chainId: 1, pools: [catalogueWeighted(), catalogueStable()] }],
    },
  );
  await until('the first read', () => snapshot()?.block?.number === 100);
});

afterEach(async () => {
  await srv.close();
  await node.close();
});

test('the catalogue stores V3 pools by address with protocolVersion 3, in the Vault token order', async () => {
  const body = (await (await fetch(`${srv.url}/pools/1/${S}`)).json()) as {
    id: string;
    protocolVersion: number;
    tokens: { address: string }[];
  };
  expect(body.id).toBe(S);
  expect(body.protocolVersion).toBe(3);
  expect(body.tokens.map((t) => t.address)).toEqual([WAUSDC, USDT]);
});

test('a V3 pool is served with the V3 Vault state at the head, integer for integer', () => {
  const state = v3PoolStateOf(pool(S))!;
  const fake = stable();
  expect(state.balancesRaw).toEqual(fake.balancesRaw);
  expect(state.tokenRates).toEqual(fake.rates);
  expect(state.scalingFactors).toEqual([10n ** 12n, 10n ** 12n]);
  expect(state.staticSwapFee).toBe(fake.staticSwapFee);
  expect(state.aggregateSwapFee).toBe(fake.aggregateSwapFee);
  expect(state.yieldFee).toEqual({
    aggregateYieldFee: fake.aggregateYieldFee,
    lastLiveBalances: fake.lastLiveBalances,
    paysYieldFees: [true, false],
  });
  expect(state.totalSupply).toBe(fake.totalSupply);
  // The amp read from the pool (500 with its 1000 precision), the hook's address and flags from the Vault.
  expect(pool(S).amp).toBe('500');
  expect(pool(S).v3?.hook).toMatchObject({ address: fake.hook, kind: null });
  expect(pool(S).priceRateProviders).toEqual([{ address: PROVIDER, token: WAUSDC }]);
  expect(pool(W).tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(weighted().balancesRaw);
  // The weighted pool prices on the chain's state.
  expect(v3PoolOf(pool(W), 0n)?.state.balancesLiveScaled18).toEqual([100n * E18, 101n * E18]);
});

test('buffers are read beside the pools, the ERC-4626 token by its totals when it is OpenZeppelin arithmetic', () => {
  const b = snapshot().buffers.get(WAUSDC)!;
  expect(bufferStateOf(b)).toMatchObject({
    wrappedToken: WAUSDC,
    underlyingToken: USDC,
    underlyingBalanceRaw: 2_000_000_000n,
    wrappedBalanceRaw: 1_500_000_000n,
    buffersPaused: false,
  });
  expect(b.token.conversion).toBe('totals');
  // USDT has no buffer.
  expect(snapshot().buffers.has(USDT)).toBe(false);
  // The previews equal the token's: 1.1 assets a share, with the virtual offset.
  expect(erc4626Of(b.token).previewRedeem(1_000_000n)).toBe((1_000_000n * 1_100_000_000_001n) / 1_000_000_000_001n);
});

test('a new block re-reads the V3 pools its Vault logs name and those with a rate provider, and every buffer', async () => {
  const w = v3.pools.get(W)!;
  const s = v3.pools.get(S)!;
  const infoCalls = (): string[] => node.ethCalls.filter((c) => c.to === V3_VAULT).map((c) => c.selector);
  const before = infoCalls().length;
  // Nothing logged for the weighted pool: its balances change on the node but stay as read.
  w.balancesRaw = [1n, 1n];
  // The stable pool's rate moves with no event; the buffer's token accrues yield.
  s.rates = [1_100_000_000_000_000_123n, E18];
  v3.buffers.get(WAUSDC)!.token.totalAssets += 1_000_000n;
  node.mine([]);
  await until('block 101', () => snapshot().block?.number === 101);
  expect(pool(W).tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(weighted().balancesRaw);
  expect(pool(S).tokens[0]!.priceRate).toBe('1.100000000000000123');
  const b = snapshot().buffers.get(WAUSDC)!;
  expect(b.token.conversion === 'totals' && BigInt(b.token.totalAssets)).toBe(1_100_001_000_000n);
  // One pool's Vault reads (five calls at the Vault) and the buffer's Vault calls (three): the weighted pool was not asked.
  expect(infoCalls().length - before).toBe(5 + 3);

  // A Swap log names the weighted pool: read again.
  w.balancesRaw = [110n * E18, 91_000_000n];
  node.mine([], [v3.swapLog(W)]);
  await until('block 102', () => snapshot().block?.number === 102);
  expect(pool(W).tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual([110n * E18, 91_000_000n]);

  // A block that moves no buffer keeps the buffers as they were, the same objects: the V3 routing
  // universe rebuilds nothing for them (routing/v3/v3Router.ts).
  const buffers = snapshot().buffers;
  node.mine([]);
  await until('block 103', () => snapshot().block?.number === 103);
  expect(snapshot().buffers).toBe(buffers);
});

/** The pool type's math on the pool as served (the stable pool's hook left aside). */
const mathOf = (p: StoredPool) => poolTypeDef(p.poolType, 3)!.v3!.math(p, v3PoolStateOf(p)!, 0n);

test("which build a pool is comes from the pool's own answers, and the math follows it", async () => {
  const tooLow = [10n ** 12n, 10n ** 12n];
  const apart = [E18, 10_000n * E18];
  // Launch builds: no minimum balances, no imbalance limit.
  expect(pool(W).v3?.minTokenBalances).toBeUndefined();
  expect(pool(S).v3?.maxImbalanceRatio).toBeUndefined();
  expect(mathOf(pool(W)).computeInvariant(tooLow, 'down')).toBeGreaterThan(0n);
  expect(mathOf(pool(S)).computeInvariant(apart, 'down')).toBeGreaterThan(0n);

  const minimum = [2n * 10n ** 12n, 3n * 10n ** 12n];
  Object.assign(v3.pools.get(W)!, { build: '1.0.0', minTokenBalances: minimum });
  Object.assign(v3.pools.get(S)!, { build: '1.0.0' });
  // The swaps the logs name move the pools' balances, as every swap does.
  v3.pools.get(W)!.balancesRaw = [101n * E18, 100_000_000n];
  v3.pools.get(S)!.balancesRaw = [951_000_000n, 1_019_000_000n];
  node.mine([], [v3.swapLog(W), v3.swapLog(S)]);
  await until('block 101', () => snapshot().block?.number === 101);
  expect(pool(W).v3?.minTokenBalances?.map((b) => decimalToUnits(b, 18))).toEqual(minimum);
  expect(pool(S).v3?.maxImbalanceRatio).toBe('10000');
  expect(() => mathOf(pool(W)).computeInvariant(tooLow, 'down')).toThrow(/below its minimum/);
  expect(() => mathOf(pool(S)).computeInvariant(apart, 'down')).toThrow(/too far apart/);
});

test('pause and recovery changes follow the Vault: a paused pool is served paused and refused by the Vault', async () => {
  v3.pools.get(W)!.paused = true;
  node.mine([], [v3.pausedLog(W)]);
  await until('the pause', () => pool(W).isPaused);
  const swap = { kind: 'exactIn', tokenIn: DAI, tokenOut: USDC, amountGivenRaw: E18 } as const;
  expect(() => vaultSwap(v3PoolOf(pool(W), 0n)!, swap)).toThrow(PoolPausedError);
  v3.pools.get(W)!.paused = false;
  v3.pools.get(W)!.recovery = true;
  node.mine([], [v3.pausedLog(W)]);
  await until('the unpause', () => !pool(W).isPaused);
  expect(pool(W).isInRecoveryMode).toBe(true);
  expect(() => vaultSwap(v3PoolOf(pool(W), 0n)!, swap)).toThrow(PoolInRecoveryModeError);
});

test('a pool the V3 Vault registers after the catalogue read is served and priced from the next block', async () => {
  const R = `0x${'e3'.repeat(20)}`;
  v3.addPool({
    ...weighted(),
    address: R,
    balancesRaw: [50n * E18, 60_000_000n],
    weights: [8n * 10n ** 17n, 2n * 10n ** 17n],
  });
  node.mine([], [v3.registeredLog(R, `0x${'fa'.repeat(20)}`)]);
  await until('the registered pool', () => snapshot().poolsById.has(R));
  const r = pool(R);
  expect(r).toMatchObject({ id: R, protocolVersion: 3, poolType: 'Weighted', routable: true });
  expect(r.tokens.map((t) => [t.address, t.decimals, t.weight])).toEqual([
    [DAI, 18, '0.8'],
    [USDC, 6, '0.2'],
  ]);
  const state = v3PoolOf(r, 0n)!;
  expect(state.state.balancesRaw).toEqual([50n * E18, 60_000_000n]);
  const res = await fetch(`${srv.url}/pools/1/${R}`);
  expect(res.status).toBe(200);
  // A later block keeps it, read again when its logs name it.
  v3.pools.get(R)!.balancesRaw = [51n * E18, 59_000_000n];
  node.mine([], [v3.swapLog(R)]);
  await until('the registered pool traded', () => pool(R).tokens[0]!.balance === '51');
});
