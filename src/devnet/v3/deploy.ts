import { Contract, Provider, Signer, ZeroAddress, ZeroHash, parseUnits } from 'ethers';
import { devAccount, signedByNode, V3_ADMIN_INDEX } from '../accounts';
import { devArtifact } from '../artifacts';
import { deploy, DeployError, mined, withFixedGas } from '../deployTools';
import type { DevnetToken, DevnetV3, DevnetV3Addresses, DevnetV3Buffer, DevnetV3Pool } from '../devnet';
import { compileBalancerV3, CompileOptions, V3Contracts } from './compile';
import { v3Abi, v3Artifact } from './artifacts';
import { expectedV3Addresses, expectedV3WrappedAddresses } from './devnetV3';
import { createLbps, deployLbpFactories, lbpSeeds } from './lbps';
import { approveThroughPermit2 } from './permit2';
import {
  V3_FACTORY_PAUSE_WINDOW,
  V3_POOLS,
  V3_PROTOCOL_FEES,
  V3_TRADER_FUNDS,
  V3_VAULT_SETTINGS,
  V3_WRAPPED_BEFORE_LBP_FACTORIES,
  V3_WRAPPED_TOKENS,
  V3PoolSpec,
  V3WrappedTokenSpec,
} from './universe';

/**
 * Deploys Balancer V3 onto a devnet whose V2 side (tokens, WETH, the Authorizer) is in place, from
 * the V3 admin account (fixed nonces): Permit2, the Vault with its extension, admin and protocol
 * fee controller (global fees on), the routers, the explorer and the weighted and stable factories;
 * then ERC-4626 tokens with rate providers, the LBP factories (`lbps.ts`), the Vault buffers, the
 * pools and token sales of universe.ts, all
 * seeded the way a user does it: the token approves Permit2, Permit2 approves the router, the router
 * initialises. The V3 Vault answers to the V2 Authorizer, as on mainnet.
 */

/** What the V2 side lends: its Authorizer and WETH, its tokens and who may mint them. */
export interface V2Side {
  readonly authorizer: string;
  readonly weth: string;
  tokenOf(symbol: string): DevnetToken;
  /** Mints a dev token to `to` (only the V2 deployer may). */
  mint(symbol: string, to: string, amount: bigint): Promise<void>;
}

export interface DeployV3Options extends CompileOptions {
  /** Accounts that receive V3_TRADER_FUNDS. */
  readonly traders?: readonly Signer[];
  /**
   * A build at hand or under way (the demo starts compiling before the V2 side deploys);
   * compiled or read from the cache here otherwise.
   */
  readonly contracts?: V3Contracts | Promise<V3Contracts>;
}

/** Version strings as the contracts report them (the deployments' JSON convention). */
const version = (name: string, v: number) => JSON.stringify({ name, version: v, deployment: 'devnet-v3' });

const units = (amount: string, decimals: number) => parseUnits(amount, decimals);
const ERC20 = [
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
];

interface Stack {
  readonly addresses: DevnetV3Addresses;
  readonly router: Contract;
  readonly bufferRouter: Contract;
}

async function deployStack(admin: Signer, contracts: V3Contracts, v2: V2Side): Promise<Stack> {
  const from = await admin.getAddress();
  const nonce = await admin.getNonce();
  if (nonce !== 0)
    throw new DeployError(`V3 admin ${from} has nonce ${nonce}: the devnet must be deployed onto a fresh chain`);
  const want = expectedV3Addresses(from);
  const a = (name: Parameters<typeof v3Artifact>[1]) => v3Artifact(contracts, name);
  await deploy(admin, a('Permit2'), [], 'Permit2', want.permit2);
  const s = V3_VAULT_SETTINGS;
  await deploy(
    admin,
    a('VaultAdmin'),
    [want.vault, s.pauseWindowDuration, s.bufferPeriodDuration, s.minTradeAmount, s.minWrapAmount],
    'VaultAdmin',
    want.vaultAdmin,
  );
  await deploy(admin, a('VaultExtension'), [want.vault, want.vaultAdmin], 'VaultExtension', want.vaultExtension);
  await deploy(
    admin,
    a('ProtocolFeeController'),
    [want.vault, units(V3_PROTOCOL_FEES.swap, 18), units(V3_PROTOCOL_FEES.yield, 18)],
    'ProtocolFeeController',
    want.protocolFeeController,
  );
  await deploy(
    admin,
    a('Vault'),
    [want.vaultExtension, v2.authorizer, want.protocolFeeController],
    'Vault',
    want.vault,
  );
  const routerArgs = (name: string) => [want.vault, v2.weth, want.permit2, version(name, 1)];
  const router = await deploy(admin, a('Router'), routerArgs('Router'), 'Router', want.router);
  await deploy(admin, a('BatchRouter'), routerArgs('BatchRouter'), 'BatchRouter', want.batchRouter);
  const bufferRouter = await deploy(
    admin,
    a('BufferRouter'),
    routerArgs('BufferRouter'),
    'BufferRouter',
    want.bufferRouter,
  );
  await deploy(admin, a('VaultExplorer'), [want.vault], 'VaultExplorer', want.vaultExplorer);
  await deploy(
    admin,
    a('WeightedPoolFactory'),
    [want.vault, V3_FACTORY_PAUSE_WINDOW, version('WeightedPoolFactory', 1), version('WeightedPool', 1)],
    'WeightedPoolFactory',
    want.weightedPoolFactory,
  );
  await deploy(
    admin,
    a('StablePoolFactory'),
    [want.vault, V3_FACTORY_PAUSE_WINDOW, version('StablePoolFactory', 1), version('StablePool', 1)],
    'StablePoolFactory',
    want.stablePoolFactory,
  );
  return { addresses: want, router, bufferRouter };
}

interface Wrapped {
  readonly spec: V3WrappedTokenSpec;
  readonly token: DevnetToken;
  readonly rateProvider: string;
  readonly contract: Contract;
}

/** Shares the V3 admin deposits for: the pools, the buffer and the traders. */
function wrappedNeed(spec: V3WrappedTokenSpec, decimals: number, traders: number): bigint {
  let total = units(spec.buffer.wrapped, decimals);
  total += units(V3_TRADER_FUNDS[spec.symbol] ?? '0', decimals) * BigInt(traders);
  for (const pool of V3_POOLS)
    for (const t of pool.tokens) if (t.symbol === spec.symbol) total += units(t.balance, decimals);
  return total;
}

/** The ERC-4626 tokens `first` to `end` (exclusive) and their rate providers, at their fixed nonces. */
async function createWrapped(admin: Signer, v2: V2Side, first: number, end: number): Promise<Wrapped[]> {
  const want = expectedV3WrappedAddresses(await admin.getAddress());
  const out: Wrapped[] = [];
  for (const [i, spec] of V3_WRAPPED_TOKENS.entries()) {
    if (i < first || i >= end) continue;
    const asset = v2.tokenOf(spec.asset);
    const contract = await deploy(
      admin,
      devArtifact('DevERC4626'),
      [asset.address, spec.name, spec.symbol],
      spec.symbol,
      want[i]!.wrapped,
    );
    await deploy(
      admin,
      devArtifact('DevERC4626RateProvider'),
      [want[i]!.wrapped],
      `${spec.symbol} rate provider`,
      want[i]!.rateProvider,
    );
    out.push({
      spec,
      // OpenZeppelin's ERC-4626 shares carry the asset's decimals.
      token: { symbol: spec.symbol, name: spec.name, decimals: asset.decimals, address: want[i]!.wrapped },
      rateProvider: want[i]!.rateProvider,
      contract,
    });
  }
  return out;
}

/**
 * The admin's deposit into each ERC-4626 token, after every contract the admin creates: their
 * nonces must not depend on what else is sent.
 */
async function depositWrapped(admin: Signer, v2: V2Side, out: readonly Wrapped[], traders: number): Promise<void> {
  const from = await admin.getAddress();
  for (const w of out) {
    const asset = v2.tokenOf(w.spec.asset);
    const deposit = wrappedNeed(w.spec, asset.decimals, traders);
    await obtain(admin, v2, w.spec.asset, from, deposit);
    await mined(
      new Contract(asset.address, ERC20, admin).getFunction('approve')(w.token.address, deposit),
      `approving ${w.spec.symbol} for ${asset.symbol}`,
    );
    await mined(w.contract.getFunction('deposit')(deposit, from), `depositing ${asset.symbol} into ${w.spec.symbol}`);
  }
}

/** The pool's tokens sorted as the Vault registers them, with their seed amounts and configs. */
function poolEntries(spec: V3PoolSpec, tokenOf: (symbol: string) => DevnetToken, wrapped: readonly Wrapped[]) {
  return spec.tokens
    .map((t) => {
      const token = tokenOf(t.symbol);
      const w = wrapped.find((x) => x.token.address === token.address);
      return {
        token,
        balance: units(t.balance, token.decimals),
        weight: 'weight' in t ? units(t.weight as string, 18) : 0n,
        // An ERC-4626 token is priced by its rate provider and pays the yield fee, as boosted pools do.
        config: w
          ? { token: token.address, tokenType: 1, rateProvider: w.rateProvider, paysYieldFees: true }
          : { token: token.address, tokenType: 0, rateProvider: ZeroAddress, paysYieldFees: false },
      };
    })
    .sort((x, y) => (x.token.address < y.token.address ? -1 : 1));
}

async function createPool(
  admin: Signer,
  contracts: V3Contracts,
  stack: Stack,
  spec: V3PoolSpec,
  tokenOf: (symbol: string) => DevnetToken,
  wrapped: readonly Wrapped[],
): Promise<DevnetV3Pool> {
  const entries = poolEntries(spec, tokenOf, wrapped);
  const roles = { pauseManager: ZeroAddress, swapFeeManager: ZeroAddress, poolCreator: ZeroAddress };
  const fee = units(spec.swapFee, 18);
  const factory =
    spec.kind === 'weighted'
      ? new Contract(stack.addresses.weightedPoolFactory, v3Abi(contracts, 'WeightedPoolFactory'), admin)
      : new Contract(stack.addresses.stablePoolFactory, v3Abi(contracts, 'StablePoolFactory'), admin);
  const configs = entries.map((e) => e.config);
  const salt = ZeroHash;
  const receipt =
    spec.kind === 'weighted'
      ? await mined(
          factory.getFunction('create')(
            spec.name,
            spec.symbol,
            configs,
            entries.map((e) => e.weight),
            roles,
            fee,
            ZeroAddress,
            false,
            false,
            salt,
          ),
          `creating ${spec.name}`,
        )
      : await mined(
          factory.getFunction('create')(
            spec.name,
            spec.symbol,
            configs,
            spec.amp,
            roles,
            fee,
            ZeroAddress,
            false,
            false,
            salt,
          ),
          `creating ${spec.name}`,
        );
  const event = receipt.logs.map((l) => factory.interface.parseLog(l)).find((l) => l?.name === 'PoolCreated');
  if (!event) throw new DeployError(`${spec.name}: factory emitted no PoolCreated`);
  const address = String(event.args[0]).toLowerCase();
  const tokens = entries.map((e) => e.token.address);
  await mined(
    stack.router.getFunction('initialize')(
      address,
      tokens,
      entries.map((e) => e.balance),
      0n,
      false,
      '0x',
    ),
    `initialising ${spec.name}`,
  );
  return { address, kind: spec.kind, name: spec.name, symbol: spec.symbol, tokens };
}

/** `amount` of a token for `to`: WETH wrapped from the admin's own ether, dev tokens minted by the V2 deployer. */
async function obtain(admin: Signer, v2: V2Side, symbol: string, to: string, amount: bigint): Promise<void> {
  if (v2.tokenOf(symbol).address !== v2.weth) return v2.mint(symbol, to, amount);
  const weth = new Contract(v2.weth, ['function deposit() payable', ...ERC20], admin);
  await mined(weth.getFunction('deposit')({ value: amount }), `wrapping ETH for Balancer V3`);
  if (to !== (await admin.getAddress())) await mined(weth.getFunction('transfer')(to, amount), 'sending WETH');
}

/** What the pools, LBP seeds and buffers take, for the admin. */
async function fundAdmin(admin: Signer, v2: V2Side): Promise<void> {
  const from = await admin.getAddress();
  const need = new Map<string, bigint>();
  for (const t of [...V3_POOLS.flatMap((p) => p.tokens), ...lbpSeeds()]) {
    if (V3_WRAPPED_TOKENS.some((w) => w.symbol === t.symbol)) continue;
    need.set(t.symbol, (need.get(t.symbol) ?? 0n) + units(t.balance, v2.tokenOf(t.symbol).decimals));
  }
  for (const w of V3_WRAPPED_TOKENS) {
    const decimals = v2.tokenOf(w.asset).decimals;
    need.set(w.asset, (need.get(w.asset) ?? 0n) + units(w.buffer.underlying, decimals));
  }
  for (const [symbol, amount] of need) await obtain(admin, v2, symbol, from, amount);
}

/** Yield the vault earns: its asset minted straight to it raises the share price. */
async function accrueYield(admin: Signer, w: Wrapped, v2: V2Side): Promise<void> {
  const assets = (await w.contract.getFunction('totalAssets')()) as bigint;
  await obtain(admin, v2, w.spec.asset, w.token.address, (assets * units(w.spec.yieldFraction, 18)) / 10n ** 18n);
}

export async function deployBalancerV3(
  provider: Provider,
  v2: V2Side,
  options: DeployV3Options = {},
): Promise<DevnetV3> {
  const contracts = await (options.contracts ?? compileBalancerV3(options));
  const admin = withFixedGas(await signedByNode(devAccount(V3_ADMIN_INDEX, provider)));
  const traders = await Promise.all((options.traders ?? []).map(signedByNode));
  const stack = await deployStack(admin, contracts, v2);
  const wrapped = await createWrapped(admin, v2, 0, V3_WRAPPED_BEFORE_LBP_FACTORIES);
  await deployLbpFactories(admin, contracts, stack.addresses);
  wrapped.push(...(await createWrapped(admin, v2, V3_WRAPPED_BEFORE_LBP_FACTORIES, V3_WRAPPED_TOKENS.length)));
  await depositWrapped(admin, v2, wrapped, traders.length);
  await fundAdmin(admin, v2);
  const tokenOf = (symbol: string) => wrapped.find((w) => w.spec.symbol === symbol)?.token ?? v2.tokenOf(symbol);

  const routed = new Set<string>();
  for (const t of [...V3_POOLS.flatMap((p) => p.tokens), ...lbpSeeds()]) routed.add(tokenOf(t.symbol).address);
  for (const token of routed)
    await approveThroughPermit2(admin, stack.addresses.permit2, token, stack.addresses.router);

  const buffers: DevnetV3Buffer[] = [];
  for (const w of wrapped) {
    const underlying = v2.tokenOf(w.spec.asset);
    for (const token of [underlying.address, w.token.address])
      await approveThroughPermit2(admin, stack.addresses.permit2, token, stack.addresses.bufferRouter);
    await mined(
      stack.bufferRouter.getFunction('initializeBuffer')(
        w.token.address,
        units(w.spec.buffer.underlying, underlying.decimals),
        units(w.spec.buffer.wrapped, w.token.decimals),
        0n,
      ),
      `initialising the ${w.spec.symbol} buffer`,
    );
    buffers.push({
      symbol: w.spec.symbol,
      wrapped: w.token.address,
      underlying: underlying.address,
      rateProvider: w.rateProvider,
    });
  }

  const pools: DevnetV3Pool[] = [];
  for (const spec of V3_POOLS) pools.push(await createPool(admin, contracts, stack, spec, tokenOf, wrapped));
  pools.push(
    ...(await createLbps({ admin, provider, contracts, addresses: stack.addresses, router: stack.router, tokenOf })),
  );
  // After the buffers and pools hold their shares: the rate rises, the pool owes a yield fee.
  for (const w of wrapped) await accrueYield(admin, w, v2);

  for (const [symbol, amount] of Object.entries(V3_TRADER_FUNDS)) {
    const token = tokenOf(symbol);
    const contract = new Contract(token.address, ERC20, admin);
    for (const trader of traders)
      await mined(
        contract.getFunction('transfer')(await trader.getAddress(), units(amount, token.decimals)),
        `funding a trader with ${symbol}`,
      );
  }
  if ((await provider.getCode(stack.addresses.vault)) === '0x') throw new DeployError('the V3 Vault has no code');
  return { addresses: stack.addresses, tokens: wrapped.map((w) => w.token), buffers, pools };
}
