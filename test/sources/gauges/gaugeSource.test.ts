import type { Address } from '../../../src/domain/address';
import type { ChainGauges } from '../../../src/config/chains';
import { BalancerGaugeSource } from '../../../src/sources/gauges/gaugeSource';
import { UpstreamError } from '../../../src/sources/upstream';
import { FakeGaugeChain } from '../../fakes/gaugeRpcServer';
import { FakeGaugesSubgraph, gaugeEntry } from '../../fakes/gaugesSubgraphServer';

/**
 * The gauge source against a local gauges subgraph and a local node speaking the contracts' ABI:
 * what it reports per pool on a controller chain and on child chains (both gauge generations),
 * how it batches, and which failures are per gauge and which fail the whole read.
 */
const NOW = 1_700_000_000;
const E18 = 10n ** 18n;
const BAL = '0x00000000000000000000000000000000000000b1' as Address;
const LINK = '0x00000000000000000000000000000000000000e9';
const USDC = '0x00000000000000000000000000000000000000c1';
const TOKEN_ADMIN = '0x00000000000000000000000000000000000000a1' as Address;
const CONTROLLER = '0x00000000000000000000000000000000000000a2' as Address;
const pid = (n: number) =>
  `0x${n.toString(16).padStart(40, '0')}0002000000000000000000${n.toString(16).padStart(2, '0')}`;
const gaugeAt = (n: number) => `0x${(0x6a00 + n).toString(16).padStart(40, '0')}`;

let subgraph: FakeGaugesSubgraph;
let chain: FakeGaugeChain;

beforeAll(async () => {
  subgraph = await FakeGaugesSubgraph.start();
  chain = await FakeGaugeChain.start({ gauges: {}, decimals: {} });
});
afterAll(async () => {
  await subgraph.close();
  await chain.close();
});
beforeEach(() => {
  subgraph.failStatus = undefined;
  subgraph.graphqlError = undefined;
  chain.failStatus = undefined;
  chain.hang = false;
  subgraph.hang = false;
  chain.requests = 0;
});

function source(gauges: ChainGauges, pageSize?: number, timeoutMs = 2_000): BalancerGaugeSource {
  return new BalancerGaugeSource({
    chain: gauges,
    subgraph: { url: subgraph.url, timeoutMs, retries: 1, baseDelayMs: 1, maxDelayMs: 2, pageSize },
    rpc: { url: chain.url, timeoutMs, batchSize: 100, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 } },
  });
}

const mainnet: ChainGauges = {
  subgraphUrl: '',
  bal: BAL,
  emissions: { kind: 'controller', gaugeController: CONTROLLER, balancerTokenAdmin: TOKEN_ADMIN },
};
const child: ChainGauges = { subgraphUrl: '', bal: BAL, emissions: { kind: 'child' } };

describe('controller chain (mainnet)', () => {
  beforeEach(() => {
    subgraph.entries = [
      gaugeEntry(pid(1), gaugeAt(1), [LINK, USDC]),
      gaugeEntry(pid(2), gaugeAt(2)),
      gaugeEntry(pid(3), gaugeAt(3), [], true),
    ];
    chain.state = {
      tokenAdmin: { address: TOKEN_ADMIN, rate: 3n * E18 },
      controller: {
        address: CONTROLLER,
        weights: { [gaugeAt(1)]: E18 / 2n, [gaugeAt(2)]: E18 / 4n, [gaugeAt(3)]: E18 / 4n },
      },
      gauges: {
        // Capped at 10 %: gets 0.3 BAL/s of the 3, not 1.5.
        [gaugeAt(1)]: {
          totalSupply: 1000n * E18,
          workingSupply: 400n * E18,
          cap: E18 / 10n,
          rewards: { [LINK]: { rate: 5n, periodFinish: NOW + 9 }, [USDC]: { rate: 7n, periodFinish: NOW - 9 } },
        },
        // No cap (a 2022 gauge): the controller's weight, 0.75 BAL/s.
        [gaugeAt(2)]: { totalSupply: 10n * E18, workingSupply: 9n * E18 },
        [gaugeAt(3)]: { totalSupply: 1n, workingSupply: 1n },
      },
      decimals: { [LINK]: 18, [USDC]: 6 },
    };
  });

  it('each pool gets its gauge: BAL per second = inflation x (capped) weight, boosted by working supply, rewards with decimals', async () => {
    const got = await source(mainnet).fetch(NOW);
    expect(got.problems).toEqual([]);
    expect(got.unread.size).toBe(0);
    expect(got.byPool.get(pid(1).toLowerCase())).toEqual({
      address: gaugeAt(1),
      isKilled: false,
      bal: { perSecond: (3n * E18) / 10n, boosted: true, periodFinish: null },
      totalSupply: 1000n * E18,
      workingSupply: 400n * E18,
      rewards: [
        { token: LINK, decimals: 18, perSecond: 5n, periodFinish: NOW + 9 },
        { token: USDC, decimals: 6, perSecond: 7n, periodFinish: NOW - 9 },
      ],
    });
    expect(got.byPool.get(pid(2).toLowerCase())!.bal).toEqual({
      perSecond: (3n * E18) / 4n,
      boosted: true,
      periodFinish: null,
    });
    expect(got.byPool.get(pid(3).toLowerCase())!.isKilled).toBe(true);
  });

  it('reads every gauge in one JSON-RPC batch', async () => {
    await source(mainnet).fetch(NOW);
    expect(chain.requests).toBe(1);
  });

  it('pages through the subgraph by pool address', async () => {
    const got = await source(mainnet, 2).fetch(NOW);
    expect(got.byPool.size).toBe(3);
    expect(subgraph.queries.slice(-2)).toEqual([
      { first: 2, lastId: '' },
      { first: 2, lastId: pid(2).slice(0, 42) },
    ]);
  });

  it('a gauge whose calls revert leaves its pool unread (last APRs kept) and is named; the others are read', async () => {
    chain.state.gauges[gaugeAt(2)] = { totalSupply: 0n, reverts: true };
    const got = await source(mainnet).fetch(NOW);
    expect([...got.unread]).toEqual([pid(2).toLowerCase()]);
    expect(got.byPool.has(pid(2).toLowerCase())).toBe(false);
    expect(got.byPool.size).toBe(2);
    expect(got.problems).toEqual([expect.stringContaining(`gauge ${gaugeAt(2)} of pool ${pid(2).toLowerCase()}`)]);
  });

  it('a malformed subgraph entry is skipped and its pool kept unread', async () => {
    const bad = gaugeEntry(pid(4), gaugeAt(4));
    subgraph.entries.push({ ...bad, preferentialGauge: { ...bad.preferentialGauge!, id: 'not-an-address' } });
    const got = await source(mainnet).fetch(NOW);
    expect(got.unread.has(pid(4).toLowerCase())).toBe(true);
    expect(got.problems).toEqual([expect.stringContaining('is not an address')]);
  });

  it('an unreadable token admin, a failing node or a failing subgraph fail the whole read', async () => {
    chain.state.tokenAdmin!.reverts = true;
    await expect(source(mainnet).fetch(NOW)).rejects.toThrow(
      /RPC: BalancerTokenAdmin .* getInflationRate\(\) gave execution reverted/,
    );
    chain.state.tokenAdmin!.reverts = false;

    chain.failStatus = 503;
    chain.requests = 0;
    // Retried once, then given up.
    await expect(source(mainnet).fetch(NOW)).rejects.toThrow(new UpstreamError('RPC', 'answered HTTP 503'));
    expect(chain.requests).toBe(2);
    chain.failStatus = undefined;

    subgraph.graphqlError = 'indexing error';
    await expect(source(mainnet).fetch(NOW)).rejects.toThrow(
      'gauges subgraph: answered with GraphQL errors: indexing error',
    );
    subgraph.graphqlError = undefined;
    subgraph.failStatus = 500;
    await expect(source(mainnet).fetch(NOW)).rejects.toThrow('gauges subgraph: answered HTTP 500');
  });
});

describe('child chains', () => {
  beforeEach(() => {
    subgraph.entries = [gaugeEntry(pid(1), gaugeAt(1), [BAL, LINK]), gaugeEntry(pid(2), gaugeAt(2), [LINK])];
    chain.state = {
      gauges: {
        // 2022 child gauge: bridged BAL streamed as a reward, no working supply.
        [gaugeAt(1)]: {
          totalSupply: 50n * E18,
          rewards: { [BAL]: { rate: 11n, periodFinish: NOW + 60 }, [LINK]: { rate: 13n, periodFinish: NOW + 60 } },
        },
        // 2023 child gauge: BAL as the week's inflation rate, boosted; rewards in the five-field layout.
        [gaugeAt(2)]: {
          totalSupply: 80n * E18,
          workingSupply: 40n * E18,
          inflationRate: 17n,
          layout: 5,
          rewards: { [LINK]: { rate: 19n, periodFinish: NOW + 60 } },
        },
      },
      decimals: { [BAL]: 18, [LINK]: 18 },
    };
  });

  it('2022 gauges: bridged BAL from the reward data, unboosted; the other rewards stay rewards', async () => {
    const got = await source(child).fetch(NOW);
    expect(got.byPool.get(pid(1).toLowerCase())).toEqual({
      address: gaugeAt(1),
      isKilled: false,
      bal: { perSecond: 11n, boosted: false, periodFinish: NOW + 60 },
      totalSupply: 50n * E18,
      workingSupply: 50n * E18,
      rewards: [{ token: LINK, decimals: 18, perSecond: 13n, periodFinish: NOW + 60 }],
    });
  });

  it('2023 gauges: BAL from inflation_rate(week), boosted by working supply', async () => {
    const got = await source(child).fetch(NOW);
    expect(got.byPool.get(pid(2).toLowerCase())).toEqual({
      address: gaugeAt(2),
      isKilled: false,
      bal: { perSecond: 17n, boosted: true, periodFinish: null },
      totalSupply: 80n * E18,
      workingSupply: 40n * E18,
      rewards: [{ token: LINK, decimals: 18, perSecond: 19n, periodFinish: NOW + 60 }],
    });
  });
});

describe('an upstream that does not answer', () => {
  beforeEach(() => {
    subgraph.entries = [gaugeEntry(pid(1), gaugeAt(1))];
    chain.state = {
      tokenAdmin: { address: TOKEN_ADMIN, rate: E18 },
      controller: { address: CONTROLLER, weights: { [gaugeAt(1)]: E18 } },
      gauges: { [gaugeAt(1)]: { totalSupply: E18, workingSupply: E18 } },
      decimals: {},
    };
  });

  it('a silent node: each attempt ends at the request timeout, retried once, then the read fails naming the timeout', async () => {
    chain.hang = true;
    await expect(source(mainnet, undefined, 200).fetch(NOW)).rejects.toThrow(
      new UpstreamError('RPC', 'no answer within 200 ms'),
    );
    expect(chain.requests).toBe(2);
  });

  it('a silent subgraph: the same, for the gauges subgraph', async () => {
    subgraph.hang = true;
    const before = subgraph.queries.length;
    await expect(source(mainnet, undefined, 200).fetch(NOW)).rejects.toThrow(
      new UpstreamError('gauges subgraph', 'no answer within 200 ms'),
    );
    expect(subgraph.queries.length - before).toBe(2);
  });

  it('a deadline ends the read before the retries do, and the error names it', async () => {
    chain.hang = true;
    const label = "the decoration's 1 s deadline (DECORATE_POOLS_DEADLINE_SECONDS)";
    await expect(source(mainnet, undefined, 60_000).fetch(NOW, { at: Date.now() + 300, label })).rejects.toThrow(
      new UpstreamError('RPC', `no answer before ${label}`),
    );
    expect(chain.requests).toBe(1);
  });
});
