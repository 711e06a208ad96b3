import {
  AbiCoder, Contract, ContractFactory, ContractTransactionResponse, MaxUint256, Signer, ZeroAddress, id, parseUnits,
} from 'ethers';
import { Artifact, balancerAbi, balancerArtifact, devArtifact, weightedPoolFactoryV1 } from './artifacts';
import { Devnet, DevnetAddresses, DevnetPool, DevnetToken, expectedAddresses } from './devnet';
import { DEV_POOLS, DEV_TOKENS, PoolSpec, TRADER_FUNDS, WETH_SYMBOL } from './universe';

/**
 * Deploys the real Balancer V2 stack and the pool universe of universe.ts onto a fresh chain, from
 * one deployer whose nonce must be 0 (that is what makes the addresses fixed), and funds traders.
 */

const DAY = 24 * 3600;
const PAUSE_WINDOW = 90 * DAY;
const BUFFER_PERIOD = 30 * DAY;
const MAX_YIELD_FEE = parseUnits('0.5', 18);
const MAX_AUM_FEE = parseUnits('0.5', 18);
const CSP_FACTORY_VERSION = JSON.stringify({ name: 'ComposableStablePoolFactory', version: 3, deployment: '20230206-composable-stable-pool-v3' });
const CSP_POOL_VERSION = JSON.stringify({ name: 'ComposableStablePool', version: 3, deployment: '20230206-composable-stable-pool-v3' });
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

export class DeployError extends Error {}

async function mined(tx: Promise<ContractTransactionResponse>, what: string) {
  const receipt = await (await tx).wait();
  if (!receipt || receipt.status !== 1) throw new DeployError(`${what}: transaction failed`);
  return receipt;
}

async function deploy(signer: Signer, artifact: Artifact, args: unknown[], what: string, expected: string): Promise<Contract> {
  const contract = await new ContractFactory(artifact.abi, artifact.bytecode, signer).deploy(...args);
  await contract.waitForDeployment();
  const address = (await contract.getAddress()).toLowerCase();
  if (address !== expected) throw new DeployError(`${what} landed at ${address}, expected ${expected}: was the deployer's nonce not 0?`);
  return contract as Contract;
}

function units(amount: string, decimals: number): bigint {
  return parseUnits(amount, decimals);
}

async function deployStack(deployer: Signer): Promise<{ addresses: DevnetAddresses; vault: Contract; weth: Contract }> {
  const from = await deployer.getAddress();
  const nonce = await deployer.getNonce();
  if (nonce !== 0) throw new DeployError(`deployer ${from} has nonce ${nonce}: the devnet must be deployed onto a fresh chain`);
  const want = expectedAddresses(from);

  const weth = await deploy(deployer, devArtifact('WETH9'), [], 'WETH9', want.weth);
  const authorizer = await deploy(deployer, balancerArtifact('Authorizer'), [from], 'Authorizer', want.authorizer);
  const vault = await deploy(deployer, balancerArtifact('Vault'), [want.authorizer, want.weth, PAUSE_WINDOW, BUFFER_PERIOD], 'Vault', want.vault);
  await deploy(deployer, balancerArtifact('ProtocolFeePercentagesProvider'), [want.vault, MAX_YIELD_FEE, MAX_AUM_FEE], 'ProtocolFeePercentagesProvider', want.protocolFeePercentagesProvider);
  await deploy(deployer, balancerArtifact('WeightedPoolFactory'), [want.vault, want.protocolFeePercentagesProvider], 'WeightedPoolFactory', want.weightedPoolFactory);
  await deploy(
    deployer, balancerArtifact('ComposableStablePoolFactory'),
    [want.vault, want.protocolFeePercentagesProvider, CSP_FACTORY_VERSION, CSP_POOL_VERSION],
    'ComposableStablePoolFactory', want.composableStablePoolFactory,
  );
  await deploy(deployer, balancerArtifact('BalancerQueries'), [want.vault], 'BalancerQueries', want.balancerQueries);
  const library = await deploy(deployer, balancerArtifact('BatchRelayerLibrary'), [want.vault, ZeroAddress, ZeroAddress], 'BatchRelayerLibrary', want.batchRelayerLibrary);
  const relayer = String(await library.getFunction('getEntrypoint')()).toLowerCase();
  if (relayer !== want.batchRelayer) throw new DeployError(`relayer is ${relayer}, expected ${want.batchRelayer}`);

  const actionIds: string[] = [];
  for (const signature of RELAYER_ACTIONS) actionIds.push(await vault.getFunction('getActionId')(id(signature).slice(0, 10)));
  await mined(authorizer.getFunction('grantRoles')(actionIds, relayer), 'granting the relayer its Vault actions');
  await deploy(deployer, weightedPoolFactoryV1(), [want.vault], 'WeightedPoolFactory (v1)', want.weightedPoolFactoryV1);
  return { addresses: want, vault, weth };
}

async function deployTokens(deployer: Signer): Promise<Map<string, { token: DevnetToken; contract: Contract }>> {
  const out = new Map<string, { token: DevnetToken; contract: Contract }>();
  for (const spec of DEV_TOKENS) {
    const contract = (await new ContractFactory(devArtifact('DevToken').abi, devArtifact('DevToken').bytecode, deployer).deploy(spec.name, spec.symbol, spec.decimals)) as Contract;
    await contract.waitForDeployment();
    const address = (await contract.getAddress()).toLowerCase();
    out.set(spec.symbol, { token: { symbol: spec.symbol, name: spec.name, decimals: spec.decimals, address }, contract });
  }
  return out;
}

/** Sums what the deployer must hold to seed every pool, per symbol, in smallest units. */
function seedNeeds(decimalsOf: (symbol: string) => number): Map<string, bigint> {
  const need = new Map<string, bigint>();
  for (const pool of DEV_POOLS) {
    for (const t of pool.tokens) need.set(t.symbol, (need.get(t.symbol) ?? 0n) + units(t.balance, decimalsOf(t.symbol)));
  }
  return need;
}

async function createPool(deployer: Signer, spec: PoolSpec, addresses: DevnetAddresses, vault: Contract, tokenOf: (symbol: string) => DevnetToken): Promise<DevnetPool> {
  const owner = await deployer.getAddress();
  // The Vault requires pool tokens sorted by address (BAL#101 otherwise).
  const entries = spec.tokens.map((t) => ({ ...t, token: tokenOf(t.symbol) })).sort((a, b) => (a.token.address < b.token.address ? -1 : 1));
  const tokenAddresses = entries.map((e) => e.token.address);
  const fee = units(spec.swapFee, 18);
  const rateProviders = entries.map(() => ZeroAddress);
  let receipt;
  let factory: Contract;
  if (spec.kind === 'weighted' && spec.factoryVersion === 1) {
    factory = new Contract(addresses.weightedPoolFactoryV1, weightedPoolFactoryV1().abi, deployer);
    const weights = entries.map((e) => units((e as { weight: string }).weight, 18));
    receipt = await mined(factory.getFunction('create')(spec.name, spec.symbol, tokenAddresses, weights, fee, owner), `creating ${spec.name}`);
  } else if (spec.kind === 'weighted') {
    factory = new Contract(addresses.weightedPoolFactory, balancerAbi('WeightedPoolFactory'), deployer);
    const weights = entries.map((e) => units((e as { weight: string }).weight, 18));
    receipt = await mined(factory.getFunction('create')(spec.name, spec.symbol, tokenAddresses, weights, rateProviders, fee, owner), `creating ${spec.name}`);
  } else {
    factory = new Contract(addresses.composableStablePoolFactory, balancerAbi('ComposableStablePoolFactory'), deployer);
    receipt = await mined(
      factory.getFunction('create')(spec.name, spec.symbol, tokenAddresses, spec.amp, rateProviders, entries.map(() => 0), entries.map(() => false), fee, owner),
      `creating ${spec.name}`,
    );
  }
  const created = receipt.logs.map((l) => factory.interface.parseLog(l)).find((l) => l?.name === 'PoolCreated');
  if (!created) throw new DeployError(`${spec.name}: factory emitted no PoolCreated`);
  const poolAddress = String(created.args[0]).toLowerCase();
  const pool = new Contract(poolAddress, ['function getPoolId() view returns (bytes32)'], deployer);
  const poolId = String(await pool.getFunction('getPoolId')());

  // INIT join. A composable stable pool also lists its own BPT: a placeholder amount there, and
  // an unlimited maximum because the pool mints its pre-minted supply into the Vault.
  const [registered] = (await vault.getFunction('getPoolTokens')(poolId)) as [string[]];
  const vaultTokens = [...registered].map((a) => a.toLowerCase());
  const amountOf = (address: string): bigint => {
    const e = entries.find((x) => x.token.address === address);
    return e ? units(e.balance, e.token.decimals) : 0n;
  };
  const amounts = vaultTokens.map(amountOf);
  const maxAmounts = vaultTokens.map((a) => (a === poolAddress ? MaxUint256 : amountOf(a)));
  const userData = AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256[]'], [JOIN_KIND_INIT, amounts]);
  await mined(
    vault.getFunction('joinPool')(poolId, owner, owner, { assets: vaultTokens, maxAmountsIn: maxAmounts, userData, fromInternalBalance: false }),
    `seeding ${spec.name}`,
  );
  return { id: poolId.toLowerCase(), address: poolAddress, kind: spec.kind, name: spec.name, tokens: vaultTokens };
}

export interface DeployOptions {
  /** Accounts that receive TRADER_FUNDS of every token (and wrap WETH themselves). */
  readonly traders?: readonly Signer[];
}

export async function deployDevnet(deployer: Signer, options: DeployOptions = {}): Promise<Devnet> {
  const { addresses, vault, weth } = await deployStack(deployer);
  const deployed = await deployTokens(deployer);
  const wethToken: DevnetToken = { symbol: WETH_SYMBOL, name: 'Wrapped Ether', decimals: 18, address: addresses.weth };
  const tokenOf = (symbol: string): DevnetToken => {
    if (symbol === WETH_SYMBOL) return wethToken;
    const t = deployed.get(symbol);
    if (!t) throw new DeployError(`universe.ts names unknown token ${symbol}`);
    return t.token;
  };
  const from = await deployer.getAddress();

  const need = seedNeeds((s) => tokenOf(s).decimals);
  await mined(weth.getFunction('deposit')({ value: need.get(WETH_SYMBOL) ?? 0n }), 'wrapping seed ETH');
  await mined(weth.getFunction('approve')(addresses.vault, MaxUint256), 'approving WETH');
  for (const [symbol, { token, contract }] of deployed) {
    await mined(contract.getFunction('mint')(from, need.get(symbol) ?? 0n), `minting ${symbol}`);
    await mined(contract.getFunction('approve')(addresses.vault, MaxUint256), `approving ${symbol}`);
    for (const trader of options.traders ?? []) {
      await mined(contract.getFunction('mint')(await trader.getAddress(), units(TRADER_FUNDS[symbol] ?? '0', token.decimals)), `funding a trader with ${symbol}`);
    }
  }
  for (const trader of options.traders ?? []) {
    const asTrader = weth.connect(trader) as Contract;
    await mined(asTrader.getFunction('deposit')({ value: units(TRADER_FUNDS[WETH_SYMBOL] ?? '0', 18) }), 'wrapping trader ETH');
  }

  const pools: DevnetPool[] = [];
  for (const spec of DEV_POOLS) pools.push(await createPool(deployer, spec, addresses, vault, tokenOf));
  return { chainId: Number((await deployer.provider!.getNetwork()).chainId), addresses, tokens: [wethToken, ...[...deployed.values()].map((d) => d.token)], pools };
}
