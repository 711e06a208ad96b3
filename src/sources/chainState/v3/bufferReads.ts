import { AbiCoder, id } from 'ethers';
import type { AbiValue, AbiWord } from '../../../domain/poolTypes/chainReads';
import type { StoredBuffer, StoredErc4626 } from '../../../domain/protocols/v3/stored/storedV3';
import { UpstreamError } from '../../upstream';
import { RPC_UPSTREAM, type RpcOutcome } from '../../rpc/jsonRpc';
import { callPinned, type PinnedRpcOptions } from '../../rpc/multicall';
import { isRevert } from '../chainStateReader';
import { wordsDecoder } from '../abiWords';

/**
 * Reads the V3 Vault's ERC-4626 buffers at a block: the Vault's side (`getBufferAsset`,
 * `getBufferBalance`, `areBuffersPaused`) and the wrapped token's (its totals, share price,
 * previews at two probe amounts and its four limits for the Vault), every call pinned to the
 * block. A token whose `getBufferAsset` is the zero address has no buffer and is left out. The
 * token is stored by its totals when OpenZeppelin's ERC4626 arithmetic (virtual offset: the
 * wrapped token's decimals less the asset's) reproduces all three answers it gave, so its previews
 * are exact at any amount; otherwise by its share price (`erc4626.ts` says what that leaves open).
 */

const abi = AbiCoder.defaultAbiCoder();
const ONE = 10n ** 18n;
/** Odd amounts, so a conversion that rounds differently shows it. */
const PROBE_ASSETS = 123_456_789_123_456_789n;
const PROBE_SHARES = 987_654_321_987_654_321n;
const ZERO_ADDRESS = /^0x0{40}$/;

interface Read {
  readonly to: string;
  readonly signature: string;
  readonly args: readonly (string | bigint)[];
  readonly inputs: readonly string[];
  readonly outputs: readonly AbiWord[];
}

const read = (
  to: string,
  name: string,
  inputs: readonly string[],
  args: readonly (string | bigint)[],
  outputs: readonly AbiWord[],
): Read => ({ to, signature: `${name}(${inputs.join(',')})`, args, inputs, outputs });

const hex = (n: number) => `0x${n.toString(16)}`;

async function ask(
  rpc: PinnedRpcOptions,
  reads: readonly Read[],
  blockNumber: number,
): Promise<(AbiValue[] | undefined)[]> {
  if (reads.length === 0) return [];
  const outcomes = await callPinned(
    rpc,
    reads.map((r) => ({
      method: 'eth_call',
      params: [
        {
          to: r.to,
          data: id(r.signature).slice(0, 10) + (r.inputs.length ? abi.encode(r.inputs, r.args).slice(2) : ''),
        },
        hex(blockNumber),
      ],
    })),
  );
  return reads.map((r, i) => decodedOrRevert(r, outcomes[i], blockNumber));
}

function decodedOrRevert(r: Read, outcome: RpcOutcome | undefined, blockNumber: number): AbiValue[] | undefined {
  if (!outcome) throw new UpstreamError(RPC_UPSTREAM, `eth_call ${r.signature} at block ${blockNumber}: no answer`);
  if (!outcome.ok) {
    if (isRevert(outcome)) return undefined;
    throw new UpstreamError(RPC_UPSTREAM, `eth_call ${r.signature} at block ${blockNumber} failed: ${outcome.error}`);
  }
  if (typeof outcome.result !== 'string') return undefined;
  return wordsDecoder(r.outputs)(outcome.result);
}

const TOKEN_READS = (token: string, vault: string): Read[] => [
  read(vault, 'getBufferAsset', ['address'], [token], ['address']),
  read(vault, 'getBufferBalance', ['address'], [token], ['uint256', 'uint256']),
  read(token, 'decimals', [], [], ['uint256']),
  read(token, 'totalAssets', [], [], ['uint256']),
  read(token, 'totalSupply', [], [], ['uint256']),
  read(token, 'convertToAssets', ['uint256'], [ONE], ['uint256']),
  read(token, 'previewDeposit', ['uint256'], [PROBE_ASSETS], ['uint256']),
  read(token, 'previewRedeem', ['uint256'], [PROBE_SHARES], ['uint256']),
  read(token, 'maxDeposit', ['address'], [vault], ['uint256']),
  read(token, 'maxMint', ['address'], [vault], ['uint256']),
  read(token, 'maxRedeem', ['address'], [vault], ['uint256']),
  read(token, 'maxWithdraw', ['address'], [vault], ['uint256']),
  read(token, 'balanceOf', ['address'], [vault], ['uint256']),
];

/** The buffers of `tokens` (lower case) at `blockNumber`, by wrapped token; tokens without one left out. */
export async function readBuffers(
  rpc: PinnedRpcOptions,
  vault: string,
  tokens: readonly string[],
  blockNumber: number,
): Promise<Map<string, StoredBuffer>> {
  const out = new Map<string, StoredBuffer>();
  if (tokens.length === 0) return out;
  const perToken = TOKEN_READS(tokens[0]!, vault).length;
  const first = await ask(
    rpc,
    [read(vault, 'areBuffersPaused', [], [], ['bool']), ...tokens.flatMap((t) => TOKEN_READS(t, vault))],
    blockNumber,
  );
  const paused = first[0]?.[0] === true;
  const found: { token: string; values: (AbiValue[] | undefined)[]; asset: string }[] = [];
  tokens.forEach((token, i) => {
    const values = first.slice(1 + i * perToken, 1 + (i + 1) * perToken);
    const asset = values[0]?.[0];
    if (typeof asset === 'string' && !ZERO_ADDRESS.test(asset)) found.push({ token, values, asset });
  });
  const assetDecimals = await ask(
    rpc,
    found.map((f) => read(f.asset, 'decimals', [], [], ['uint256'])),
    blockNumber,
  );
  found.forEach((f, i) => {
    const [, balance, decimals, totalAssets, totalSupply, rate, deposit, redeem, ...limits] = f.values.map(
      (v) => v?.[0] as bigint | undefined,
    );
    const underlyingBalance = f.values[1]?.[0] as bigint | undefined;
    const wrappedBalance = f.values[1]?.[1] as bigint | undefined;
    if (underlyingBalance === undefined || wrappedBalance === undefined || rate === undefined || balance === undefined)
      return;
    const [maxDeposit, maxMint, maxRedeem, maxWithdraw, vaultShares] = limits;
    const byTotals = openZeppelinTotals({
      decimals,
      assetDecimals: assetDecimals[i]?.[0] as bigint | undefined,
      totalAssets,
      totalSupply,
      rate,
      deposit,
      redeem,
      vaultShares,
    });
    const token: StoredErc4626 = byTotals ?? {
      conversion: 'rate',
      rate: rate.toString(),
      maxDeposit: String(maxDeposit ?? 0n),
      maxMint: String(maxMint ?? 0n),
      maxRedeem: String(maxRedeem ?? 0n),
      maxWithdraw: String(maxWithdraw ?? 0n),
    };
    out.set(f.token, {
      wrappedToken: f.token,
      underlyingToken: f.asset,
      underlyingBalance: underlyingBalance.toString(),
      wrappedBalance: wrappedBalance.toString(),
      buffersPaused: paused,
      token,
    });
  });
  return out;
}

/** The token as OpenZeppelin's ERC4626 by its totals, when that arithmetic gives all three answers it gave. */
function openZeppelinTotals(r: {
  decimals: bigint | undefined;
  assetDecimals: bigint | undefined;
  totalAssets: bigint | undefined;
  totalSupply: bigint | undefined;
  rate: bigint;
  deposit: bigint | undefined;
  redeem: bigint | undefined;
  vaultShares: bigint | undefined;
}): StoredErc4626 | undefined {
  const { decimals, assetDecimals, totalAssets, totalSupply, deposit, redeem, vaultShares } = r;
  if (
    decimals === undefined ||
    assetDecimals === undefined ||
    totalAssets === undefined ||
    totalSupply === undefined ||
    deposit === undefined ||
    redeem === undefined ||
    vaultShares === undefined ||
    decimals < assetDecimals
  )
    return undefined;
  const offset = decimals - assetDecimals;
  const shares = totalSupply + 10n ** offset;
  const assets = totalAssets + 1n;
  const matches =
    (ONE * assets) / shares === r.rate &&
    (PROBE_ASSETS * shares) / assets === deposit &&
    (PROBE_SHARES * assets) / shares === redeem;
  if (!matches) return undefined;
  return {
    conversion: 'totals',
    totalAssets: totalAssets.toString(),
    totalSupply: totalSupply.toString(),
    decimalsOffset: Number(offset),
    vaultShares: vaultShares.toString(),
  };
}
