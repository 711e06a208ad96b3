import {
  AbiCoder,
  Contract,
  ContractFactory,
  id as keccakId,
  MaxUint256,
  ZeroAddress,
  type InterfaceAbi,
  type Signer,
} from 'ethers';
import { devAccount, signedByNode, traderAccounts } from '../../src/devnet/accounts';
import { balancerAbi, balancerArtifact } from '../../src/devnet/artifacts';
import { deployDevnet } from '../../src/devnet/deploy';
import type { Devnet } from '../../src/devnet/devnet';
import { serveChain, startInProcessChain, type LocalChain } from '../../src/devnet/localChain';
import { unitsToDecimal } from '../../src/domain/decimal';
import type { LinearSpec } from '../../src/domain/poolTypes/linear/linearParams';
import type { WeightedSpec } from '../../src/domain/poolTypes/weighted/weightedParams';
import { Revert, type SwapKind } from '../../src/domain/swap/poolModel';

/**
 * The real Balancer contracts on an in-process chain for the pool-model tests: the devnet (its
 * Vault, BalancerQueries and pools), plus pool factories of other generations deployed from
 * @balancer-labs/v2-deployments' audited builds. Every answer a test compares with comes from the
 * contracts through BalancerQueries (the Vault's own query path).
 */
export interface ChainPools {
  readonly chain: LocalChain;
  readonly devnet: Devnet;
  readonly deployer: Signer;
  readonly owner: string;
  readonly vault: Contract;
  readonly queries: Contract;
  close(): Promise<void>;
}

/** `serve`: also on a loopback JSON-RPC port (`chain.rpcUrl`), for code that talks to a node by URL. */
export async function startChainPools(options: { serve?: boolean } = {}): Promise<ChainPools> {
  const chain = options.serve ? await serveChain('127.0.0.1', 0) : startInProcessChain();
  try {
    // Signed by the node: these suites send hundreds of joins, exits and swaps from it.
    const deployer = await signedByNode(devAccount(0, chain.provider));
    const devnet = await deployDevnet(deployer, { traders: traderAccounts(chain.provider) });
    const vault = new Contract(devnet.addresses.vault, balancerAbi('Vault'), deployer);
    const queries = new Contract(devnet.addresses.balancerQueries, balancerAbi('BalancerQueries'), deployer);
    return { chain, devnet, deployer, owner: await deployer.getAddress(), vault, queries, close: () => chain.close() };
  } catch (e) {
    await chain.close();
    throw e;
  }
}

/** The protocol fee provider's fee type for yield (ProtocolFeeType.YIELD). */
const FEE_TYPE_YIELD = 2;

/**
 * Switches the chain's protocol fees on as governance would: the Authorizer's admin (the deployer)
 * grants itself the fee collector's and the fee percentages provider's setters, then sets the swap
 * fee (on the collector) and the yield fee (on the provider), 18-decimal fractions.
 */
export async function setProtocolFees(
  env: Pick<ChainPools, 'devnet' | 'vault' | 'deployer' | 'owner'>,
  fees: { swap: bigint; yield: bigint },
): Promise<void> {
  const actionIdFn = 'function getActionId(bytes4) view returns (bytes32)';
  const authorizer = new Contract(env.devnet.addresses.authorizer, balancerAbi('Authorizer'), env.deployer);
  const collector = new Contract(
    String(await env.vault.getFunction('getProtocolFeesCollector')()),
    ['function setSwapFeePercentage(uint256)', actionIdFn],
    env.deployer,
  );
  const provider = new Contract(
    env.devnet.addresses.protocolFeePercentagesProvider,
    ['function setFeeTypePercentage(uint256 feeType, uint256 percentage)', actionIdFn],
    env.deployer,
  );
  for (const [c, sig] of [
    [collector, 'setSwapFeePercentage(uint256)'],
    [provider, 'setFeeTypePercentage(uint256,uint256)'],
  ] as const) {
    const action = String(await c.getFunction('getActionId')(keccakId(sig).slice(0, 10)));
    await (await authorizer.getFunction('grantRole')(action, env.owner)).wait();
  }
  await (await collector.getFunction('setSwapFeePercentage')(fees.swap)).wait();
  await (await provider.getFunction('setFeeTypePercentage')(FEE_TYPE_YIELD, fees.yield)).wait();
}

const TASKS = '@balancer-labs/v2-deployments/dist/tasks/';

/** A deployment task's artifact (abi + creation bytecode). */
export function taskArtifact(path: string): { abi: InterfaceAbi; bytecode: string } {
  const a = require(`${TASKS}${path}`) as { abi: InterfaceAbi; bytecode: string };
  return { abi: a.abi, bytecode: a.bytecode };
}

export async function deployContract(
  signer: Signer,
  artifact: { abi: InterfaceAbi; bytecode: string },
  args: unknown[],
): Promise<Contract> {
  const c = await new ContractFactory(artifact.abi, artifact.bytecode, signer).deploy(...args);
  await c.waitForDeployment();
  return c as Contract;
}

async function mined(tx: Promise<{ wait(): Promise<unknown> }>): Promise<void> {
  await (await tx).wait();
}

/** Mints a devnet token (the deployer is its minter) and lets the Vault pull it. */
export async function fund(env: ChainPools, token: string, amount: bigint): Promise<void> {
  const c = new Contract(
    token,
    ['function mint(address,uint256)', 'function approve(address,uint256) returns (bool)'],
    env.deployer,
  );
  await mined(c.getFunction('mint')(env.owner, amount));
  await mined(c.getFunction('approve')(env.devnet.addresses.vault, MaxUint256));
}

/** Wraps ETH into the devnet's WETH for the deployer and lets the Vault pull it. */
export async function fundWeth(env: ChainPools, amount: bigint): Promise<void> {
  const weth = new Contract(
    env.devnet.addresses.weth,
    ['function deposit() payable', 'function approve(address,uint256) returns (bool)'],
    env.deployer,
  );
  await mined(weth.getFunction('deposit')({ value: amount }));
  await mined(weth.getFunction('approve')(env.devnet.addresses.vault, MaxUint256));
}

/**
 * Creates a pool through `factory.create(...args)` and returns its id and address. The gas limit is
 * set: gas estimation fails on the 2023 linear factories (pool plus rebalancer in one call).
 */
export async function createPool(factory: Contract, args: unknown[]): Promise<{ id: string; address: string }> {
  const receipt = (await (await factory.getFunction('create')(...args, { gasLimit: 15_000_000 })).wait()) as {
    logs: { topics: readonly string[]; data: string }[];
  };
  const created = receipt.logs.map((l) => factory.interface.parseLog(l)).find((l) => l?.name === 'PoolCreated');
  if (!created) throw new Error('factory emitted no PoolCreated');
  const address = String(created.args[0]).toLowerCase();
  const id = String(
    await new Contract(address, ['function getPoolId() view returns (bytes32)'], factory.runner).getFunction(
      'getPoolId',
    )(),
  );
  return { id: id.toLowerCase(), address };
}

export async function poolTokens(env: ChainPools, poolId: string): Promise<{ tokens: string[]; balances: bigint[] }> {
  const [tokens, balances] = (await env.vault.getFunction('getPoolTokens')(poolId)) as [string[], bigint[]];
  return { tokens: tokens.map((t) => t.toLowerCase()), balances: [...balances] };
}

const coder = AbiCoder.defaultAbiCoder();
const WEIGHTED_JOIN_INIT = 0;
const WEIGHTED_JOIN_EXACT_TOKENS_IN = 1;
const WEIGHTED_EXIT_EXACT_BPT_IN_FOR_ONE_TOKEN_OUT = 0;

/** The INIT join that seeds a weighted-family pool with `amounts` (Vault token order). */
export async function initJoin(env: ChainPools, poolId: string, amounts: bigint[]): Promise<void> {
  const { tokens } = await poolTokens(env, poolId);
  const userData = coder.encode(['uint256', 'uint256[]'], [WEIGHTED_JOIN_INIT, amounts]);
  await mined(
    env.vault.getFunction('joinPool')(poolId, env.owner, env.owner, {
      assets: tokens,
      maxAmountsIn: amounts,
      userData,
      fromInternalBalance: false,
    }),
  );
}

function joinRequest(tokens: string[], i: number, amountIn: bigint) {
  const amounts = tokens.map((_, k) => (k === i ? amountIn : 0n));
  return {
    assets: tokens,
    maxAmountsIn: amounts,
    userData: coder.encode(['uint256', 'uint256[]', 'uint256'], [WEIGHTED_JOIN_EXACT_TOKENS_IN, amounts, 0n]),
    fromInternalBalance: false,
  };
}

function exitRequest(tokens: string[], i: number, bptIn: bigint) {
  return {
    assets: tokens,
    minAmountsOut: tokens.map(() => 0n),
    userData: coder.encode(['uint256', 'uint256', 'uint256'], [WEIGHTED_EXIT_EXACT_BPT_IN_FOR_ONE_TOKEN_OUT, bptIn, i]),
    toInternalBalance: false,
  };
}

/** The contract's answer, or the revert reason's BAL code ("BAL#304") when it reverts. */
export type Answer = bigint | string;

/** The model's answer in the same terms: the amount, or 'revert' where it throws as the contract reverts. */
export function ours(f: () => bigint): Answer {
  try {
    return f();
  } catch (e) {
    if (e instanceof Revert) return 'revert';
    throw e;
  }
}

async function answer(f: () => Promise<bigint>): Promise<Answer> {
  try {
    return await f();
  } catch (e) {
    const text = String((e as { reason?: string }).reason ?? (e as Error).message);
    const code = /BAL#\d{3}/.exec(text);
    return code ? code[0] : `revert: ${text.slice(0, 120)}`;
  }
}

/** BPT out of a single-token EXACT_TOKENS_IN_FOR_BPT_OUT join, as BalancerQueries answers it. */
export function queryJoin(
  env: ChainPools,
  poolId: string,
  tokens: string[],
  i: number,
  amountIn: bigint,
  sender = env.owner,
): Promise<Answer> {
  return answer(async () => {
    const [bptOut] = (await env.queries
      .getFunction('queryJoin')
      .staticCall(poolId, sender, sender, joinRequest(tokens, i, amountIn))) as [bigint, bigint[]];
    return bptOut;
  });
}

/** Token `i` out of an EXACT_BPT_IN_FOR_ONE_TOKEN_OUT exit, as BalancerQueries answers it. */
export function queryExit(
  env: ChainPools,
  poolId: string,
  tokens: string[],
  i: number,
  bptIn: bigint,
): Promise<Answer> {
  return answer(async () => {
    const [, amountsOut] = (await env.queries
      .getFunction('queryExit')
      .staticCall(poolId, env.owner, env.owner, exitRequest(tokens, i, bptIn))) as [bigint, bigint[]];
    return amountsOut[i]!;
  });
}

/** The amount the Vault computes for one swap (out for givenIn, in for givenOut). */
export function querySwap(
  env: ChainPools,
  poolId: string,
  kind: SwapKind,
  tokenIn: string,
  tokenOut: string,
  amount: bigint,
): Promise<Answer> {
  return answer(async () => {
    const single = {
      poolId,
      kind: kind === 'givenIn' ? 0 : 1,
      assetIn: tokenIn,
      assetOut: tokenOut,
      amount,
      userData: '0x',
    };
    const funds = { sender: env.owner, fromInternalBalance: false, recipient: env.owner, toInternalBalance: false };
    return (await env.queries.getFunction('querySwap').staticCall(single, funds)) as bigint;
  });
}

/** Executes a single-token join or exit as the deployer (it holds the tokens and the BPT). */
export async function join(
  env: ChainPools,
  poolId: string,
  tokens: string[],
  i: number,
  amountIn: bigint,
): Promise<void> {
  await mined(env.vault.getFunction('joinPool')(poolId, env.owner, env.owner, joinRequest(tokens, i, amountIn)));
}

export async function exit(env: ChainPools, poolId: string, tokens: string[], i: number, bptIn: bigint): Promise<void> {
  await mined(env.vault.getFunction('exitPool')(poolId, env.owner, env.owner, exitRequest(tokens, i, bptIn)));
}

export async function swap(
  env: ChainPools,
  poolId: string,
  kind: SwapKind,
  tokenIn: string,
  tokenOut: string,
  amount: bigint,
): Promise<void> {
  const single = {
    poolId,
    kind: kind === 'givenIn' ? 0 : 1,
    assetIn: tokenIn,
    assetOut: tokenOut,
    amount,
    userData: '0x',
  };
  const funds = { sender: env.owner, fromInternalBalance: false, recipient: env.owner, toInternalBalance: false };
  await mined(env.vault.getFunction('swap')(single, funds, kind === 'givenIn' ? 0n : MaxUint256, MaxUint256));
}

const ERC20 = ['function decimals() view returns (uint8)'];
const WEIGHTED_POOL = [
  'function getNormalizedWeights() view returns (uint256[])',
  'function getSwapFeePercentage() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function getSwapEnabled() view returns (bool)',
];

/** A weighted-family pool as the store would describe it, read from the chain. */
export async function readWeightedSpec(
  env: ChainPools,
  pool: { id: string; address: string },
  poolType: string,
  poolTypeVersion: number,
): Promise<WeightedSpec> {
  const c = new Contract(pool.address, WEIGHTED_POOL, env.chain.provider);
  const { tokens, balances } = await poolTokens(env, pool.id);
  const [weights, fee, supply] = (await Promise.all([
    c.getFunction('getNormalizedWeights')(),
    c.getFunction('getSwapFeePercentage')(),
    c.getFunction('totalSupply')(),
  ])) as [bigint[], bigint, bigint];
  const swapEnabled = poolType === 'Weighted' ? true : Boolean(await c.getFunction('getSwapEnabled')());
  const decimals = await Promise.all(
    tokens.map(async (t) => Number(await new Contract(t, ERC20, env.chain.provider).getFunction('decimals')())),
  );
  // A pool that lists its own BPT (ManagedPool, first) reports weights for the other tokens only.
  const bpt = tokens.indexOf(pool.address);
  const weightOf = (k: number): string | null =>
    k === bpt ? null : unitsToDecimal([...weights][bpt >= 0 && k > bpt ? k - 1 : k]!, 18);
  return {
    id: pool.id,
    address: pool.address,
    poolType,
    poolTypeVersion,
    swapFee: unitsToDecimal(fee, 18),
    totalShares: unitsToDecimal(supply, 18),
    swapEnabled,
    tokens: tokens.map((address, k) => ({
      address,
      balance: unitsToDecimal(balances[k]!, decimals[k]!),
      decimals: decimals[k]!,
      weight: weightOf(k),
      priceRate: '1',
    })),
  };
}

export { ZeroAddress, balancerArtifact };

const LINEAR_POOL = [
  'function getMainIndex() view returns (uint256)',
  'function getWrappedIndex() view returns (uint256)',
  'function getTargets() view returns (uint256 lowerTarget, uint256 upperTarget)',
  'function getSwapFeePercentage() view returns (uint256)',
  'function getWrappedTokenRate() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
];

/** A linear pool as the store would describe it: totalShares is the virtual supply. */
export async function readLinearSpec(
  env: ChainPools,
  pool: { id: string; address: string },
  poolType: string,
  poolTypeVersion: number,
): Promise<LinearSpec> {
  const c = new Contract(pool.address, LINEAR_POOL, env.chain.provider);
  const call = (name: string) => c.getFunction(name)() as Promise<unknown>;
  const { tokens, balances } = await poolTokens(env, pool.id);
  const [mainIndex, wrappedIndex, targets, fee, rate, supply] = (await Promise.all(
    ['getMainIndex', 'getWrappedIndex', 'getTargets', 'getSwapFeePercentage', 'getWrappedTokenRate', 'totalSupply'].map(
      call,
    ),
  )) as [bigint, bigint, [bigint, bigint], bigint, bigint, bigint];
  const decimals = await Promise.all(
    tokens.map(async (t) => Number(await new Contract(t, ERC20, env.chain.provider).getFunction('decimals')())),
  );
  const bpt = tokens.indexOf(pool.address);
  return {
    id: pool.id,
    address: pool.address,
    poolType,
    poolTypeVersion,
    swapFee: unitsToDecimal(fee, 18),
    totalShares: unitsToDecimal(supply - balances[bpt]!, 18),
    mainIndex: Number(mainIndex),
    wrappedIndex: Number(wrappedIndex),
    lowerTarget: unitsToDecimal(targets[0], 18),
    upperTarget: unitsToDecimal(targets[1], 18),
    tokens: tokens.map((address, k) => ({
      address,
      balance: unitsToDecimal(balances[k]!, decimals[k]!),
      decimals: decimals[k]!,
      priceRate: k === Number(wrappedIndex) ? unitsToDecimal(rate, 18) : '1',
    })),
  };
}
