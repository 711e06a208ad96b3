import { Contract, id, Provider, ZeroAddress } from 'ethers';
import type { DevnetV3Addresses, DevnetV3PoolKind } from '../devnet';

/**
 * Reads every pool the devnet's V3 Vault registered straight from the chain, pinned to one block:
 * which pools from the Vault's `PoolRegistered` logs (topic 1 the pool, topic 2 its factory), what
 * kind from the factory (the devnet's weighted, stable and token-sale factories; pools of other
 * factories are left out, as a subgraph without their templates would), and what they hold from the Vault
 * (`getPoolTokenInfo`, `getPoolTokenRates`, `getPoolConfig`, `getHooksConfig`, `totalSupply`) and
 * the pool (`getNormalizedWeights`, `getAmplificationParameter`). Raw on-chain units.
 */
export interface OnchainV3Token {
  readonly address: string;
  /** Position in the Vault's token order. */
  readonly index: number;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Raw balance in the token's decimals. */
  readonly balance: bigint;
  /** The rate the Vault applies, 1e18 = 1. */
  readonly rate: bigint;
  /** Zero address for a token without a rate provider. */
  readonly rateProvider: string;
  readonly paysYieldFees: boolean;
}

export interface OnchainV3Hooks {
  readonly address: string;
  readonly enableHookAdjustedAmounts: boolean;
  readonly shouldCallComputeDynamicSwapFee: boolean;
  readonly shouldCallBeforeSwap: boolean;
  readonly shouldCallAfterSwap: boolean;
  readonly shouldCallBeforeAddLiquidity: boolean;
  readonly shouldCallAfterAddLiquidity: boolean;
  readonly shouldCallBeforeRemoveLiquidity: boolean;
  readonly shouldCallAfterRemoveLiquidity: boolean;
}

export interface OnchainV3Pool {
  readonly address: string;
  readonly kind: DevnetV3PoolKind;
  readonly factory: string;
  readonly name: string;
  readonly symbol: string;
  /** Timestamp of the block that registered it. */
  readonly registeredAt: number;
  readonly tokens: readonly OnchainV3Token[];
  /** The static swap fee, 1e18 = 100 %. */
  readonly swapFee: bigint;
  readonly totalSupply: bigint;
  readonly hooks: OnchainV3Hooks;
  readonly disableUnbalancedLiquidity: boolean;
  /** Weighted: normalized weights, 1e18 = 100 % (a token sale's move: its type reads them at the head). */
  readonly weights: readonly bigint[] | null;
  /** Stable: the amplification without its precision. */
  readonly amp: bigint | null;
}

const POOL_REGISTERED =
  'PoolRegistered(address,address,(address,uint8,address,bool)[],uint256,uint32,(address,address,address),(bool,bool,bool,bool,bool,bool,bool,bool,bool,bool,address),(bool,bool,bool,bool))';

const VAULT = [
  'function getPoolTokenInfo(address pool) view returns (address[] tokens, (uint8 tokenType, address rateProvider, bool paysYieldFees)[] tokenInfo, uint256[] balancesRaw, uint256[] lastBalancesLiveScaled18)',
  'function getPoolTokenRates(address pool) view returns (uint256[] decimalScalingFactors, uint256[] tokenRates)',
  'function getPoolConfig(address pool) view returns (((bool disableUnbalancedLiquidity, bool enableAddLiquidityCustom, bool enableRemoveLiquidityCustom, bool enableDonation) liquidityManagement, uint256 staticSwapFeePercentage, uint256 aggregateSwapFeePercentage, uint256 aggregateYieldFeePercentage, uint40 tokenDecimalDiffs, uint32 pauseWindowEndTime, bool isPoolRegistered, bool isPoolInitialized, bool isPoolPaused, bool isPoolInRecoveryMode))',
  'function getHooksConfig(address pool) view returns ((bool enableHookAdjustedAmounts, bool shouldCallBeforeInitialize, bool shouldCallAfterInitialize, bool shouldCallComputeDynamicSwapFee, bool shouldCallBeforeSwap, bool shouldCallAfterSwap, bool shouldCallBeforeAddLiquidity, bool shouldCallAfterAddLiquidity, bool shouldCallBeforeRemoveLiquidity, bool shouldCallAfterRemoveLiquidity, address hooksContract))',
  'function totalSupply(address pool) view returns (uint256)',
];
const POOL = [
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
];
const ERC20 = [
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
];

interface TokenMeta {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
}

const topicAddress = (topic: string | undefined): string => `0x${(topic ?? '').slice(26)}`.toLowerCase();

export class OnchainV3PoolReader {
  /** Token metadata never changes: read once per token. */
  private readonly meta = new Map<string, Promise<TokenMeta>>();
  private readonly kinds: ReadonlyMap<string, DevnetV3PoolKind>;

  constructor(
    private readonly provider: Provider,
    private readonly addresses: DevnetV3Addresses,
  ) {
    this.kinds = new Map<string, DevnetV3PoolKind>([
      [addresses.weightedPoolFactory, 'weighted'],
      [addresses.stablePoolFactory, 'stable'],
      [addresses.lbPoolFactory, 'lbp'],
      [addresses.fixedPriceLbPoolFactory, 'fixedPriceLbp'],
    ]);
  }

  /** Every V3 pool of the devnet's factories at block `blockTag`, by address. */
  async readAll(blockTag: number): Promise<OnchainV3Pool[]> {
    const logs = await this.provider.getLogs({
      address: this.addresses.vault,
      topics: [id(POOL_REGISTERED)],
      fromBlock: 0,
      toBlock: blockTag,
    });
    const registered = logs.flatMap((log) => {
      const factory = topicAddress(log.topics[2]);
      const kind = this.kinds.get(factory);
      return kind ? [{ address: topicAddress(log.topics[1]), kind, factory, block: log.blockNumber }] : [];
    });
    const pools = await Promise.all(
      registered.map((r) => this.readPool(r.address, r.kind, r.factory, r.block, blockTag)),
    );
    return pools.sort((a, b) => (a.address < b.address ? -1 : 1));
  }

  private tokenMeta(token: string, blockTag: number): Promise<TokenMeta> {
    let known = this.meta.get(token);
    if (!known) {
      const c = new Contract(token, ERC20, this.provider);
      known = Promise.all([
        c.getFunction('symbol')({ blockTag }),
        c.getFunction('name')({ blockTag }),
        c.getFunction('decimals')({ blockTag }),
      ]).then(([symbol, name, decimals]) => ({
        symbol: String(symbol),
        name: String(name),
        decimals: Number(decimals),
      }));
      known.catch(() => this.meta.delete(token));
      this.meta.set(token, known);
    }
    return known;
  }

  private async readPool(
    address: string,
    kind: DevnetV3PoolKind,
    factory: string,
    registeredBlock: number,
    blockTag: number,
  ): Promise<OnchainV3Pool> {
    const vault = new Contract(this.addresses.vault, VAULT, this.provider);
    const pool = new Contract(address, POOL, this.provider);
    const at = { blockTag };
    const [info, rates, config, hooks, totalSupply, name, symbol, block] = await Promise.all([
      vault.getFunction('getPoolTokenInfo')(address, at) as Promise<
        [string[], { rateProvider: string; paysYieldFees: boolean }[], bigint[], bigint[]]
      >,
      vault.getFunction('getPoolTokenRates')(address, at) as Promise<[bigint[], bigint[]]>,
      vault.getFunction('getPoolConfig')(address, at) as Promise<{
        liquidityManagement: { disableUnbalancedLiquidity: boolean };
        staticSwapFeePercentage: bigint;
      }>,
      vault.getFunction('getHooksConfig')(address, at) as Promise<
        Omit<OnchainV3Hooks, 'address'> & { hooksContract: string }
      >,
      vault.getFunction('totalSupply')(address, at) as Promise<bigint>,
      pool.getFunction('name')(at) as Promise<string>,
      pool.getFunction('symbol')(at) as Promise<string>,
      this.provider.getBlock(registeredBlock),
    ]);
    const [tokens, tokenInfo, balances] = info;
    const tokenRates = rates[1];
    const metas = await Promise.all(tokens.map((t) => this.tokenMeta(t.toLowerCase(), blockTag)));
    const weights =
      kind === 'weighted' ? [...((await pool.getFunction('getNormalizedWeights')(at)) as bigint[])] : null;
    const amp =
      kind === 'stable'
        ? await (pool.getFunction('getAmplificationParameter')(at) as Promise<[bigint, boolean, bigint]>).then(
            ([value, , precision]) => value / precision,
          )
        : null;
    return {
      address,
      kind,
      factory,
      name: String(name),
      symbol: String(symbol),
      registeredAt: block?.timestamp ?? 0,
      tokens: tokens.map((t, i) => ({
        address: t.toLowerCase(),
        index: i,
        ...metas[i]!,
        balance: balances[i]!,
        rate: tokenRates[i]!,
        rateProvider: String(tokenInfo[i]!.rateProvider).toLowerCase(),
        paysYieldFees: Boolean(tokenInfo[i]!.paysYieldFees),
      })),
      swapFee: config.staticSwapFeePercentage,
      totalSupply,
      hooks: {
        address: String(hooks.hooksContract ?? ZeroAddress).toLowerCase(),
        enableHookAdjustedAmounts: hooks.enableHookAdjustedAmounts,
        shouldCallComputeDynamicSwapFee: hooks.shouldCallComputeDynamicSwapFee,
        shouldCallBeforeSwap: hooks.shouldCallBeforeSwap,
        shouldCallAfterSwap: hooks.shouldCallAfterSwap,
        shouldCallBeforeAddLiquidity: hooks.shouldCallBeforeAddLiquidity,
        shouldCallAfterAddLiquidity: hooks.shouldCallAfterAddLiquidity,
        shouldCallBeforeRemoveLiquidity: hooks.shouldCallBeforeRemoveLiquidity,
        shouldCallAfterRemoveLiquidity: hooks.shouldCallAfterRemoveLiquidity,
      },
      disableUnbalancedLiquidity: config.liquidityManagement.disableUnbalancedLiquidity,
      weights,
      amp,
    };
  }
}
