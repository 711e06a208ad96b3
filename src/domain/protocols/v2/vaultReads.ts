import {
  AT_POOL,
  AT_VAULT,
  chainCall,
  chainEvent,
  getter,
  type ChainCall,
  type ChainEvent,
} from '../../poolTypes/chainReads';

/**
 * The V2 Vault reads of a pool at a block, made for every pool whatever its type: its tokens and
 * balances as the Vault holds them (`getPoolTokens(bytes32 poolId)`), and the getters every V2
 * pool has (swap fee, pause and recovery state, total supply). Also the Vault's events that move a
 * pool's balances (topic 1 is the pool id) and the pool events every V2 pool emits. Pure data: the
 * chain-state reader (`sources/chainState/chainStateReader.ts`) encodes, batches and decodes.
 */

export interface V2VaultDraft {
  tokens: { address: string; balance: bigint }[];
  /** `getPoolTokens`' `lastChangeBlock`: the block the Vault last changed the pool's cash. */
  lastChangeBlock?: number;
  /** What made the Vault's answer impossible (more tokens than balances, or fewer): no answer at all. */
  malformed?: string;
  swapFee?: bigint;
  paused?: boolean;
  recoveryMode?: boolean;
  totalSupply?: bigint;
}

const GET_POOL_TOKENS = getter('getPoolTokens', ['bytes32'], ['address[]', 'uint256[]', 'uint256']);
const GET_SWAP_FEE_PERCENTAGE = getter('getSwapFeePercentage', [], ['uint256']);
const GET_PAUSED_STATE = getter('getPausedState', [], ['bool', 'uint256', 'uint256']);
const IN_RECOVERY_MODE = getter('inRecoveryMode', [], ['bool']);
const TOTAL_SUPPLY = getter('totalSupply', [], ['uint256']);

/**
 * The Vault reads' calls for the pool with id `poolId`. The first is the Vault's: a pool it refuses
 * (reverts: not registered there) is left out of the state.
 */
export function v2VaultCalls(poolId: string): ChainCall<V2VaultDraft>[] {
  return [
    chainCall(AT_VAULT, GET_POOL_TOKENS, [poolId], (d: V2VaultDraft, [addresses, balances, lastChangeBlock]) => {
      if (addresses.length !== balances.length) {
        d.malformed = `getPoolTokens of pool ${poolId} answered ${addresses.length} tokens with ${balances.length} balances`;
        return;
      }
      d.tokens = addresses.map((a, i) => ({ address: a, balance: balances[i]! }));
      d.lastChangeBlock = Number(lastChangeBlock);
    }),
    chainCall(AT_POOL, GET_SWAP_FEE_PERCENTAGE, [], (d: V2VaultDraft, [v]) => (d.swapFee = v)),
    chainCall(AT_POOL, GET_PAUSED_STATE, [], (d: V2VaultDraft, [paused]) => (d.paused = paused)),
    chainCall(AT_POOL, IN_RECOVERY_MODE, [], (d: V2VaultDraft, [v]) => (d.recoveryMode = v)),
    chainCall(AT_POOL, TOTAL_SUPPLY, [], (d: V2VaultDraft, [v]) => (d.totalSupply = v)),
  ];
}

/** The V2 Vault's events that change a pool's balances; topic 1 is the pool id. */
export const V2_VAULT_BALANCE_EVENTS: readonly ChainEvent[] = [
  chainEvent('Swap(bytes32,address,address,uint256,uint256)'),
  chainEvent('PoolBalanceChanged(bytes32,address,address[],int256[],uint256[])'),
  chainEvent('PoolBalanceManaged(bytes32,address,address,int256,int256)'),
];

/** Of those, the ones that change a pool's cash (and set its `lastChangeBlock`); not an asset manager's. */
export const V2_VAULT_CASH_EVENTS: readonly ChainEvent[] = V2_VAULT_BALANCE_EVENTS.slice(0, 2);

/** Events every V2 pool emits that change what the Vault reads' getters answer. */
export const V2_POOL_SETTINGS_EVENTS: readonly ChainEvent[] = [
  chainEvent('SwapFeePercentageChanged(uint256)'),
  chainEvent('PausedStateChanged(bool)'),
  chainEvent('RecoveryModeStateChanged(bool)'),
];
