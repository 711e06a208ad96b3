import { formatUnits, HDNodeWallet, MaxUint256, parseUnits } from 'ethers';
import { tokenBySymbol } from '../../src/devnet/devnet';
import { approveThroughPermit2 } from '../../src/devnet/v3/permit2';
import { batchRouterInterface } from '../../src/routing/v3/v3Abi';
import { COW_QUERY } from '../graphql/currentApiDocuments';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import { caughtUp } from './helpers/follow';
import { approveVault, executeOrder, vaultInterface, type OrderSpec } from './helpers/orders';
import { v3PoolsFollowed } from './helpers/v3Chain';

/**
 * CoW Protocol's Balancer solver (gnosis/solvers `src/infra/dex/balancer/`) against the service on
 * the devnet, as it runs: its query document with `chain: HARDHAT`, the amount in human units
 * from the raw amount and the token's decimals, and `X-CURRENT-BLOCK-HASH` of the newest block.
 * From the answer it builds the transaction itself: `Vault.batchSwap` from `swaps` and
 * `tokenAddresses` with limits from the raw amounts for a V2 answer, the BatchRouter's
 * `swapExactIn`/`swapExactOut` from `paths` for a V3 one, at slippage 0. Sent, it must pay and
 * receive the raw amounts exactly.
 */

const ORDERS: readonly OrderSpec[] = [
  { sell: 'BAL', buy: 'WETH', kind: 'sell', amount: '250.5' },
  { sell: 'WETH', buy: 'BAL', kind: 'buy', amount: '40' },
  { sell: 'USDC', buy: 'waUSDT', kind: 'sell', amount: '1234.567891' },
  { sell: 'waUSDT', buy: 'USDC', kind: 'buy', amount: '800.25' },
  { sell: 'USDC', buy: 'USDT', kind: 'sell', amount: '5000' },
  { sell: 'DAI', buy: 'USDC', kind: 'buy', amount: '321.123456' },
];

interface CowQuote {
  tokenAddresses: string[];
  swaps: { poolId: string; assetInIndex: number; assetOutIndex: number; amount: string; userData: string }[];
  swapAmountRaw: string;
  returnAmountRaw: string;
  tokenIn: string;
  tokenOut: string;
  protocolVersion: 2 | 3;
  paths: {
    inputAmountRaw: string;
    isBuffer: boolean[];
    outputAmountRaw: string;
    pools: string[];
    protocolVersion: number;
    tokens: { address: string }[];
  }[];
}

/** The solver's far deadline (`1 << 255`) and `wethIsEth: false`: the settlement holds WETH. */
const FAR = 1n << 255n;

let env: E2eEnvironment;
let user: HDNodeWallet;
const seen: string[] = [];

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true, follow: true, v3: true });
  user = trader(env, 2);
  await v3PoolsFollowed(env);
  await caughtUp(env);
}, 120_000);

afterAll(async () => {
  process.stdout.write(`e2e CoW solver (${env?.description}):\n${seen.map((s) => `  ${s}`).join('\n')}\n`);
  await env?.close();
});

/** The query as CoW sends it: `Query::from_domain` and the header of the current block. */
async function cowQuote(spec: OrderSpec): Promise<CowQuote> {
  const sell = tokenBySymbol(env.devnet, spec.sell);
  const buy = tokenBySymbol(env.devnet, spec.buy);
  const amountToken = spec.kind === 'sell' ? sell : buy;
  const raw = parseUnits(spec.amount, amountToken.decimals);
  const head = await env.chain.provider.getBlock('latest');
  const res = await fetch(`${env.apiUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-CURRENT-BLOCK-HASH': head!.hash! },
    body: JSON.stringify({
      query: COW_QUERY,
      variables: {
        chain: 'HARDHAT',
        swapAmount: formatUnits(raw, amountToken.decimals).replace(/\.0$/, ''),
        swapType: spec.kind === 'sell' ? 'EXACT_IN' : 'EXACT_OUT',
        tokenIn: sell.address,
        tokenOut: buy.address,
      },
    }),
  });
  const body = (await res.json()) as { data?: { sorGetSwapPaths: CowQuote }; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data!.sorGetSwapPaths;
}

/** `Sor::encode_v2_swap`: batchSwap with the raw amounts as limits (slippage 0). */
function v2Call(spec: OrderSpec, q: CowQuote): string {
  const [maxIn, minOut] =
    spec.kind === 'sell' ? [q.swapAmountRaw, q.returnAmountRaw] : [q.returnAmountRaw, q.swapAmountRaw];
  const limits = q.tokenAddresses.map((t) =>
    t === q.tokenIn ? BigInt(maxIn) : t === q.tokenOut ? -BigInt(minOut) : 0n,
  );
  return vaultInterface.encodeFunctionData('batchSwap', [
    spec.kind === 'sell' ? 0 : 1,
    q.swaps.map((s) => [s.poolId, s.assetInIndex, s.assetOutIndex, BigInt(s.amount), s.userData]),
    q.tokenAddresses,
    [user.address, false, user.address, false],
    limits,
    MaxUint256,
  ]);
}

/**
 * `path_to_exact_amount_in` / `_out` and `convert_path_steps`: one BatchRouter path per answer
 * path, its amounts in the struct's order (exact in and min out, or max in and exact out).
 */
function v3Call(spec: OrderSpec, q: CowQuote): string {
  const paths = q.paths.map((p) => {
    const steps = p.tokens.slice(1).map((t, k) => [p.pools[k]!, t.address, p.isBuffer[k]!]);
    return [p.tokens[0]!.address, steps, BigInt(p.inputAmountRaw), BigInt(p.outputAmountRaw)];
  });
  return batchRouterInterface.encodeFunctionData(spec.kind === 'sell' ? 'swapExactIn' : 'swapExactOut', [
    paths,
    FAR,
    false,
    '0x',
  ]);
}

test.each(ORDERS)('CoW %#: its query, its transaction, the raw amounts paid exactly', async (spec) => {
  const q = await cowQuote(spec);
  expect(q.swaps.length).toBeGreaterThan(0);
  expect(BigInt(q.returnAmountRaw)).toBeGreaterThan(0n);
  const sell = tokenBySymbol(env.devnet, spec.sell).address;
  let to: string;
  let data: string;
  if (q.protocolVersion === 2) {
    await approveVault(env, user, spec.sell);
    to = env.devnet.addresses.vault;
    data = v2Call(spec, q);
  } else {
    to = env.devnet.v3.addresses.batchRouter;
    await approveThroughPermit2(user, env.devnet.v3.addresses.permit2, sell, to);
    data = v3Call(spec, q);
  }
  const done = await executeOrder(env, user, spec, { to, data, value: '0' });
  const [paid, received] =
    spec.kind === 'sell' ? [q.swapAmountRaw, q.returnAmountRaw] : [q.returnAmountRaw, q.swapAmountRaw];
  seen.push(
    `V${q.protocolVersion} ${spec.kind} ${spec.amount} ${spec.sell}->${spec.buy}: paid ${done.paid} (${paid}), received ${done.received} (${received}), ${q.swaps.length} swap(s)`,
  );
  expect([done.paid.toString(), done.received.toString()]).toEqual([paid, received]);
});

test('the orders went through both Vaults', () => {
  expect(new Set(seen.map((s) => s.slice(0, 2)))).toEqual(new Set(['V2', 'V3']));
});
