import { devAccount, traderAccounts } from '../../src/devnet/accounts';
import type { LinearSpec } from '../../src/domain/poolTypes/linear/linearParams';
import { deployDevnet } from '../../src/devnet/deploy';
import { tokenBySymbol, type Devnet } from '../../src/devnet/devnet';
import { startInProcessChain, type LocalChain } from '../../src/devnet/localChain';
import { decimalToUnits } from '../../src/domain/decimal';
import type { PoolModel, SwapKind } from '../../src/domain/swap/poolModel';
import { compareWithVault, modelsOf, storedDevnetPools, type Hop } from './vaultAgreement';

/**
 * Every devnet pool as the store keeps it (indexer -> subgraph shape -> the pool update's
 * normalization) prices swaps exactly as the Vault does: each ordered token pair of each pool,
 * BPT included, both kinds, from a millionth to a tenth of the given side's balance and past
 * the pool's reserves, plus paths through the boosted pool. A field the indexer left out or
 * served wrong (a rate, a target, the virtual supply, amp) shows up here as a mismatch.
 */
let chain: LocalChain;
let devnet: Devnet;
let pools: LinearSpec[];
let models: Map<string, PoolModel>;
let sender: string;

beforeAll(async () => {
  chain = startInProcessChain();
  devnet = await deployDevnet(devAccount(0, chain.provider), { traders: traderAccounts(chain.provider) });
  sender = traderAccounts()[0]!.address;
  pools = await storedDevnetPools(chain.provider, devnet.addresses);
  models = modelsOf(pools);
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

const FRACTIONS = [1e-6, 1e-3, 0.1] as const;

/** What the given side holds: a pool's own BPT counts its circulating supply, not the pre-minted stock. */
function givenReserve(pool: LinearSpec, token: string): bigint {
  if (token === pool.address) return decimalToUnits(pool.totalShares, 18);
  const t = pool.tokens.find((x) => x.address === token)!;
  return decimalToUnits(t.balance, t.decimals);
}

const part = (raw: bigint, fraction: number) => (raw * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n;

async function mismatchesOf(pool: LinearSpec): Promise<{ problems: string[]; compared: number }> {
  const problems: string[] = [];
  let compared = 0;
  const tokens = pool.tokens.map((t) => t.address);
  for (const tokenIn of tokens) {
    for (const tokenOut of tokens) {
      if (tokenIn === tokenOut) continue;
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const path: Hop[] = [{ poolId: pool.id, tokenIn, tokenOut }];
        const reserve = givenReserve(pool, kind === 'givenIn' ? tokenIn : tokenOut);
        // Taking out the whole reserve (and more) must revert on both sides.
        const amounts = [
          ...FRACTIONS.map((f) => part(reserve, f)),
          ...(kind === 'givenOut' && tokenOut !== pool.address ? [reserve] : []),
        ];
        for (const amount of amounts) {
          const r = await compareWithVault(chain.provider, devnet.addresses.vault, models, kind, path, amount, sender);
          compared++;
          if (!r.agree)
            problems.push(
              `${pool.poolType} ${pool.id.slice(0, 10)} ${kind} ${tokenIn.slice(0, 8)}->${tokenOut.slice(0, 8)} ${amount}: ours ${String(r.ours)}, Vault ${String(r.chain)}`,
            );
        }
      }
    }
  }
  return { problems, compared };
}

describe('stored devnet pools against Vault.queryBatchSwap', () => {
  test('the store describes the new pool types with every field their math needs', () => {
    const byType = new Map(pools.map((p) => [p.poolType, p]));
    expect([...byType.keys()].sort()).toEqual([
      'ComposableStable',
      'ERC4626Linear',
      'LiquidityBootstrapping',
      'Stable',
      'Weighted',
    ]);
    expect(byType.get('LiquidityBootstrapping')).toMatchObject({ poolTypeVersion: 1, swapEnabled: true });
    const linear = byType.get('ERC4626Linear')!;
    expect(linear).toMatchObject({
      poolTypeVersion: 3,
      mainIndex: expect.any(Number),
      wrappedIndex: expect.any(Number),
      lowerTarget: '200000',
      upperTarget: '1000000',
    });
    // The vault has earned yield: its share's rate is above 1, and so is the linear BPT's rate in the boosted pool.
    expect(Number(linear.tokens[linear.wrappedIndex!]!.priceRate)).toBeGreaterThan(1.05);
    const boosted = pools.find(
      (p) => p.tokens.some((t) => t.address === linear.address) && p.address !== linear.address,
    )!;
    expect(Number(boosted.tokens.find((t) => t.address === linear.address)!.priceRate)).toBeGreaterThan(1.01);
    expect(pools.filter((p) => p.poolType !== 'Weighted').every((p) => models.has(p.id))).toBe(true);
  });

  test.each(['Stable', 'ERC4626Linear', 'ComposableStable', 'Weighted', 'LiquidityBootstrapping'])(
    '%s pools: every pair and kind, BPT included, to the wei',
    async (poolType) => {
      const chosen = pools.filter((p) => p.poolType === poolType);
      expect(chosen.length).toBeGreaterThan(0);
      const all: string[] = [];
      for (const pool of chosen) {
        expect(models.has(pool.id)).toBe(true);
        const { problems, compared } = await mismatchesOf(pool);
        all.push(...problems);
        expect(compared).toBeGreaterThanOrEqual(pool.tokens.length * (pool.tokens.length - 1) * 6);
      }
      expect(all).toEqual([]);
    },
    60_000,
  );

  test('paths through the boosted pool: token -> linear BPT -> boosted BPT and back, both kinds', async () => {
    const usdc = tokenBySymbol(devnet, 'USDC').address;
    const wusdc = tokenBySymbol(devnet, 'wUSDC').address;
    const dai = tokenBySymbol(devnet, 'DAI').address;
    const linear = devnet.pools.find((p) => p.kind === 'linear')!;
    const boosted = devnet.pools.find((p) => p.symbol === 'bb-USD')!;
    const paths: [string, Hop[]][] = [
      [
        'USDC -> bb-USDC -> bb-USD',
        [
          { poolId: linear.id, tokenIn: usdc, tokenOut: linear.address },
          { poolId: boosted.id, tokenIn: linear.address, tokenOut: boosted.address },
        ],
      ],
      [
        'bb-USD -> bb-USDC -> wUSDC',
        [
          { poolId: boosted.id, tokenIn: boosted.address, tokenOut: linear.address },
          { poolId: linear.id, tokenIn: linear.address, tokenOut: wusdc },
        ],
      ],
      [
        'DAI -> bb-USDC -> USDC',
        [
          { poolId: boosted.id, tokenIn: dai, tokenOut: linear.address },
          { poolId: linear.id, tokenIn: linear.address, tokenOut: usdc },
        ],
      ],
    ];
    const problems: string[] = [];
    for (const [name, path] of paths) {
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const token = kind === 'givenIn' ? path[0]!.tokenIn : path[path.length - 1]!.tokenOut;
        const decimals = token === usdc || token === wusdc ? 6 : 18;
        for (const human of [1n, 1000n, 100_000n]) {
          const r = await compareWithVault(
            chain.provider,
            devnet.addresses.vault,
            models,
            kind,
            path,
            human * 10n ** BigInt(decimals),
            sender,
          );
          if (!r.agree || typeof r.chain !== 'bigint')
            problems.push(`${name} ${kind} ${human}: ours ${String(r.ours)}, Vault ${String(r.chain)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
