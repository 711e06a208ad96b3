import { AbiCoder, Contract, ContractFactory, MaxUint256, Signer, ZeroAddress, id, parseUnits } from 'ethers';
import { balancerAbi, balancerArtifact, deploymentArtifact, devArtifact, weightedPoolFactoryV1 } from './artifacts';
import { Devnet, DevnetAddresses, DevnetPool, DevnetToken, expectedAddresses, expectedLidoAddresses } from './devnet';
import { devAccount, LBP_ADMIN_INDEX, LIDO_ADMIN_INDEX, signedByNode } from './accounts';
import { deploy, DeployError, mined, withFixedGas } from './deployTools';
import { installMulticall3 } from './multicall3';
import { deployBalancerV3, DeployV3Options } from './v3/deploy';
import {
  DEV_POOLS,
  DEV_TOKENS,
  LBP_POOLS,
  LIDO,
  LinearPoolSpec,
  DevnetPoolSpec,
  SALE_TOKENS,
  SALE_TRADER_FUNDS,
  STETH_SYMBOL,
  TRADER_FUNDS,
  WETH_SYMBOL,
  WRAPPED_TOKENS,
  WrappedTokenSpec,
  WSTETH_SYMBOL,
} from './universe';

/**
 * Deploys the real Balancer V2 stack and the pool universe of universe.ts onto a fresh chain, from
 * one deployer whose nonce must be 0 (that is what makes the addresses fixed), and funds traders.
 */

const DAY = 24 * 3600;
const PAUSE_WINDOW = 90 * DAY;
const BUFFER_PERIOD = 30 * DAY;
const MAX_YIELD_FEE = parseUnits('0.5', 18);
const MAX_AUM_FEE = parseUnits('0.5', 18);
const CSP_FACTORY_VERSION = JSON.stringify({
  name: 'ComposableStablePoolFactory',
  version: 3,
  deployment: '20230206-composable-stable-pool-v3',
});
const CSP_POOL_VERSION = JSON.stringify({
  name: 'ComposableStablePool',
  version: 3,
  deployment: '20230206-composable-stable-pool-v3',
});
const LINEAR_FACTORY_VERSION = JSON.stringify({
  name: 'ERC4626LinearPoolFactory',
  version: 3,
  deployment: '20230206-erc4626-linear-pool-v3',
});
const LINEAR_POOL_VERSION = JSON.stringify({
  name: 'ERC4626LinearPool',
  version: 3,
  deployment: '20230206-erc4626-linear-pool-v3',
});
/** How long a composable stable pool keeps a token rate before it asks the provider again. */
const RATE_CACHE_DURATION = 6 * 3600;
/** Vault functions the relayer entry point calls on a user's behalf. */
const RELAYER_ACTIONS = [
  'swap((bytes32,uint8,address,address,uint256,bytes),(address,bool,address,bool),uint256,uint256)',
  'batchSwap(uint8,(bytes32,uint256,uint256,uint256,bytes)[],address[],(address,bool,address,bool),int256[],uint256)',
  'joinPool(bytes32,address,address,(address[],uint256[],bytes,bool))',
  'exitPool(bytes32,address,address,(address[],uint256[],bytes,bool))',
  'manageUserBalance((uint8,address,uint256,address,address)[])',
  'setRelayerApproval(address,address,bool)',
];
const JOIN_KIND_INIT = 0;
const GIVEN_IN = 0;
const ERC20_ABI = [
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
];

function units(amount: string, decimals: number): bigint {
  return parseUnits(amount, decimals);
}

async function deployStack(deployer: Signer): Promise<{ addresses: DevnetAddresses; vault: Contract; weth: Contract }> {
  const from = await deployer.getAddress();
  const nonce = await deployer.getNonce();
  if (nonce !== 0)
    throw new DeployError(`deployer ${from} has nonce ${nonce}: the devnet must be deployed onto a fresh chain`);
  const want = expectedAddresses(from);

  const weth = await deploy(deployer, devArtifact('WETH9'), [], 'WETH9', want.weth);
  const authorizer = await deploy(deployer, balancerArtifact('Authorizer'), [from], 'Authorizer', want.authorizer);
  const vault = await deploy(
    deployer,
    balancerArtifact('Vault'),
    [want.authorizer, want.weth, PAUSE_WINDOW, BUFFER_PERIOD],
    'Vault',
    want.vault,
  );
  await deploy(
    deployer,
    balancerArtifact('ProtocolFeePercentagesProvider'),
    [want.vault, MAX_YIELD_FEE, MAX_AUM_FEE],
    'ProtocolFeePercentagesProvider',
    want.protocolFeePercentagesProvider,
  );
  await deploy(
    deployer,
    balancerArtifact('WeightedPoolFactory'),
    [want.vault, want.protocolFeePercentagesProvider],
    'WeightedPoolFactory',
    want.weightedPoolFactory,
  );
  await deploy(
    deployer,
    balancerArtifact('ComposableStablePoolFactory'),
    [want.vault, want.protocolFeePercentagesProvider, CSP_FACTORY_VERSION, CSP_POOL_VERSION],
    'ComposableStablePoolFactory',
    want.composableStablePoolFactory,
  );
  await deploy(deployer, balancerArtifact('BalancerQueries'), [want.vault], 'BalancerQueries', want.balancerQueries);
  const library = await deploy(
    deployer,
    balancerArtifact('BatchRelayerLibrary'),
    [want.vault, want.wstETH, ZeroAddress],
    'BatchRelayerLibrary',
    want.batchRelayerLibrary,
  );
  const relayer = String(await library.getFunction('getEntrypoint')()).toLowerCase();
  if (relayer !== want.batchRelayer) throw new DeployError(`relayer is ${relayer}, expected ${want.batchRelayer}`);

  const actionIds: string[] = [];
  for (const signature of RELAYER_ACTIONS)
    actionIds.push(await vault.getFunction('getActionId')(id(signature).slice(0, 10)));
  await mined(authorizer.getFunction('grantRoles')(actionIds, relayer), 'granting the relayer its Vault actions');
  await deploy(deployer, weightedPoolFactoryV1(), [want.vault], 'WeightedPoolFactory (v1)', want.weightedPoolFactoryV1);
  return { addresses: want, vault, weth };
}

/**
 * BAL is Balancer's governance-token shape (roles: admin, minter, snapshot), not a DevToken, so the
 * gauge system (gauges.ts) can hand its minting to the real BalancerTokenAdmin; until then the
 * deployer holds the minter role and mints it like any other devnet token.
 */
export const GOVERNANCE_TOKEN_SYMBOL = 'BAL';

async function deployTokens(deployer: Signer): Promise<Map<string, { token: DevnetToken; contract: Contract }>> {
  const out = new Map<string, { token: DevnetToken; contract: Contract }>();
  const from = await deployer.getAddress();
  for (const spec of DEV_TOKENS) {
    const governance = spec.symbol === GOVERNANCE_TOKEN_SYMBOL && spec.decimals === 18;
    const artifact = governance
      ? deploymentArtifact('20220325-test-balancer-token', 'TestBalancerToken')
      : devArtifact('DevToken');
    const args = governance ? [from, spec.name, spec.symbol] : [spec.name, spec.symbol, spec.decimals];
    const contract = (await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(...args)) as Contract;
    await contract.waitForDeployment();
    const address = (await contract.getAddress()).toLowerCase();
    out.set(spec.symbol, {
      token: { symbol: spec.symbol, name: spec.name, decimals: spec.decimals, address },
      contract,
    });
  }
  return out;
}

/** Vault shares the deployer deposits for: what linear pools are seeded with plus the traders' share. */
function wrappedDeposit(spec: WrappedTokenSpec, decimals: number, traders: number): bigint {
  let total = units(TRADER_FUNDS[spec.symbol] ?? '0', decimals) * BigInt(traders);
  for (const pool of DEV_POOLS)
    if (pool.kind === 'linear' && pool.wrapped === spec.symbol) total += units(pool.wrappedBalance, decimals);
  return total;
}

/**
 * Sums what the deployer must mint or wrap to seed every pool and vault, per symbol, in smallest
 * units. Pool BPT and vault shares are not minted: seeding and deposits produce them.
 */
function seedNeeds(decimalsOf: (symbol: string) => number, traders: number): Map<string, bigint> {
  const need = new Map<string, bigint>();
  const add = (symbol: string, amount: bigint) => need.set(symbol, (need.get(symbol) ?? 0n) + amount);
  const minted = (symbol: string) => symbol === WETH_SYMBOL || DEV_TOKENS.some((t) => t.symbol === symbol);
  for (const pool of DEV_POOLS) {
    if (pool.kind === 'linear') add(pool.main, units(pool.mainBalance, decimalsOf(pool.main)));
    else for (const t of pool.tokens) if (minted(t.symbol)) add(t.symbol, units(t.balance, decimalsOf(t.symbol)));
  }
  for (const w of WRAPPED_TOKENS) add(w.asset, wrappedDeposit(w, decimalsOf(w.asset), traders));
  return need;
}

/** The factory's PoolCreated event -> the pool's address and id. */
async function created(
  factory: Contract,
  receipt: { logs: readonly { topics: readonly string[]; data: string }[] },
  name: string,
): Promise<{ address: string; id: string }> {
  const event = receipt.logs.map((l) => factory.interface.parseLog(l)).find((l) => l?.name === 'PoolCreated');
  if (!event) throw new DeployError(`${name}: factory emitted no PoolCreated`);
  const address = String(event.args[0]).toLowerCase();
  const id = String(
    await new Contract(address, ['function getPoolId() view returns (bytes32)'], factory.runner).getFunction(
      'getPoolId',
    )(),
  );
  return { address, id: id.toLowerCase() };
}

async function vaultTokensOf(vault: Contract, poolId: string): Promise<string[]> {
  const [registered] = (await vault.getFunction('getPoolTokens')(poolId)) as [string[]];
  return [...registered].map((a) => a.toLowerCase());
}

type TokenOf = (symbol: string) => DevnetToken;

/** A weighted, stable or composable stable pool, created by its factory and seeded by the INIT join. */
async function createJoinedPool(
  deployer: Signer,
  spec: Exclude<DevnetPoolSpec, LinearPoolSpec>,
  addresses: DevnetAddresses,
  vault: Contract,
  tokenOf: TokenOf,
  isPool: (address: string) => boolean,
): Promise<DevnetPool> {
  const owner = await deployer.getAddress();
  // The Vault requires pool tokens sorted by address (BAL#101 otherwise).
  const entries = spec.tokens
    .map((t) => ({ ...t, token: tokenOf(t.symbol) }))
    .sort((a, b) => (a.token.address < b.token.address ? -1 : 1));
  const tokenAddresses = entries.map((e) => e.token.address);
  const fee = units(spec.swapFee, 18);
  let receipt;
  let factory: Contract;
  if (spec.kind === 'weighted' && spec.factoryVersion === 1) {
    factory = new Contract(addresses.weightedPoolFactoryV1, weightedPoolFactoryV1().abi, deployer);
    const weights = entries.map((e) => units((e as { weight: string }).weight, 18));
    receipt = await mined(
      factory.getFunction('create')(spec.name, spec.symbol, tokenAddresses, weights, fee, owner),
      `creating ${spec.name}`,
    );
  } else if (spec.kind === 'weighted') {
    factory = new Contract(addresses.weightedPoolFactory, balancerAbi('WeightedPoolFactory'), deployer);
    const weights = entries.map((e) => units((e as { weight: string }).weight, 18));
    receipt = await mined(
      factory.getFunction('create')(
        spec.name,
        spec.symbol,
        tokenAddresses,
        weights,
        entries.map(() => ZeroAddress),
        fee,
        owner,
      ),
      `creating ${spec.name}`,
    );
  } else if (spec.kind === 'stable') {
    factory = new Contract(addresses.stablePoolFactoryV2, balancerAbi('StablePoolFactory'), deployer);
    receipt = await mined(
      factory.getFunction('create')(spec.name, spec.symbol, tokenAddresses, spec.amp, fee, owner),
      `creating ${spec.name}`,
    );
  } else {
    factory = new Contract(addresses.composableStablePoolFactory, balancerAbi('ComposableStablePoolFactory'), deployer);
    // Another pool's BPT is priced by that pool (its getRate), cached for a while as on mainnet.
    const rateProviders = entries.map((e) => (isPool(e.token.address) ? e.token.address : ZeroAddress));
    const durations = rateProviders.map((r) => (r === ZeroAddress ? 0 : RATE_CACHE_DURATION));
    receipt = await mined(
      factory.getFunction('create')(
        spec.name,
        spec.symbol,
        tokenAddresses,
        spec.amp,
        rateProviders,
        durations,
        entries.map(() => false),
        fee,
        owner,
      ),
      `creating ${spec.name}`,
    );
  }
  const pool = await created(factory, receipt, spec.name);

  // INIT join. A composable stable pool also lists its own BPT: a placeholder amount there, and
  // an unlimited maximum because the pool mints its pre-minted supply into the Vault.
  const vaultTokens = await vaultTokensOf(vault, pool.id);
  const amountOf = (address: string): bigint => {
    const e = entries.find((x) => x.token.address === address);
    return e ? units(e.balance, e.token.decimals) : 0n;
  };
  const amounts = vaultTokens.map(amountOf);
  const maxAmounts = vaultTokens.map((a) => (a === pool.address ? MaxUint256 : amountOf(a)));
  const userData = AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256[]'], [JOIN_KIND_INIT, amounts]);
  await mined(
    vault.getFunction('joinPool')(pool.id, owner, owner, {
      assets: vaultTokens,
      maxAmountsIn: maxAmounts,
      userData,
      fromInternalBalance: false,
    }),
    `seeding ${spec.name}`,
  );
  return {
    id: pool.id,
    address: pool.address,
    kind: spec.kind,
    name: spec.name,
    symbol: spec.symbol,
    tokens: vaultTokens,
  };
}

/**
 * An ERC4626 linear pool: created with its upper target, seeded by swapping main and wrapped in for
 * BPT (linear pools have no INIT join), then given both targets (the main balance must lie inside
 * the old and the new range, hence after seeding).
 */
async function createLinearPool(
  deployer: Signer,
  spec: LinearPoolSpec,
  addresses: DevnetAddresses,
  vault: Contract,
  tokenOf: TokenOf,
): Promise<DevnetPool> {
  const owner = await deployer.getAddress();
  const main = tokenOf(spec.main);
  const wrapped = tokenOf(spec.wrapped);
  const factory = new Contract(addresses.erc4626LinearPoolFactory, balancerAbi('ERC4626LinearPoolFactory'), deployer);
  const upper = units(spec.upperTarget, 18);
  const receipt = await mined(
    factory.getFunction('create')(
      spec.name,
      spec.symbol,
      main.address,
      wrapped.address,
      upper,
      units(spec.swapFee, 18),
      owner,
      0n,
    ),
    `creating ${spec.name}`,
  );
  const pool = await created(factory, receipt, spec.name);
  const funds = { sender: owner, fromInternalBalance: false, recipient: owner, toInternalBalance: false };
  for (const [token, amount] of [
    [main, spec.mainBalance],
    [wrapped, spec.wrappedBalance],
  ] as const) {
    const single = {
      poolId: pool.id,
      kind: GIVEN_IN,
      assetIn: token.address,
      assetOut: pool.address,
      amount: units(amount, token.decimals),
      userData: '0x',
    };
    await mined(vault.getFunction('swap')(single, funds, 0n, MaxUint256), `seeding ${spec.name} with ${token.symbol}`);
  }
  const asPool = new Contract(
    pool.address,
    ['function setTargets(uint256 lowerTarget, uint256 upperTarget)'],
    deployer,
  );
  await mined(
    asPool.getFunction('setTargets')(units(spec.lowerTarget, 18), upper),
    `setting the targets of ${spec.name}`,
  );
  return {
    id: pool.id,
    address: pool.address,
    kind: 'linear',
    name: spec.name,
    symbol: spec.symbol,
    tokens: await vaultTokensOf(vault, pool.id),
  };
}

export interface DeployOptions {
  /** Accounts that receive TRADER_FUNDS of every token (and wrap WETH themselves). */
  readonly traders?: readonly Signer[];
  /** How the Balancer V3 side gets its build (a shared one, a cache folder, progress lines). */
  readonly v3?: Omit<DeployV3Options, 'traders'>;
}

export { DeployError };

/** The factories that joined the stack later: deployed right after the dev tokens (fixed nonces). */
async function deployLaterFactories(deployer: Signer, want: DevnetAddresses): Promise<void> {
  await deploy(
    deployer,
    balancerArtifact('StablePoolFactory'),
    [want.vault],
    'StablePoolFactory (v2)',
    want.stablePoolFactoryV2,
  );
  await deploy(
    deployer,
    balancerArtifact('ERC4626LinearPoolFactory'),
    [
      want.vault,
      want.protocolFeePercentagesProvider,
      want.balancerQueries,
      LINEAR_FACTORY_VERSION,
      LINEAR_POOL_VERSION,
      PAUSE_WINDOW,
      BUFFER_PERIOD,
    ],
    'ERC4626LinearPoolFactory',
    want.erc4626LinearPoolFactory,
  );
}

interface Deployed {
  readonly token: DevnetToken;
  readonly contract: Contract;
}

/** An ERC-4626 vault over a dev token with the deployer's deposit; the Vault may pull its shares. */
async function deployWrapped(
  deployer: Signer,
  spec: WrappedTokenSpec,
  asset: DevnetToken,
  deposit: bigint,
  vaultAddress: string,
): Promise<Deployed> {
  const artifact = devArtifact('DevERC4626');
  const contract = (await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(
    asset.address,
    spec.name,
    spec.symbol,
  )) as Contract;
  await contract.waitForDeployment();
  const address = (await contract.getAddress()).toLowerCase();
  await mined(
    new Contract(asset.address, ERC20_ABI, deployer).getFunction('approve')(address, MaxUint256),
    `approving ${spec.symbol} for ${asset.symbol}`,
  );
  await mined(
    contract.getFunction('deposit')(deposit, await deployer.getAddress()),
    `depositing ${asset.symbol} into ${spec.symbol}`,
  );
  await mined(contract.getFunction('approve')(vaultAddress, MaxUint256), `approving ${spec.symbol}`);
  // OpenZeppelin's ERC-4626 shares carry the asset's decimals.
  return { token: { symbol: spec.symbol, name: spec.name, decimals: asset.decimals, address }, contract };
}

/**
 * The vault behind a freshly seeded linear pool earns its yield: assets minted straight to it raise
 * the share price, so the wrapped token's rate and the linear pool's BPT rate rise above 1 before
 * any pool that holds that BPT caches its rate.
 */
async function accrueYield(spec: WrappedTokenSpec, wrapped: Deployed, asset: Deployed): Promise<void> {
  const assets = (await wrapped.contract.getFunction('totalAssets')()) as bigint;
  await mined(
    asset.contract.getFunction('mint')(wrapped.token.address, (assets * units(spec.yieldFraction, 18)) / 10n ** 18n),
    `${spec.symbol} earning yield`,
  );
}

/** wstETH every pool of universe.ts is seeded with, in smallest units. */
function wstEthSeed(): bigint {
  let total = 0n;
  for (const pool of DEV_POOLS)
    if (pool.kind !== 'linear')
      for (const t of pool.tokens) if (t.symbol === WSTETH_SYMBOL) total += units(t.balance, 18);
  return total;
}

/**
 * Lido on the devnet, from its own account (nonce 0 and 1, before the Balancer stack: the relayer
 * library reads wstETH.stETH() in its constructor): the admin stakes and reports a rebase, so the
 * ratio is not 1, every trader stakes ETH for stETH, and the deployer receives the wstETH the pools
 * are seeded with.
 */
async function deployLido(
  provider: Signer['provider'],
  deployer: string,
  traders: readonly Signer[],
): Promise<{ stETH: DevnetToken; wstETH: DevnetToken }> {
  const admin = withFixedGas(await signedByNode(devAccount(LIDO_ADMIN_INDEX, provider)));
  const nonce = await admin.getNonce();
  if (nonce !== 0)
    throw new DeployError(
      `Lido admin ${await admin.getAddress()} has nonce ${nonce}: the devnet must be deployed onto a fresh chain`,
    );
  const want = expectedLidoAddresses(await admin.getAddress());
  const stETH = await deploy(admin, devArtifact('DevStETH'), [], 'DevStETH', want.stETH);
  const wstETH = await deploy(admin, devArtifact('DevWstETH'), [want.stETH], 'DevWstETH', want.wstETH);
  await mined(stETH.getFunction('submit')(ZeroAddress, { value: units(LIDO.seedEth, 18) }), 'staking the Lido seed');
  await mined(stETH.getFunction('rebase')(units(LIDO.pooledEtherAfterRebase, 18)), 'rebasing stETH');
  for (const trader of traders) {
    await mined(
      (stETH.connect(trader) as Contract).getFunction('submit')(ZeroAddress, { value: units(LIDO.traderEth, 18) }),
      'a trader staking ETH for stETH',
    );
  }
  const seed = wstEthSeed();
  const stEthNeeded = ((await wstETH.getFunction('getStETHByWstETH')(seed)) as bigint) + 10n;
  await mined(stETH.getFunction('approve')(want.wstETH, MaxUint256), 'approving stETH for wstETH');
  await mined(wstETH.getFunction('wrap')(stEthNeeded), 'wrapping stETH for the pools');
  await mined(wstETH.getFunction('transfer')(deployer, seed), 'handing the deployer its wstETH');
  return {
    stETH: { symbol: STETH_SYMBOL, name: 'Liquid staked Ether 2.0 (devnet)', decimals: 18, address: want.stETH },
    wstETH: {
      symbol: WSTETH_SYMBOL,
      name: 'Wrapped liquid staked Ether 2.0 (devnet)',
      decimals: 18,
      address: want.wstETH,
    },
  };
}

/**
 * The liquidity bootstrapping pools and the tokens they sell, from their own account after
 * everything else (no other address moves): the factory at the account's nonce 0, the sale tokens
 * (it mints them), then each pool created with swaps enabled and seeded by its owner's INIT join.
 * WETH comes from the account's own ether; other tokens the pools pair with, from the deployer.
 */
async function deployLbps(
  deployer: Signer,
  addresses: DevnetAddresses,
  vault: Contract,
  traders: readonly Signer[],
  tokenOf: TokenOf,
  minted: ReadonlyMap<string, Deployed>,
): Promise<{ tokens: DevnetToken[]; pools: DevnetPool[] }> {
  const admin = withFixedGas(await signedByNode(devAccount(LBP_ADMIN_INDEX, deployer.provider)));
  const owner = await admin.getAddress();
  const nonce = await admin.getNonce();
  if (nonce !== 0)
    throw new DeployError(`LBP admin ${owner} has nonce ${nonce}: the devnet must be deployed onto a fresh chain`);
  const factory = await deploy(
    admin,
    balancerArtifact('NoProtocolFeeLiquidityBootstrappingPoolFactory'),
    [addresses.vault],
    'NoProtocolFeeLiquidityBootstrappingPoolFactory',
    addresses.liquidityBootstrappingPoolFactory,
  );
  const sale = new Map<string, Deployed>();
  const artifact = devArtifact('DevToken');
  for (const spec of SALE_TOKENS) {
    const contract = (await new ContractFactory(artifact.abi, artifact.bytecode, admin).deploy(
      spec.name,
      spec.symbol,
      spec.decimals,
    )) as Contract;
    await contract.waitForDeployment();
    const address = (await contract.getAddress()).toLowerCase();
    sale.set(spec.symbol, {
      token: { symbol: spec.symbol, name: spec.name, decimals: spec.decimals, address },
      contract,
    });
    for (const trader of traders)
      await mined(
        contract.getFunction('mint')(
          await trader.getAddress(),
          units(SALE_TRADER_FUNDS[spec.symbol] ?? '0', spec.decimals),
        ),
        `funding a trader with ${spec.symbol}`,
      );
  }
  const symbolToken = (symbol: string) => sale.get(symbol)?.token ?? tokenOf(symbol);
  const pools: DevnetPool[] = [];
  for (const spec of LBP_POOLS) {
    const entries = spec.tokens
      .map((t) => ({ ...t, token: symbolToken(t.symbol) }))
      .sort((a, b) => (a.token.address < b.token.address ? -1 : 1));
    for (const e of entries) {
      const amount = units(e.balance, e.token.decimals);
      if (e.token.address === addresses.weth) {
        const weth = new Contract(addresses.weth, ['function deposit() payable'], admin);
        await mined(weth.getFunction('deposit')({ value: amount }), `wrapping ETH for ${spec.name}`);
      } else {
        const minter = sale.get(e.symbol)?.contract ?? minted.get(e.symbol)?.contract;
        if (!minter) throw new DeployError(`${spec.name}: no way to mint ${e.symbol}`);
        await mined(minter.getFunction('mint')(owner, amount), `minting ${e.symbol} for ${spec.name}`);
      }
      await mined(
        new Contract(e.token.address, ERC20_ABI, admin).getFunction('approve')(addresses.vault, MaxUint256),
        `approving ${e.symbol} for ${spec.name}`,
      );
    }
    const tokenAddresses = entries.map((e) => e.token.address);
    const receipt = await mined(
      (factory.connect(admin) as Contract).getFunction('create')(
        spec.name,
        spec.symbol,
        tokenAddresses,
        entries.map((e) => units(e.weight, 18)),
        units(spec.swapFee, 18),
        owner,
        true,
      ),
      `creating ${spec.name}`,
    );
    const pool = await created(factory, receipt, spec.name);
    const amounts = entries.map((e) => units(e.balance, e.token.decimals));
    await mined(
      (vault.connect(admin) as Contract).getFunction('joinPool')(pool.id, owner, owner, {
        assets: tokenAddresses,
        maxAmountsIn: amounts,
        userData: AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256[]'], [JOIN_KIND_INIT, amounts]),
        fromInternalBalance: false,
      }),
      `seeding ${spec.name}`,
    );
    pools.push({
      id: pool.id,
      address: pool.address,
      kind: 'liquidityBootstrapping',
      name: spec.name,
      symbol: spec.symbol,
      tokens: tokenAddresses,
    });
  }
  return { tokens: [...sale.values()].map((d) => d.token), pools };
}

export async function deployDevnet(given: Signer, options: DeployOptions = {}): Promise<Devnet> {
  const signer = await signedByNode(given);
  const givenTraders = await Promise.all((options.traders ?? []).map(signedByNode));
  // The follower's reads go through Multicall3 (its column in config/chains.ts), as on a real chain.
  await installMulticall3(signer.provider as unknown as Parameters<typeof installMulticall3>[0]);
  const deployer = withFixedGas(signer);
  const lidoTraders = givenTraders.map(withFixedGas);
  const lido = await deployLido(signer.provider, await signer.getAddress(), lidoTraders);
  const { addresses, vault, weth } = await deployStack(deployer);
  const deployed = await deployTokens(deployer);
  await deployLaterFactories(deployer, addresses);
  const wethToken: DevnetToken = { symbol: WETH_SYMBOL, name: 'Wrapped Ether', decimals: 18, address: addresses.weth };
  const wrappedTokens = new Map<string, Deployed>();
  const pools: DevnetPool[] = [];
  const tokenOf = (symbol: string): DevnetToken => {
    if (symbol === WETH_SYMBOL) return wethToken;
    if (symbol === STETH_SYMBOL) return lido.stETH;
    if (symbol === WSTETH_SYMBOL) return lido.wstETH;
    const t = deployed.get(symbol) ?? wrappedTokens.get(symbol);
    if (t) return t.token;
    const pool = pools.find((p) => p.symbol === symbol);
    if (pool) return { symbol, name: pool.name, decimals: 18, address: pool.address };
    throw new DeployError(
      `universe.ts names unknown token ${symbol} (a pool's BPT must be created before a pool that holds it)`,
    );
  };
  const from = await deployer.getAddress();
  const traders = givenTraders.map(withFixedGas);

  const need = seedNeeds((s) => tokenOf(s).decimals, traders.length);
  await mined(weth.getFunction('deposit')({ value: need.get(WETH_SYMBOL) ?? 0n }), 'wrapping seed ETH');
  await mined(weth.getFunction('approve')(addresses.vault, MaxUint256), 'approving WETH');
  for (const [symbol, { token, contract }] of deployed) {
    await mined(contract.getFunction('mint')(from, need.get(symbol) ?? 0n), `minting ${symbol}`);
    await mined(contract.getFunction('approve')(addresses.vault, MaxUint256), `approving ${symbol}`);
    for (const trader of traders) {
      await mined(
        contract.getFunction('mint')(await trader.getAddress(), units(TRADER_FUNDS[symbol] ?? '0', token.decimals)),
        `funding a trader with ${symbol}`,
      );
    }
  }
  for (const trader of traders) {
    const asTrader = weth.connect(trader) as Contract;
    await mined(
      asTrader.getFunction('deposit')({ value: units(TRADER_FUNDS[WETH_SYMBOL] ?? '0', 18) }),
      'wrapping trader ETH',
    );
  }
  for (const spec of WRAPPED_TOKENS) {
    const asset = tokenOf(spec.asset);
    wrappedTokens.set(
      spec.symbol,
      await deployWrapped(deployer, spec, asset, wrappedDeposit(spec, asset.decimals, traders.length), addresses.vault),
    );
  }

  // After the deployer's last contract creation, so no address above moves.
  await mined(
    new Contract(lido.wstETH.address, ERC20_ABI, deployer).getFunction('approve')(addresses.vault, MaxUint256),
    'approving wstETH',
  );

  for (const spec of DEV_POOLS) {
    if (spec.kind === 'linear') {
      pools.push(await createLinearPool(deployer, spec, addresses, vault, tokenOf));
      const wrapped = WRAPPED_TOKENS.find((w) => w.symbol === spec.wrapped);
      const asset = deployed.get(spec.main);
      if (!wrapped || !asset) throw new DeployError(`${spec.name}: ${spec.wrapped} is not a vault over ${spec.main}`);
      await accrueYield(wrapped, wrappedTokens.get(spec.wrapped)!, asset);
    } else {
      pools.push(
        await createJoinedPool(deployer, spec, addresses, vault, tokenOf, (address) =>
          pools.some((p) => p.address === address),
        ),
      );
    }
  }

  // Traders' vault shares and BPT come from what the deployer deposited and seeded.
  for (const [symbol, amount] of Object.entries(TRADER_FUNDS)) {
    if (symbol === WETH_SYMBOL || deployed.has(symbol)) continue;
    const token = tokenOf(symbol);
    const contract = new Contract(token.address, ERC20_ABI, deployer);
    for (const trader of traders)
      await mined(
        contract.getFunction('transfer')(await trader.getAddress(), units(amount, token.decimals)),
        `funding a trader with ${symbol}`,
      );
  }
  // Last: the LBP account's own addresses and the pools of another factory move nothing above.
  const lbps = await deployLbps(deployer, addresses, vault, traders, tokenOf, deployed);
  pools.push(...lbps.pools);
  const tokens = [
    wethToken,
    ...[...deployed.values(), ...wrappedTokens.values()].map((d) => d.token),
    lido.stETH,
    lido.wstETH,
    ...lbps.tokens,
  ];
  // Balancer V3 from its own account, after everything above: no V2 address moves.
  const v3 = await deployBalancerV3(
    deployer.provider!,
    {
      authorizer: addresses.authorizer,
      weth: addresses.weth,
      tokenOf,
      mint: async (symbol, to, amount) => {
        const minter = deployed.get(symbol)?.contract;
        if (!minter) throw new DeployError(`Balancer V3 needs ${symbol}, which the deployer cannot mint`);
        await mined(minter.getFunction('mint')(to, amount), `minting ${symbol} for Balancer V3`);
      },
    },
    { ...options.v3, traders },
  );
  return { chainId: Number((await deployer.provider!.getNetwork()).chainId), addresses, tokens, pools, v3 };
}
