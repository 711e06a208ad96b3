import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, parseUnits, ZeroAddress, type Signer } from 'ethers';
import { devAccount, traderAccounts } from '../../src/devnet/accounts';
import { deployDevnet } from '../../src/devnet/deploy';
import { tokenBySymbol, type Devnet } from '../../src/devnet/devnet';
import { startInProcessChain, type LocalChain } from '../../src/devnet/localChain';
import { v3Abi } from '../../src/devnet/v3/artifacts';
import { compileBalancerV3, type V3Contracts } from '../../src/devnet/v3/compile';
import { approveThroughPermit2 } from '../../src/devnet/v3/permit2';
import { readDevnetV3 } from '../../src/devnet/v3/read';
import { V3_LBPS, V3_POOLS, V3_PROTOCOL_FEES } from '../../src/devnet/v3/universe';

/**
 * The Balancer V3 side of the devnet on the in-process chain: the stack is deployed and wired, the
 * pools and buffers are live, and a trader who approves through Permit2 gets exactly what the
 * routers' queries (eth_call from the zero address, as Balancer's SDK asks) promised.
 */
let chain: LocalChain;
let devnet: Devnet;
let contracts: V3Contracts;
let trader: Signer;

beforeAll(async () => {
  contracts = await compileBalancerV3();
  chain = startInProcessChain();
  devnet = await deployDevnet(devAccount(0, chain.provider), {
    traders: traderAccounts(chain.provider),
    v3: { contracts },
  });
  trader = traderAccounts(chain.provider)[0]!;
}, 600_000);

afterAll(async () => {
  await chain?.close();
});

const ERC20 = ['function balanceOf(address) view returns (uint256)'];
const balanceOf = async (token: string, holder: string) =>
  (await new Contract(token, ERC20, chain.provider).getFunction('balanceOf')(holder)) as bigint;

function vault(): Contract {
  const abi = [...v3Abi(contracts, 'VaultExtension'), ...v3Abi(contracts, 'VaultAdmin')] as { type: string }[];
  return new Contract(
    devnet.v3.addresses.vault,
    abi.filter((f) => f.type === 'function'),
    chain.provider,
  );
}

describe('the Balancer V3 stack', () => {
  test('every contract has code, and the Vault, routers and explorer point at each other', async () => {
    for (const [name, address] of Object.entries(devnet.v3.addresses))
      expect([name, (await chain.provider.getCode(address)).length > 2]).toEqual([name, true]);
    const a = devnet.v3.addresses;
    expect(String(await vault().getFunction('getProtocolFeeController')()).toLowerCase()).toBe(a.protocolFeeController);
    const explorer = new Contract(a.vaultExplorer, v3Abi(contracts, 'VaultExplorer'), chain.provider);
    expect(String(await explorer.getFunction('getVault')()).toLowerCase()).toBe(a.vault);
    for (const [name, router] of [
      ['Router', a.router],
      ['BatchRouter', a.batchRouter],
      ['BufferRouter', a.bufferRouter],
    ] as const) {
      const c = new Contract(router, v3Abi(contracts, name), chain.provider);
      expect(String(await c.getFunction('getPermit2')()).toLowerCase()).toBe(a.permit2);
    }
  });

  test('protocol fees are on as on mainnet, and every pool carries them', async () => {
    const controller = new Contract(
      devnet.v3.addresses.protocolFeeController,
      v3Abi(contracts, 'ProtocolFeeController'),
      chain.provider,
    );
    const swap = parseUnits(V3_PROTOCOL_FEES.swap, 18);
    const yieldFee = parseUnits(V3_PROTOCOL_FEES.yield, 18);
    expect(await controller.getFunction('getGlobalProtocolSwapFeePercentage')()).toBe(swap);
    expect(await controller.getFunction('getGlobalProtocolYieldFeePercentage')()).toBe(yieldFee);
    for (const pool of devnet.v3.pools) {
      const config = (await vault().getFunction('getPoolConfig')(pool.address)) as {
        aggregateSwapFeePercentage: bigint;
        aggregateYieldFeePercentage: bigint;
        isPoolInitialized: boolean;
      };
      expect([pool.name, config.isPoolInitialized, config.aggregateSwapFeePercentage]).toEqual([pool.name, true, swap]);
      expect(config.aggregateYieldFeePercentage).toBe(yieldFee);
    }
  });

  test('the pools are those of the V3 universe, the weighted and stable ones sharing tokens with V2 pools', () => {
    expect(devnet.v3.pools.map((p) => p.name)).toEqual([...V3_POOLS, ...V3_LBPS].map((p) => p.name));
    for (const name of ['V3 WETH-USDC 50/50', 'V3 USDC-USDT stable']) {
      const pool = devnet.v3.pools.find((p) => p.name === name)!;
      const v2 = devnet.pools.find((p) => pool.tokens.every((t) => p.tokens.includes(t)));
      expect([name, v2 !== undefined]).toEqual([name, true]);
    }
  });

  test('the buffers hold both sides and their vaults have earned yield', async () => {
    for (const b of devnet.v3.buffers) {
      const [underlying, wrapped] = (await vault().getFunction('getBufferBalance')(b.wrapped)) as [bigint, bigint];
      expect([b.symbol, underlying > 0n, wrapped > 0n]).toEqual([b.symbol, true, true]);
      const rate = (await new Contract(b.rateProvider, ['function getRate() view returns (uint256)'], chain.provider)
        .getFunction('getRate')
        .staticCall()) as bigint;
      expect([b.symbol, rate > 10n ** 18n]).toEqual([b.symbol, true]);
    }
  });

  test("docs/devnet.md's Balancer V3 table lists what the demo deploys", () => {
    // The table after "| Balancer V3 | address |", up to the first line that is not a row.
    const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'devnet.md'), 'utf8').split('\n');
    const from = readme.indexOf('| Balancer V3 | address |');
    const rows = readme.slice(
      from + 2,
      readme.findIndex((l, i) => i > from && !l.startsWith('|')),
    );
    // label -> the address listed, or what the row says instead.
    const listed = new Map(
      rows.map((r) => {
        const [, label, cell] = /^\| (.+?) \| (.+) \|$/.exec(r) ?? [];
        const address = /^`(0x[0-9a-f]{40})`$/.exec(cell!)?.[1];
        return [
          label!
            .replace(/^(pool|sale) /, '')
            .replace(/ \(.*\)$/, '')
            .toLowerCase(),
          address ?? cell!,
        ];
      }),
    );
    // A sale's address follows from its start time: the demo prints it, the table cannot list it.
    const isSale = (p: { kind: string }) => p.kind === 'lbp' || p.kind === 'fixedPriceLbp';
    const deployed = new Map<string, string>(
      [
        ...Object.entries(devnet.v3.addresses),
        ...devnet.v3.buffers.map((b) => [b.symbol, b.wrapped] as const),
        ...devnet.v3.pools.map(
          (p) => [p.name, isSale(p) ? 'printed by `npm run demo` (follows from its start time)' : p.address] as const,
        ),
      ].map(([name, value]) => [name.toLowerCase(), value] as const),
    );
    const pick = (names: Iterable<string>, m: Map<string, string>) =>
      [...names].map((n) => [n.toLowerCase(), m.get(n.toLowerCase())]);
    // Every pool and buffer is listed, at its address; every listed contract is the deployed one.
    const poolsAndBuffers = [...devnet.v3.pools.map((p) => p.name), ...devnet.v3.buffers.map((b) => b.symbol)];
    expect(pick(poolsAndBuffers, listed)).toEqual(pick(poolsAndBuffers, deployed));
    expect(pick(listed.keys(), listed)).toEqual(pick(listed.keys(), deployed));
  });

  test('a running chain reads back as the same V3 devnet', async () => {
    expect(await readDevnetV3(chain.provider)).toEqual(devnet.v3);
  });
});

describe('trading on the V3 devnet', () => {
  test('a Router query sent without `from`, as Balancer SDK sends it, answers as from the zero address', async () => {
    const p = devnet.v3.pools.find((x) => x.name === 'V3 WETH-USDC 50/50')!;
    const [weth, usdc] = [tokenBySymbol(devnet, 'WETH'), tokenBySymbol(devnet, 'USDC')];
    const router = new Contract(devnet.v3.addresses.router, v3Abi(contracts, 'Router'));
    const data = router.interface.encodeFunctionData('querySwapSingleTokenExactIn', [
      p.address,
      weth.address,
      usdc.address,
      parseUnits('2', 18),
      ZeroAddress,
      '0x',
    ]);
    const call = (from: object) => chain.provider.send('eth_call', [{ to: router.target, data, ...from }, 'latest']);
    // Hardhat's own default origin (its first account) makes the Vault revert with NotStaticCall.
    const fromless = (await call({})) as string;
    expect(fromless).toBe(await call({ from: ZeroAddress }));
    expect(BigInt(fromless)).toBeGreaterThan(0n);
  });

  const SWAPS = [
    { pool: 'V3 WETH-USDC 50/50', tokenIn: 'WETH', tokenOut: 'USDC', amount: '1.5' },
    { pool: 'V3 USDC-USDT stable', tokenIn: 'USDC', tokenOut: 'USDT', amount: '2500' },
    { pool: 'V3 Boosted waUSDC-waUSDT', tokenIn: 'waUSDT', tokenOut: 'waUSDC', amount: '1234.5' },
  ];

  test.each(SWAPS)('$pool: a Router swap pays exactly its query', async ({ pool, tokenIn, tokenOut, amount }) => {
    const p = devnet.v3.pools.find((x) => x.name === pool)!;
    const tIn = tokenBySymbol(devnet, tokenIn);
    const tOut = tokenBySymbol(devnet, tokenOut);
    const amountIn = parseUnits(amount, tIn.decimals);
    const router = new Contract(devnet.v3.addresses.router, v3Abi(contracts, 'Router'), trader);
    const quoted = (await (router.connect(chain.provider) as Contract)
      .getFunction('querySwapSingleTokenExactIn')
      .staticCall(p.address, tIn.address, tOut.address, amountIn, ZeroAddress, '0x', { from: ZeroAddress })) as bigint;
    expect(quoted).toBeGreaterThan(0n);

    const me = await trader.getAddress();
    await approveThroughPermit2(trader, devnet.v3.addresses.permit2, tIn.address, devnet.v3.addresses.router);
    const [inBefore, outBefore] = [await balanceOf(tIn.address, me), await balanceOf(tOut.address, me)];
    const deadline = 2n ** 63n;
    await (
      await router.getFunction('swapSingleTokenExactIn')(
        p.address,
        tIn.address,
        tOut.address,
        amountIn,
        quoted,
        deadline,
        false,
        '0x',
      )
    ).wait();
    expect(inBefore - (await balanceOf(tIn.address, me))).toBe(amountIn);
    expect((await balanceOf(tOut.address, me)) - outBefore).toBe(quoted);
  });

  test('a BatchRouter wrap through the waUSDC buffer pays exactly its query and moves the buffer', async () => {
    const buffer = devnet.v3.buffers.find((b) => b.symbol === 'waUSDC')!;
    const amountIn = parseUnits('777.123456', 6);
    const path = {
      tokenIn: buffer.underlying,
      steps: [{ pool: buffer.wrapped, tokenOut: buffer.wrapped, isBuffer: true }],
      exactAmountIn: amountIn,
      minAmountOut: 0n,
    };
    const batchRouter = new Contract(devnet.v3.addresses.batchRouter, v3Abi(contracts, 'BatchRouter'), trader);
    const [, , [quoted]] = (await (batchRouter.connect(chain.provider) as Contract)
      .getFunction('querySwapExactIn')
      .staticCall([path], ZeroAddress, '0x', { from: ZeroAddress })) as [bigint[], string[], bigint[]];
    expect(quoted).toBeGreaterThan(0n);

    const me = await trader.getAddress();
    await approveThroughPermit2(
      trader,
      devnet.v3.addresses.permit2,
      buffer.underlying,
      devnet.v3.addresses.batchRouter,
    );
    const [underlyingBefore, wrappedBefore] = (await vault().getFunction('getBufferBalance')(buffer.wrapped)) as [
      bigint,
      bigint,
    ];
    const outBefore = await balanceOf(buffer.wrapped, me);
    await (
      await batchRouter.getFunction('swapExactIn')([{ ...path, minAmountOut: quoted! }], 2n ** 63n, false, '0x')
    ).wait();
    expect((await balanceOf(buffer.wrapped, me)) - outBefore).toBe(quoted);
    const [underlyingAfter, wrappedAfter] = (await vault().getFunction('getBufferBalance')(buffer.wrapped)) as [
      bigint,
      bigint,
    ];
    // The buffer served the wrap from its own shares: it took the USDC and gave up the shares.
    expect(underlyingAfter - underlyingBefore).toBe(amountIn);
    expect(wrappedBefore - wrappedAfter).toBe(quoted);
  });
});
