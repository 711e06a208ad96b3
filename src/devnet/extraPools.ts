import { AbiCoder, getCreateAddress, Interface, JsonRpcApiProvider, MaxUint256, parseUnits, ZeroAddress } from 'ethers';
import { balancerAbi, devArtifact } from './artifacts';
import { devAccount } from './accounts';
import type { Devnet, DevnetPool, DevnetToken } from './devnet';

/**
 * Many more pools on a deployed devnet, for load: `count` two-token weighted pools from the
 * devnet's own WeightedPoolFactory (so the devnet indexer lists them like any other pool) over
 * `tokens` extra dev tokens, every tenth pool pairing an extra token with WETH so quotes between
 * the extra tokens and the main universe route through them.
 *
 * Fast because nothing is mined one transaction at a time: automine is switched off, every
 * transaction of a stage is sent from an account the node holds (`eth_sendTransaction`, signed by
 * the node, fixed gas, no estimate), then blocks are mined until the stage is in; each token is
 * approved once. Everything comes from its own account (`EXTRA_POOLS_ADMIN_INDEX`), so no address
 * of the standard devnet moves. Needs a hardhat node (evm_setAutomine, the default accounts).
 */
export const EXTRA_POOLS_ADMIN_INDEX = 10;

export interface ExtraPoolsOptions {
  /** Pools to create (two tokens each). */
  readonly pools: number;
  /** Extra dev tokens they are spread over. */
  readonly tokens: number;
  /** Accounts the node holds that receive `traderUnits` of every extra token and WETH, and approve the Vault. */
  readonly traders?: readonly string[];
  readonly traderUnits?: bigint;
}

export interface ExtraPools {
  readonly tokens: readonly DevnetToken[];
  readonly pools: readonly DevnetPool[];
  /** Transactions sent and blocks mined, for the caller's report. */
  readonly transactions: number;
  readonly blocks: number;
}

/** The USD value of each pool, and the price that sizes balances: extra tokens at 1 USD. */
const POOL_VALUE_USD = 60_000n;
const WETH_PRICE_USD = 3_000n;
const WEIGHTS: readonly (readonly [bigint, bigint])[] = [
  [50n, 50n],
  [80n, 20n],
  [60n, 40n],
];
const FEES = ['0.001', '0.003', '0.01'];
const GAS = {
  token: 1_500_000n,
  call: 200_000n,
  create: 6_000_000n,
  join: 400_000n,
};
/** Gas per block while deploying: many creations per block, few blocks. */
const DEPLOY_BLOCK_GAS = 1_000_000_000n;
const JOIN_KIND_INIT = 0;
/** Transactions per mined batch: blocks of a few hundred million gas. */
const CHUNK = 100;
const ERC20 = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function mint(address to, uint256 amount)',
  'function deposit() payable',
]);
const VAULT = new Interface([
  'event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)',
  'function joinPool(bytes32 poolId, address sender, address recipient, (address[] assets, uint256[] maxAmountsIn, bytes userData, bool fromInternalBalance) request)',
]);

interface PoolPlan {
  readonly name: string;
  readonly symbol: string;
  /** Sorted by address, with the balance each is seeded with. */
  readonly entries: readonly { address: string; weight: bigint; balance: bigint }[];
  readonly fee: bigint;
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

/** Pool i's two tokens: extra tokens cycle through pairs; every tenth pool pairs one with WETH. */
function planPools(count: number, extra: readonly DevnetToken[], weth: string): PoolPlan[] {
  const t = extra.length;
  const unit = 10n ** 18n;
  const plans: PoolPlan[] = [];
  for (let i = 0; i < count; i++) {
    const [wa, wb] = WEIGHTS[i % WEIGHTS.length]!;
    const a = extra[i % t]!;
    const withWeth = i % 10 === 0;
    const b = withWeth ? undefined : extra[(i + 1 + (Math.floor(i / t) % (t - 1))) % t]!;
    const bAddress = b?.address ?? weth;
    const priceB = b ? 1n : WETH_PRICE_USD;
    const raw = [
      { address: a.address, weight: (wa * unit) / 100n, balance: (POOL_VALUE_USD * wa * unit) / 100n },
      { address: bAddress, weight: (wb * unit) / 100n, balance: (POOL_VALUE_USD * wb * unit) / (100n * priceB) },
    ].sort((x, y) => (x.address < y.address ? -1 : 1));
    const label = `${a.symbol}/${b?.symbol ?? 'WETH'} ${wa}/${wb} #${i}`;
    plans.push({
      name: `Extra ${label}`,
      symbol: `XP-${i}`,
      entries: raw,
      fee: parseUnits(FEES[i % FEES.length]!, 18),
    });
  }
  return plans;
}

export async function deployExtraPools(
  provider: JsonRpcApiProvider,
  devnet: Devnet,
  options: ExtraPoolsOptions,
): Promise<ExtraPools> {
  if (options.tokens < 2) throw new Error(`extra pools need at least 2 tokens, got ${options.tokens}`);
  const admin = devAccount(EXTRA_POOLS_ADMIN_INDEX).address.toLowerCase();
  const { vault, weth, weightedPoolFactory } = devnet.addresses;
  let transactions = 0;
  let blocks = 0;
  const sent: string[] = [];
  const send = async (tx: { from?: string; to?: string; data: string; gas: bigint; value?: bigint }) => {
    const hash = (await provider.send('eth_sendTransaction', [
      {
        from: tx.from ?? admin,
        ...(tx.to ? { to: tx.to } : {}),
        data: tx.data,
        gas: hex(tx.gas),
        maxFeePerGas: hex(100n * 10n ** 9n),
        maxPriorityFeePerGas: hex(1n),
        ...(tx.value ? { value: hex(tx.value) } : {}),
      },
    ])) as string;
    transactions++;
    sent.push(hash);
  };
  /** Mines until every transaction sent so far is in a block, and checks they all succeeded. */
  const mineAll = async (what: string) => {
    const pending = sent.splice(0);
    if (pending.length === 0) return [];
    for (let guard = 0; ; guard++) {
      // The base fee would otherwise climb with every full block.
      await provider.send('hardhat_setNextBlockBaseFeePerGas', [hex(10n ** 9n)]);
      await provider.send('evm_mine', []);
      blocks++;
      const last = await provider.send('eth_getTransactionReceipt', [pending[pending.length - 1]]);
      if (last) break;
      if (guard > 1000) throw new Error(`${what}: transactions still pending after 1000 blocks`);
    }
    const receipts = (await Promise.all(pending.map((h) => provider.send('eth_getTransactionReceipt', [h])))) as ({
      status: string;
      logs: { topics: string[]; data: string }[];
    } | null)[];
    const failed = receipts.filter((r) => r?.status !== '0x1').length;
    if (failed > 0) throw new Error(`${what}: ${failed} of ${pending.length} transactions failed`);
    return receipts;
  };

  const automine = (await provider.send('hardhat_getAutomine', [])) as boolean;
  const gasLimit = (await provider.send('eth_getBlockByNumber', ['latest', false])) as { gasLimit: string };
  await provider.send('evm_setAutomine', [false]);
  await provider.send('evm_setBlockGasLimit', [hex(DEPLOY_BLOCK_GAS)]);
  try {
    // 1. Tokens, their supply, one approval each.
    const nonce = Number(await provider.send('eth_getTransactionCount', [admin, 'pending']));
    const artifact = devArtifact('DevToken');
    const deployData = (name: string, symbol: string) =>
      artifact.bytecode + AbiCoder.defaultAbiCoder().encode(['string', 'string', 'uint8'], [name, symbol, 18]).slice(2);
    const tokens: DevnetToken[] = [];
    for (let i = 0; i < options.tokens; i++) {
      const symbol = `XT${String(i).padStart(2, '0')}`;
      const name = `Extra token ${i} (devnet)`;
      await send({ data: deployData(name, symbol), gas: GAS.token });
      tokens.push({
        symbol,
        name,
        decimals: 18,
        address: getCreateAddress({ from: admin, nonce: nonce + i }).toLowerCase(),
      });
    }
    const plans = planPools(options.pools, tokens, weth);
    const need = new Map<string, bigint>();
    for (const p of plans) for (const e of p.entries) need.set(e.address, (need.get(e.address) ?? 0n) + e.balance);
    for (const t of tokens) {
      await send({
        to: t.address,
        data: ERC20.encodeFunctionData('mint', [admin, need.get(t.address) ?? 0n]),
        gas: GAS.call,
      });
      await send({ to: t.address, data: ERC20.encodeFunctionData('approve', [vault, MaxUint256]), gas: GAS.call });
    }
    await send({ to: weth, data: ERC20.encodeFunctionData('deposit', []), gas: GAS.call, value: need.get(weth) ?? 0n });
    await send({ to: weth, data: ERC20.encodeFunctionData('approve', [vault, MaxUint256]), gas: GAS.call });
    const traderUnits = (options.traderUnits ?? 1_000_000n) * 10n ** 18n;
    for (const trader of options.traders ?? []) {
      const who = trader.toLowerCase();
      for (const t of tokens) {
        await send({ to: t.address, data: ERC20.encodeFunctionData('mint', [who, traderUnits]), gas: GAS.call });
        await send({
          from: who,
          to: t.address,
          data: ERC20.encodeFunctionData('approve', [vault, MaxUint256]),
          gas: GAS.call,
        });
      }
      // WETH is worth more: as many dollars as the extra tokens.
      await send({
        from: who,
        to: weth,
        data: ERC20.encodeFunctionData('deposit', []),
        gas: GAS.call,
        value: traderUnits / WETH_PRICE_USD,
      });
      await send({
        from: who,
        to: weth,
        data: ERC20.encodeFunctionData('approve', [vault, MaxUint256]),
        gas: GAS.call,
      });
    }
    await mineAll('deploying and minting the extra tokens');

    // 2. The pools, from the real factory; the Vault's PoolRegistered logs give ids in creation order.
    const factory = new Interface(balancerAbi('WeightedPoolFactory'));
    const receipts: Awaited<ReturnType<typeof mineAll>> = [];
    for (const p of plans) {
      const data = factory.encodeFunctionData('create', [
        p.name,
        p.symbol,
        p.entries.map((e) => e.address),
        p.entries.map((e) => e.weight),
        p.entries.map(() => ZeroAddress),
        p.fee,
        admin,
      ]);
      await send({ to: weightedPoolFactory, data, gas: GAS.create });
      if (sent.length >= CHUNK) receipts.push(...(await mineAll('creating the extra pools')));
    }
    receipts.push(...(await mineAll('creating the extra pools')));
    const registered = VAULT.getEvent('PoolRegistered')!.topicHash;
    const created = receipts.map((r, i) => {
      const log = r!.logs.find((l) => l.topics[0] === registered);
      if (!log) throw new Error(`creating ${plans[i]!.name}: the Vault registered no pool`);
      return { id: log.topics[1]!.toLowerCase(), address: `0x${log.topics[2]!.slice(26)}`.toLowerCase() };
    });

    // 3. Seed every pool with its INIT join.
    for (let i = 0; i < created.length; i++) {
      const plan = plans[i]!;
      const amounts = plan.entries.map((e) => e.balance);
      const data = VAULT.encodeFunctionData('joinPool', [
        created[i]!.id,
        admin,
        admin,
        {
          assets: plan.entries.map((e) => e.address),
          maxAmountsIn: amounts,
          userData: AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256[]'], [JOIN_KIND_INIT, amounts]),
          fromInternalBalance: false,
        },
      ]);
      await send({ to: vault, data, gas: GAS.join });
      if (sent.length >= CHUNK) await mineAll('seeding the extra pools');
    }
    await mineAll('seeding the extra pools');

    const pools: DevnetPool[] = created.map((c, i) => ({
      id: c.id,
      address: c.address,
      kind: 'weighted',
      name: plans[i]!.name,
      symbol: plans[i]!.symbol,
      tokens: plans[i]!.entries.map((e) => e.address),
    }));
    return { tokens, pools, transactions, blocks };
  } finally {
    await provider.send('evm_setBlockGasLimit', [gasLimit.gasLimit]);
    await provider.send('evm_setAutomine', [automine]);
  }
}
