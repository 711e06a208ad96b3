import type { Devnet } from './devnet';
import { routedLine, type RoutedPairs } from './routedPairs';
import { DEMO_LBP_WEIGHT_UPDATE } from './universe';

/**
 * The text `npm run demo` prints once everything answers: where things are, what the tokens are,
 * and a ready-to-paste curl command for every endpoint of the service. Pure, so a test can check
 * that every printed command is one the running demo answers.
 */
export interface DemoInfo {
  readonly apiUrl: string;
  readonly rpcUrl: string;
  readonly subgraphUrl: string;
  readonly priceApiUrl: string;
  readonly sanctionsApiUrl: string;
  readonly simulatorApiUrl: string;
  readonly dataDir: string;
  readonly devnet: Devnet;
  /** Funded, unlocked accounts (hardhat's default keys) with their private keys. */
  readonly traders: readonly { readonly address: string; readonly privateKey: string }[];
  /** An address the local sanctions list flags. */
  readonly blockedAddress: string;
  /** How many of each Vault's token pairs the running service routes (`routedPairs.ts`). */
  readonly routing?: readonly RoutedPairs[];
}

export interface DemoCommand {
  readonly title: string;
  readonly method: 'GET' | 'POST';
  /** Path on the API, e.g. /pools/31337. */
  readonly path: string;
  readonly body?: unknown;
  /** Status the demo answers with (the smoke test checks it). */
  readonly expectStatus: number;
}

export const READY_LINE = 'devnet demo ready';

function tokenAddress(devnet: Devnet, symbol: string): string {
  const t = devnet.tokens.find((x) => x.symbol === symbol);
  if (!t) throw new Error(`devnet has no ${symbol}`);
  return t.address;
}

export function demoCommands(info: DemoInfo): DemoCommand[] {
  const { devnet } = info;
  const chain = devnet.chainId;
  const sender = info.traders[0]?.address ?? '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
  const weth = tokenAddress(devnet, 'WETH');
  const usdc = tokenAddress(devnet, 'USDC');
  const bal = tokenAddress(devnet, 'BAL');
  const link = tokenAddress(devnet, 'LINK');
  const boosted = devnet.pools.find((p) => p.symbol === 'bb-USD');
  const stETH = devnet.tokens.find((t) => t.symbol === 'stETH');
  const saleA = devnet.tokens.find((t) => t.symbol === 'SALEA');
  const saleB = devnet.tokens.find((t) => t.symbol === 'SALEB');
  const pool = devnet.pools[0]!;
  const moving = devnet.pools.find((p) => p.name === DEMO_LBP_WEIGHT_UPDATE.pool);
  const endWeights = Object.values(DEMO_LBP_WEIGHT_UPDATE.endWeights).join('/');
  return [
    { title: 'Health and readiness', method: 'GET', path: '/healthz', expectStatus: 200 },
    { title: '', method: 'GET', path: '/readyz', expectStatus: 200 },
    { title: 'All pools of the devnet', method: 'GET', path: `/pools/${chain}`, expectStatus: 200 },
    { title: `One pool (${pool.name})`, method: 'GET', path: `/pools/${chain}/${pool.id}`, expectStatus: 200 },
    ...(moving
      ? [
          {
            title: `A liquidity bootstrapping pool on sale (${moving.name}): its weights move towards ${endWeights} every second; each new block (any trade) shows them at the next block's time`,
            method: 'GET' as const,
            path: `/pools/${chain}/${moving.id}`,
            expectStatus: 200,
          },
        ]
      : []),
    {
      title: 'Re-index the pools from the chain (after you traded)',
      method: 'POST',
      path: `/pools/${chain}/update`,
      expectStatus: 201,
    },
    { title: 'Known tokens with prices', method: 'GET', path: `/tokens/${chain}`, expectStatus: 200 },
    { title: 'Refresh token prices', method: 'POST', path: '/tokens/update/', expectStatus: 201 },
    {
      title: 'Quote: sell 1 WETH for USDC',
      method: 'POST',
      path: `/sor/${chain}`,
      expectStatus: 200,
      body: {
        sellToken: weth,
        buyToken: usdc,
        orderKind: 'sell',
        amount: '1000000000000000000',
        gasPrice: '1000000000',
      },
    },
    {
      title: 'Quote: buy 100 BAL with native ETH (two hops)',
      method: 'POST',
      path: `/sor/${chain}`,
      expectStatus: 200,
      body: {
        sellToken: '0x0000000000000000000000000000000000000000',
        buyToken: bal,
        orderKind: 'buy',
        amount: '100000000000000000000',
        gasPrice: '1000000000',
      },
    },
    ...(boosted
      ? [
          {
            title:
              "Quote: sell 100 LINK for the boosted pool's BPT (LINK > WETH > USDC > linear bb-USDC > bb-USD, or through DAI)",
            method: 'POST' as const,
            path: `/sor/${chain}`,
            expectStatus: 200,
            body: {
              sellToken: link,
              buyToken: boosted.address,
              orderKind: 'sell',
              amount: '100000000000000000000',
              gasPrice: '1000000000',
            },
          },
        ]
      : []),
    ...(saleA && saleB
      ? [
          {
            title:
              'Quote: sell 10000 SALEA for SALEB, tokens that live only in liquidity bootstrapping pools (SALEA > LBP > WETH > USDC > LBP > SALEB)',
            method: 'POST' as const,
            path: `/sor/${chain}`,
            expectStatus: 200,
            body: {
              sellToken: saleA.address,
              buyToken: saleB.address,
              orderKind: 'sell',
              amount: '10000000000000000000000',
              gasPrice: '1000000000',
            },
          },
        ]
      : []),
    ...(stETH
      ? [
          {
            title:
              "Order: sell 10 stETH for WETH through the batch relayer (wrapStETH at Lido's live ratio, then wstETH > WETH), 0.5% slippage",
            method: 'POST' as const,
            path: `/order/${chain}`,
            expectStatus: 200,
            body: {
              sellToken: stETH.address,
              buyToken: weth,
              orderKind: 'sell',
              amount: '10000000000000000000',
              gasPrice: '1000000000',
              sender,
              slippagePercentage: 0.005,
            },
          },
        ]
      : []),
    {
      // protocolVersion 2: the funded accounts approved the V2 Vault, so the transaction below runs as is.
      title: 'Order: a signed-ready Vault.batchSwap selling 1 WETH for USDC, 0.5% slippage',
      method: 'POST',
      path: `/order/${chain}`,
      expectStatus: 200,
      body: {
        sellToken: weth,
        buyToken: usdc,
        orderKind: 'sell',
        amount: '1000000000000000000',
        gasPrice: '1000000000',
        sender,
        slippagePercentage: 0.005,
        protocolVersion: 2,
      },
    },
    ...v3Commands(info),
    {
      title: 'GraphQL: the five most liquid pools',
      method: 'POST',
      path: '/graphql',
      expectStatus: 200,
      body: {
        query: `{ pools(chainId: ${chain}, first: 5, orderBy: "totalLiquidity", orderDirection: "desc") { pools { id poolType totalLiquidity tokens { symbol balance } } nextToken } }`,
      },
    },
    {
      title: 'GraphQL: pools whose gauge pays BAL, best boosted staking APR first (APRs in basis points)',
      method: 'POST',
      path: '/graphql',
      expectStatus: 200,
      body: {
        query: `{ pools(chainId: ${chain}, orderBy: "stakingAprMax", where: { stakingAprMin: { gt: 0 } }) { pools { name apr { stakingApr { min max } rewardAprs { total breakdown } min max } } } }`,
      },
    },
    {
      title: 'Sanctions screening (clean address)',
      method: 'GET',
      path: `/check-wallet?address=${sender}`,
      expectStatus: 200,
    },
    {
      title: 'Sanctions screening (an address the local list flags)',
      method: 'GET',
      path: `/check-wallet?address=${info.blockedAddress}`,
      expectStatus: 200,
    },
    {
      title: "Simulate a call on the devnet: the first funded account's WETH balance (balanceOf)",
      method: 'POST',
      path: '/simulator/simulate',
      expectStatus: 200,
      body: {
        network_id: String(chain),
        from: sender,
        to: weth,
        input: `0x70a08231${sender.slice(2).toLowerCase().padStart(64, '0')}`,
        save: false,
      },
    },
  ];
}

/** The Balancer V3 examples: its pools, a V3 quote through the boosted pool's buffers, a V3 order with its Permit2 approvals. */
function v3Commands(info: DemoInfo): DemoCommand[] {
  const { devnet } = info;
  const chain = devnet.chainId;
  const sender = info.traders[0]?.address ?? '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
  const usdc = tokenAddress(devnet, 'USDC');
  const dai = tokenAddress(devnet, 'DAI');
  const waUSDT = devnet.v3.tokens.find((t) => t.symbol === 'waUSDT');
  return [
    {
      title:
        'GraphQL: the Balancer V3 pools (protocolVersion 3), tokens in the V3 Vault order with the rates it applies',
      method: 'POST',
      path: '/graphql',
      expectStatus: 200,
      body: {
        query: `{ pools(chainId: ${chain}, where: { protocolVersion: { eq: 3 } }) { pools { address name poolType protocolVersion tokens { symbol balance priceRate } } } }`,
      },
    },
    {
      title:
        'Quote in Balancer V3: sell 50,000 USDC for DAI (BatchRouter paths through the waUSDC and waDAI buffers and a boosted pool)',
      method: 'POST',
      path: `/sor/${chain}`,
      expectStatus: 200,
      body: {
        sellToken: usdc,
        buyToken: dai,
        orderKind: 'sell',
        amount: '50000000000',
        gasPrice: '1000000000',
        protocolVersion: 3,
      },
    },
    ...(waUSDT
      ? [
          {
            title:
              'Order in Balancer V3: sell 1,000 USDC for waUSDT through its buffer and the boosted pool; send the approvals it lists first (USDC -> Permit2, Permit2 -> BatchRouter)',
            method: 'POST' as const,
            path: `/order/${chain}`,
            expectStatus: 200,
            body: {
              sellToken: usdc,
              buyToken: waUSDT.address,
              orderKind: 'sell',
              amount: '1000000000',
              gasPrice: '1000000000',
              sender,
              slippagePercentage: 0.005,
              protocolVersion: 3,
            },
          },
        ]
      : []),
  ];
}

export function curlFor(apiUrl: string, c: DemoCommand): string {
  const url = `${apiUrl}${c.path}`;
  if (c.method === 'GET') return `curl -s '${url}'`;
  const body = c.body === undefined ? '' : ` -H 'content-type: application/json' -d '${JSON.stringify(c.body)}'`;
  return `curl -s -X POST '${url}'${body}`;
}

/** The V3 side: its contracts (users approve Permit2, Permit2 the routers), pools by address, buffers. */
function balancerV3Lines(devnet: Devnet): string[] {
  const a = devnet.v3.addresses;
  const lines = ['', 'Balancer V3 contracts (a token approves Permit2, Permit2 approves a router):'];
  const contracts = [
    ['Vault', a.vault],
    ['Router', a.router],
    ['BatchRouter', a.batchRouter],
    ['BufferRouter', a.bufferRouter],
    ['VaultExplorer', a.vaultExplorer],
    ['Permit2', a.permit2],
    ['ProtocolFeeController', a.protocolFeeController],
    ['WeightedPoolFactory', a.weightedPoolFactory],
    ['StablePoolFactory', a.stablePoolFactory],
  ] as const;
  for (const [name, address] of contracts) lines.push(`  ${name.padEnd(34)} ${address}`);
  lines.push('', 'Balancer V3 pools (a V3 pool is keyed by its address):');
  for (const p of devnet.v3.pools) lines.push(`  ${p.name.padEnd(32)} ${p.symbol.padEnd(18)} ${p.address}`);
  lines.push('', 'Balancer V3 ERC-4626 buffers (the Vault wraps and unwraps from them):');
  for (const b of devnet.v3.buffers) lines.push(`  ${b.symbol.padEnd(32)} ${b.wrapped}`);
  return lines;
}

export function demoBanner(info: DemoInfo): string {
  const lines: string[] = [];
  const { devnet } = info;
  lines.push('', `Balancer pools service on a local devnet (chain ${devnet.chainId} "localdev")`, '');
  lines.push(`  API        ${info.apiUrl}   (GraphiQL: ${info.apiUrl}/graphql)`);
  lines.push(`  chain RPC  ${info.rpcUrl}   (chain id ${devnet.chainId}; add it to a wallet as a custom network)`);
  lines.push(`             the API follows this chain's head: a trade shows in GET /pools and quotes within a second`);
  lines.push(`  subgraph   ${info.subgraphUrl}`);
  lines.push(`  prices     ${info.priceApiUrl}`);
  lines.push(`  sanctions  ${info.sanctionsApiUrl}`);
  lines.push(`  simulator  ${info.simulatorApiUrl} (simulate only; encode-states answers 502: a Tenderly feature)`);
  lines.push(`  store      ${info.dataDir} (SQLite, removed on exit)`, '');
  lines.push('Contracts:');
  const a = devnet.addresses;
  const contracts = [
    ['Vault', a.vault],
    ['BatchRelayer', a.batchRelayer],
    ['BalancerQueries', a.balancerQueries],
    ['WeightedPoolFactory', a.weightedPoolFactory],
    ['WeightedPoolFactory (v1)', a.weightedPoolFactoryV1],
    ['ComposableStablePoolFactory', a.composableStablePoolFactory],
    ['StablePoolFactory (v2)', a.stablePoolFactoryV2],
    ['ERC4626LinearPoolFactory', a.erc4626LinearPoolFactory],
    ['LiquidityBootstrappingPoolFactory', a.liquidityBootstrappingPoolFactory],
  ] as const;
  for (const [name, address] of contracts) {
    lines.push(`  ${name.padEnd(34)} ${address}`);
  }
  lines.push('', 'Tokens:');
  for (const t of [...devnet.tokens, ...devnet.v3.tokens])
    lines.push(`  ${t.symbol.padEnd(6)} ${String(t.decimals).padStart(2)} decimals  ${t.address}`);
  lines.push('', 'Pools:');
  for (const p of devnet.pools) lines.push(`  ${p.name.padEnd(32)} ${p.symbol.padEnd(18)} ${p.id}`);
  lines.push(...balancerV3Lines(devnet));
  if (info.routing !== undefined && info.routing.length > 0) {
    lines.push('', "Pairs that route (each ordered pair of a Vault's tokens, about $100 sold, one transaction):");
    for (const r of info.routing) lines.push(`  Balancer V${r.protocolVersion}  ${routedLine(r)}`);
  }
  lines.push(
    '',
    'Funded accounts (public test keys: never use them on a real network; the Vault is approved for every token):',
  );
  for (const t of info.traders) lines.push(`  ${t.address}  key ${t.privateKey}`);
  lines.push('', 'Try it:');
  for (const c of demoCommands(info)) {
    if (c.title) lines.push('', `# ${c.title}`);
    lines.push(curlFor(info.apiUrl, c));
  }
  const order = demoCommands(info).find(
    (c) => c.path.startsWith('/order/') && (c.body as { protocolVersion?: number }).protocolVersion === 2,
  );
  if (order) {
    const sender = (order.body as { sender: string }).sender;
    lines.push(
      '',
      '# Execute that order on the devnet (the node signs for its unlocked test accounts); needs jq',
      `${curlFor(info.apiUrl, order)} \\`,
      `  | jq -c '{jsonrpc:"2.0",id:1,method:"eth_sendTransaction",params:[{from:"${sender}",to:.to,data:.data}]}' \\`,
      `  | curl -s -X POST '${info.rpcUrl}' -H 'content-type: application/json' -d @-`,
      `${curlFor(
        info.apiUrl,
        demoCommands(info).find((c) => c.path.endsWith('/update') && c.path.startsWith('/pools'))!,
      )}   # then re-index`,
    );
  }
  lines.push('', `${READY_LINE}: press Ctrl-C to stop`, '');
  return lines.join('\n');
}
