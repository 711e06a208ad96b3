import { AbiCoder, id, toQuantity } from 'ethers';
import type { AbiValue, AbiWord } from '../../../domain/poolTypes/chainReads';
import type { StoredBuffer, StoredErc4626 } from '../../../domain/protocols/v3/stored/storedV3';
import { MalformedAnswerError, type RpcOutcome } from '../../rpc/jsonRpc';
import { callPinned, type PinnedRpcOptions } from '../../rpc/multicall';
import { decodedAnswer, newChainReadCache, type ChainReadCache } from '../chainStateReader';

/**
 * Reads the V3 Vault's ERC-4626 buffers at a block: the Vault's side (`getBufferAsset`,
 * `getBufferBalance`, `areBuffersPaused`) and the wrapped token's (its totals, share price,
 * previews at two probe amounts and its four limits for the Vault), every call pinned to the
 * block. A token whose `getBufferAsset` is the zero address has no buffer and is left out. The
 * token is stored by its totals when OpenZeppelin's ERC4626 arithmetic (virtual offset: the
 * wrapped token's decimals less the asset's) reproduces all three answers it gave, so its previews
 * are exact at any amount; otherwise by its share price (`erc4626.ts` says what that leaves open).
 *
 * Answers are checked as the pools' are (`decodedAnswer`): none, null, `0x`, cut short or not
 * decoding fails the read (`MalformedAnswerError`), and so does a revert of one of the Vault's
 * getters, which answer for any token. What says "no buffer" is a deliberate list: the zero asset
 * for a token never seen with a buffer (the Vault never unsets a buffer's asset, so a known
 * buffer answered with no asset or another one is another call's answer), and a wrapped token
 * that reverts `convertToAssets` (no price: `refused`). Cross-checks on the tokens' own answers
 * go to `inconsistent`, not thrown (a token's author controls them, so the caller must be able to
 * tell a token that always answers so from a node that lied once): the buffer's wrapped balance is at most the Vault's shares of the token
 * (`balanceOf(Vault)`), its underlying balance at most the Vault's balance of the asset, and the
 * token's previews give no more than its share price (ERC-4626: a preview includes fees, the
 * conversion none).
 */

const abi = AbiCoder.defaultAbiCoder();
const ONE = 10n ** 18n;
/** Odd amounts, so a conversion that rounds differently shows it. */
const PROBE_ASSETS = 123_456_789_123_456_789n;
const PROBE_SHARES = 987_654_321_987_654_321n;
const ZERO_ADDRESS = /^0x0{40}$/;

interface Read {
  readonly to: string;
  /** One of the Vault's own getters, which never revert. */
  readonly vault?: true;
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

const vaultRead = (...r: Parameters<typeof read>): Read => ({ ...read(...r), vault: true });

/** One read's answer as its values; undefined for a revert. */
async function ask(
  rpc: PinnedRpcOptions,
  cache: ChainReadCache,
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
        toQuantity(blockNumber),
      ],
    })),
  );
  return reads.map((r, i) => answerOf(cache, r, outcomes[i], blockNumber));
}

function answerOf(
  cache: ChainReadCache,
  r: Read,
  outcome: RpcOutcome | undefined,
  blockNumber: number,
): AbiValue[] | undefined {
  const values = decodedAnswer(cache, { fn: r.signature, outputs: r.outputs }, outcome, blockNumber);
  if (values === undefined && r.vault)
    throw new MalformedAnswerError(
      `eth_call ${r.signature} of the V3 Vault at block ${blockNumber} reverted: the Vault answers it for any token`,
    );
  return values;
}

const TOKEN_READS = (token: string, vault: string): Read[] => [
  vaultRead(vault, 'getBufferAsset', ['address'], [token], ['address']),
  vaultRead(vault, 'getBufferBalance', ['address'], [token], ['uint256', 'uint256']),
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

/**
 * A read of buffers: those found, the tokens with a buffer the chain would not price, and those
 * whose tokens' own answers disagree (left out of `buffers`), each with why.
 */
export interface BufferReads {
  readonly buffers: Map<string, StoredBuffer>;
  readonly refused: Map<string, string>;
  readonly inconsistent: Map<string, string>;
}

/**
 * The buffers of `tokens` (lower case) at `blockNumber`, by wrapped token; tokens without one left
 * out. `known`: the buffers as last read, whose asset an answer must repeat.
 */
export async function readBuffers(
  rpc: PinnedRpcOptions,
  vault: string,
  tokens: readonly string[],
  blockNumber: number,
  known?: ReadonlyMap<string, StoredBuffer>,
  cache: ChainReadCache = newChainReadCache(),
): Promise<BufferReads> {
  const out: BufferReads = { buffers: new Map(), refused: new Map(), inconsistent: new Map() };
  if (tokens.length === 0) return out;
  const perToken = TOKEN_READS(tokens[0]!, vault).length;
  const first = await ask(
    rpc,
    cache,
    [vaultRead(vault, 'areBuffersPaused', [], [], ['bool']), ...tokens.flatMap((t) => TOKEN_READS(t, vault))],
    blockNumber,
  );
  const paused = first[0]?.[0] === true;
  const found: { token: string; values: (AbiValue[] | undefined)[]; asset: string }[] = [];
  tokens.forEach((token, i) => {
    const values = first.slice(1 + i * perToken, 1 + (i + 1) * perToken);
    const asset = String(values[0]?.[0]);
    const before = known?.get(token)?.underlyingToken;
    if (before !== undefined && before !== asset)
      throw new MalformedAnswerError(
        `getBufferAsset of ${token} at block ${blockNumber} answered ${asset}, but its buffer holds ${before} (a buffer's asset never changes): another call's answer`,
      );
    if (!ZERO_ADDRESS.test(asset)) found.push({ token, values, asset });
  });
  const second = await ask(
    rpc,
    cache,
    found.flatMap((f) => [
      read(f.asset, 'decimals', [], [], ['uint256']),
      read(f.asset, 'balanceOf', ['address'], [vault], ['uint256']),
    ]),
    blockNumber,
  );
  found.forEach((f, i) => {
    const [, , decimals, totalAssets, totalSupply, rate, deposit, redeem, ...limits] = f.values.map(
      (v) => v?.[0] as bigint | undefined,
    );
    const underlyingBalance = f.values[1]![0] as bigint;
    const wrappedBalance = f.values[1]![1] as bigint;
    const [maxDeposit, maxMint, maxRedeem, maxWithdraw, vaultShares] = limits;
    const vaultAssets = second[2 * i + 1]?.[0] as bigint | undefined;
    // These checks compare the tokens' own answers, which anyone deploying a token controls: the
    // caller (jobs/follow/v3Buffers.ts) fails the step on them, and refuses the buffer once they stay.
    if (
      (vaultShares !== undefined && wrappedBalance > vaultShares) ||
      (vaultAssets !== undefined && underlyingBalance > vaultAssets)
    ) {
      out.inconsistent.set(
        f.token,
        `the buffer of ${f.token} at block ${blockNumber} holds ${underlyingBalance} underlying and ${wrappedBalance} wrapped, more than the tokens say the Vault has (${vaultAssets ?? '?'} and ${vaultShares ?? '?'})`,
      );
      return;
    }
    if (rate === undefined) {
      out.refused.set(f.token, `the wrapped token ${f.token} reverted convertToAssets at block ${blockNumber}`);
      return;
    }
    // ERC-4626: a preview never gives more than the conversion without fees (`rate` is floored, so
    // the shares it implies for assets are at least the token's own).
    if (
      (redeem !== undefined && redeem > (PROBE_SHARES * rate) / ONE + 2n) ||
      (deposit !== undefined && rate > 0n && deposit > (PROBE_ASSETS * ONE) / rate + 1n)
    ) {
      out.inconsistent.set(
        f.token,
        `the wrapped token ${f.token} at block ${blockNumber} answered a share price of ${rate} that its own previews (${deposit}, ${redeem}) exceed`,
      );
      return;
    }
    const byTotals = openZeppelinTotals({
      decimals,
      assetDecimals: second[2 * i]?.[0] as bigint | undefined,
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
    out.buffers.set(f.token, {
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
