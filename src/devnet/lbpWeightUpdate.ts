import { Contract, parseUnits, type Provider } from 'ethers';
import { devAccount, LBP_ADMIN_INDEX } from './accounts';
import type { Devnet, DevnetPool } from './devnet';

/**
 * Schedules a gradual weight update on one of the devnet's liquidity bootstrapping pools, from its
 * owner's account (accounts.ts `LBP_ADMIN_INDEX`): the pool's weights then move every second with
 * no event, which the head follower evaluates at each block (src/domain/chainTime.ts).
 */

const LBP = [
  'function updateWeightsGradually(uint256 startTime, uint256 endTime, uint256[] endWeights)',
  'function getGradualWeightUpdateParams() view returns (uint256 startTime, uint256 endTime, uint256[] endWeights)',
  'function setSwapEnabled(bool swapEnabled)',
];

export interface LbpWeightUpdate {
  readonly pool: DevnetPool;
  /** Unix seconds (chain time). */
  readonly startTime: number;
  readonly endTime: number;
  /** Per token, in the pool's (Vault) order, 1e18 = 100 %. */
  readonly endWeights: readonly bigint[];
}

/** The pool's owner, connected: the only account allowed to move its weights or switch its swaps. */
export function lbpOwnerContract(provider: Provider, pool: DevnetPool): Contract {
  return new Contract(pool.address, LBP, devAccount(LBP_ADMIN_INDEX, provider));
}

/**
 * Moves the LBP named `name` from its current weights to `endWeights` (token symbol -> decimal)
 * over `seconds` from the next block; `startTime` the chain's next timestamp (a past start is
 * fast-forwarded by the pool to its block).
 */
export async function startLbpWeightUpdate(
  provider: Provider,
  devnet: Devnet,
  spec: { readonly pool: string; readonly endWeights: Readonly<Record<string, string>>; readonly seconds: number },
): Promise<LbpWeightUpdate> {
  const pool = devnet.pools.find((p) => p.name === spec.pool && p.kind === 'liquidityBootstrapping');
  if (!pool) throw new Error(`the devnet has no liquidity bootstrapping pool named ${spec.pool}`);
  const endWeights = pool.tokens.map((address) => {
    const symbol = devnet.tokens.find((t) => t.address === address)?.symbol;
    const weight = symbol === undefined ? undefined : spec.endWeights[symbol];
    if (weight === undefined) throw new Error(`${spec.pool}: no end weight for its token ${symbol ?? address}`);
    return parseUnits(weight, 18);
  });
  const head = await provider.getBlock('latest');
  if (!head) throw new Error('the devnet node has no latest block');
  const startTime = head.timestamp + 1;
  const endTime = startTime + spec.seconds;
  const tx = (await lbpOwnerContract(provider, pool).getFunction('updateWeightsGradually')(
    startTime,
    endTime,
    endWeights,
  )) as { wait(): Promise<unknown> };
  await tx.wait();
  const [start, end] = (await lbpOwnerContract(provider, pool).getFunction('getGradualWeightUpdateParams')()) as [
    bigint,
    bigint,
  ];
  return { pool, startTime: Number(start), endTime: Number(end), endWeights };
}

/** The update in progress on `pool` at the chain's head, or null when its weights no longer move. */
export async function lbpWeightUpdateInProgress(
  provider: Provider,
  pool: DevnetPool,
): Promise<{ startTime: number; endTime: number } | null> {
  const [start, end] = (await lbpOwnerContract(provider, pool).getFunction('getGradualWeightUpdateParams')()) as [
    bigint,
    bigint,
  ];
  const head = await provider.getBlock('latest');
  return head && Number(end) > head.timestamp ? { startTime: Number(start), endTime: Number(end) } : null;
}
