import { updatePools } from '../../src/jobs/updatePools';
import { FakeErc20Rpc } from '../fakes/erc20RpcServer';
import { syntheticPools, syntheticTokens } from '../fakes/subgraphServer';
import { Harness, startHarness } from './poolUpdateHarness';

interface ApiToken {
  address: string;
  symbol: string | null;
  name: string | null;
  decimals: number;
}

/** Pools whose tokens the subgraph knows only by address and decimals. */
const universe = syntheticTokens({ tokenCount: 4 });
const pools = syntheticPools(12, { tokenCount: 4 }).map((p) => ({
  ...p,
  tokens: p.tokens.map((t) => ({ ...t, symbol: null, name: null })),
}));
const [plain, oldStyle, reverting, noCode] = universe as [
  (typeof universe)[number],
  (typeof universe)[number],
  (typeof universe)[number],
  (typeof universe)[number],
];

describe('token metadata for tokens the subgraph describes only by address', () => {
  let h: Harness;
  let rpc: FakeErc20Rpc;

  beforeEach(async () => {
    rpc = await FakeErc20Rpc.start({
      [plain.address]: { symbol: 'USDX', name: 'USD Example', decimals: plain.decimals },
      [oldStyle.address]: { symbol: 'MKR', name: 'Maker', decimals: oldStyle.decimals, bytes32: true },
      [reverting.address]: { symbol: 'X', name: 'X', decimals: 18, reverts: true },
    });
    h = await startHarness(pools, { RPC_URL_1: rpc.url });
  });
  afterEach(async () => {
    await h.close();
    await rpc.close();
  });

  const tokens = async () => new Map(((await h.getJson('/tokens/1')).body as ApiToken[]).map((t) => [t.address, t]));

  test('symbol and name are read with eth_call, string or bytes32; a token that reverts keeps none', async () => {
    const report = await updatePools(h.server.ctx, 1);
    expect(report.tokensAdded).toBe(4);
    expect(report.tokensFromChain).toBe(2);

    const byAddress = await tokens();
    expect(byAddress.get(plain.address)).toMatchObject({
      symbol: 'USDX',
      name: 'USD Example',
      decimals: plain.decimals,
    });
    expect(byAddress.get(oldStyle.address)).toMatchObject({ symbol: 'MKR', name: 'Maker' });
    expect(byAddress.get(reverting.address)).toMatchObject({ symbol: null, name: null, decimals: reverting.decimals });
    expect(byAddress.get(noCode.address)).toMatchObject({ symbol: null, name: null });
    // One batched request for the four tokens' three reads.
    expect(rpc.requests).toBe(1);
    expect(rpc.calls).toBe(12);
  });

  test('tokens already known are not looked up again', async () => {
    await updatePools(h.server.ctx, 1);
    const requests = rpc.requests;
    expect((await updatePools(h.server.ctx, 1)).tokensAdded).toBe(0);
    expect(rpc.requests).toBe(requests);
  });

  test('a failing node does not fail the pool update: pools and tokens are stored without symbols', async () => {
    rpc.failStatus = 503;
    expect((await h.update()).status).toBe(201);
    expect(((await h.getJson('/pools/1')).body as unknown[]).length).toBe(12);
    const byAddress = await tokens();
    expect(byAddress.size).toBe(4);
    expect([...byAddress.values()].every((t) => t.symbol === null)).toBe(true);
  });
});
