import { AbiCoder, Contract, MaxUint256, type InterfaceAbi } from 'ethers';
import { unitsToDecimal } from '../../src/domain/decimal';
import type { PoolSpec } from '../../src/domain/swap/poolModel';
import { deployContract, poolTokens, taskArtifact, type ChainPools } from './devnetPools';

/**
 * Stable-family pools on the test chain: factories of every generation from
 * @balancer-labs/v2-deployments' builds, a constant-rate provider, the INIT join, and the pool as
 * the store would describe it (amp without its precision, totalShares the circulating supply).
 */

/**
 * A rate provider answering `rate` to any call (so to getRate()): runtime code
 * PUSH32 rate, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN, behind a constructor that returns it.
 */
export async function deployConstantRateProvider(env: ChainPools, rate: bigint): Promise<string> {
  const runtime = `7f${rate.toString(16).padStart(64, '0')}60005260206000f3`;
  const size = (runtime.length / 2).toString(16).padStart(2, '0');
  const init = `60${size}600c60003960${size}6000f3`;
  const c = await deployContract(env.deployer, { abi: [], bytecode: `0x${init}${runtime}` }, []);
  return (await c.getAddress()).toLowerCase();
}

interface LinkedArtifact {
  abi: InterfaceAbi;
  bytecode: string;
  linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>;
}

/**
 * A factory artifact with its libraries deployed and linked (MetaStable's oracle QueryProcessor);
 * `libraries` maps a library name to its artifact's task path.
 */
export async function linkedArtifact(
  env: ChainPools,
  path: string,
  libraries: Record<string, string>,
): Promise<{ abi: InterfaceAbi; bytecode: string }> {
  const a = require(`@balancer-labs/v2-deployments/dist/tasks/${path}`) as LinkedArtifact;
  let code = a.bytecode.slice(2);
  for (const byFile of Object.values(a.linkReferences ?? {})) {
    for (const [name, refs] of Object.entries(byFile)) {
      const lib = libraries[name];
      if (!lib) throw new Error(`no artifact for library ${name}`);
      const addr = (await deployContract(env.deployer, taskArtifact(lib), [])).target as string;
      for (const { start, length } of refs)
        code = code.slice(0, start * 2) + addr.slice(2).toLowerCase() + code.slice((start + length) * 2);
    }
  }
  return { abi: a.abi, bytecode: `0x${code}` };
}

const coder = AbiCoder.defaultAbiCoder();

/**
 * The INIT join (kind 0 for every stable generation). `amounts` in Vault order; a pool listing its
 * own BPT takes a placeholder there and an unlimited maximum (it mints its pre-minted supply).
 */
export async function initStable(
  env: ChainPools,
  pool: { id: string; address: string },
  amountOf: (token: string) => bigint,
): Promise<void> {
  const { tokens } = await poolTokens(env, pool.id);
  const amounts = tokens.map((t) => (t === pool.address ? 0n : amountOf(t)));
  const maxAmountsIn = tokens.map((t, k) => (t === pool.address ? MaxUint256 : amounts[k]!));
  const userData = coder.encode(['uint256', 'uint256[]'], [0, amounts]);
  await (
    await env.vault.getFunction('joinPool')(pool.id, env.owner, env.owner, {
      assets: tokens,
      maxAmountsIn,
      userData,
      fromInternalBalance: false,
    })
  ).wait();
}

const STABLE_POOL = [
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getSwapFeePercentage() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
];
const ERC20 = ['function decimals() view returns (uint8)'];

/**
 * A stable-family pool as the store describes it, read from the chain: amp without its precision,
 * each token's rate (`rates`, by address; 1 when absent), totalShares the BPT in circulation.
 */
export async function readStableSpec(
  env: ChainPools,
  pool: { id: string; address: string },
  poolType: string,
  poolTypeVersion: number,
  rates: Record<string, bigint> = {},
): Promise<PoolSpec> {
  const c = new Contract(pool.address, STABLE_POOL, env.chain.provider);
  const { tokens, balances } = await poolTokens(env, pool.id);
  const [amp, fee, supply] = (await Promise.all([
    c.getFunction('getAmplificationParameter')(),
    c.getFunction('getSwapFeePercentage')(),
    c.getFunction('totalSupply')(),
  ])) as [[bigint, boolean, bigint], bigint, bigint];
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
    amp: (amp[0] / amp[2]).toString(),
    totalShares: unitsToDecimal(bpt >= 0 ? supply - balances[bpt]! : supply, 18),
    tokens: tokens.map((address, k) => ({
      address,
      balance: unitsToDecimal(balances[k]!, decimals[k]!),
      decimals: decimals[k]!,
      priceRate: unitsToDecimal(rates[address] ?? 10n ** 18n, 18),
    })),
  };
}
