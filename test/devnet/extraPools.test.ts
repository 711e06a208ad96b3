import { Contract, parseUnits } from 'ethers';
import { devAccount } from '../../src/devnet/accounts';
import type { Devnet } from '../../src/devnet/devnet';
import { ensureDevnet } from '../../src/devnet/ensure';
import { deployExtraPools, type ExtraPools } from '../../src/devnet/extraPools';
import { OnchainPoolReader, type OnchainPool } from '../../src/devnet/indexer/onchainPools';
import { LocalChain, startInProcessChain } from '../../src/devnet/localChain';

/**
 * The extra pools the follow benchmark loads the devnet with are real pools of the devnet's
 * weighted factory: the devnet indexer (and so the service's catalogue) lists them seeded as
 * planned, a trader they funded can swap on them, and the chain mines transactions at once again
 * afterwards.
 */
const E18 = 10n ** 18n;
let chain: LocalChain;
let devnet: Devnet;
let extra: ExtraPools;
let indexed: Map<string, OnchainPool>;
const trader = devAccount(11).address.toLowerCase();

beforeAll(async () => {
  chain = startInProcessChain();
  devnet = (await ensureDevnet(chain.provider)).devnet;
  extra = await deployExtraPools(chain.provider, devnet, { pools: 12, tokens: 4, traders: [trader] });
  indexed = new Map((await new OnchainPoolReader(chain.provider, devnet.addresses).readAll()).map((p) => [p.id, p]));
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

test('the devnet indexer lists every extra pool, seeded as planned', () => {
  expect(extra.pools).toHaveLength(12);
  expect(extra.tokens.map((t) => t.symbol)).toEqual(['XT00', 'XT01', 'XT02', 'XT03']);
  for (const [i, pool] of extra.pools.entries()) {
    const onchain = indexed.get(pool.id);
    expect(onchain).toMatchObject({ kind: 'weighted', factory: devnet.addresses.weightedPoolFactory });
    expect(onchain!.tokens.map((t) => t.address)).toEqual(pool.tokens);
    // 60,000 USD a pool at 1 USD an extra token and 3,000 USD a WETH, split by weight.
    const usd = onchain!.tokens.map(
      (t) => (t.balance * (t.address === devnet.addresses.weth ? 3000n : 1n) * E18) / t.weight!,
    );
    for (const v of usd) expect(v).toBe(60_000n * E18);
    // Every tenth pool pairs an extra token with WETH.
    expect(pool.tokens.includes(devnet.addresses.weth)).toBe(i % 10 === 0);
  }
});

test('a funded trader swaps on an extra pool, mined at once (automine is back on)', async () => {
  const pool = extra.pools[1]!;
  const [tokenIn, tokenOut] = pool.tokens;
  const vault = new Contract(
    devnet.addresses.vault,
    [
      'function swap((bytes32 poolId, uint8 kind, address assetIn, address assetOut, uint256 amount, bytes userData), (address sender, bool fromInternalBalance, address recipient, bool toInternalBalance), uint256 limit, uint256 deadline) returns (uint256)',
    ],
    await chain.provider.getSigner(trader),
  );
  const before = indexed.get(pool.id)!.tokens.find((t) => t.address === tokenIn)!.balance;
  const receipt = await (
    await vault.getFunction('swap')(
      { poolId: pool.id, kind: 0, assetIn: tokenIn, assetOut: tokenOut, amount: parseUnits('10', 18), userData: '0x' },
      { sender: trader, fromInternalBalance: false, recipient: trader, toInternalBalance: false },
      0n,
      2n ** 255n,
    )
  ).wait();
  expect(receipt?.status).toBe(1);
  const [, balances] = (await new Contract(
    devnet.addresses.vault,
    ['function getPoolTokens(bytes32) view returns (address[], uint256[], uint256)'],
    chain.provider,
  ).getFunction('getPoolTokens')(pool.id)) as [string[], bigint[]];
  expect(balances[pool.tokens.indexOf(tokenIn!)]).toBe(before + parseUnits('10', 18));
});
