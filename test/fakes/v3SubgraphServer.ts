import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql } from 'graphql';

/**
 * Local stand-ins for Balancer's two V3 subgraphs, each a real HTTP server executing GraphQL
 * against the subgraph's own names (a subset of `balancer-v3-vault` and `balancer-v3-pools` with
 * the parameter entities of the types the service carries, as that subgraph's schema declares them; an
 * unknown field or argument is a GraphQL error, as on graph-node): `pools(first, orderBy: id,
 * orderDirection, where: {id_gt, id_in, totalShares_gt, _change_block})` and `_meta`. The vault
 * fake keeps a block number moved by every change (`setPool`, `removePool`) and answers
 * `_change_block: {number_gte}` with the pools changed at or after it; `queries` logs each pools
 * query's `where`.
 */

const VAULT_SDL = `
scalar Bytes
scalar BigDecimal
scalar BigInt
input BlockChangedFilter { number_gte: Int! }
input Pool_filter { id_gt: Bytes, id_in: [Bytes!], totalShares_gt: BigDecimal, _change_block: BlockChangedFilter }
enum Pool_orderBy { id }
enum OrderDirection { asc desc }
type Hook { address: Bytes! }
type HookConfig {
  hook: Hook!
  enableHookAdjustedAmounts: Boolean!
  shouldCallComputeDynamicSwapFee: Boolean!
  shouldCallBeforeSwap: Boolean!
  shouldCallAfterSwap: Boolean!
  shouldCallBeforeAddLiquidity: Boolean!
  shouldCallAfterAddLiquidity: Boolean!
  shouldCallBeforeRemoveLiquidity: Boolean!
  shouldCallAfterRemoveLiquidity: Boolean!
}
type LiquidityManagement { disableUnbalancedLiquidity: Boolean! }
type PoolToken {
  address: Bytes! index: Int! name: String! symbol: String! decimals: Int! balance: BigDecimal!
  priceRate: BigDecimal! paysYieldFees: Boolean!
}
type RateProvider { address: Bytes! token: PoolToken! }
type Pool {
  id: Bytes! address: Bytes! name: String! symbol: String! factory: Bytes! swapFee: BigDecimal!
  totalShares: BigDecimal! blockTimestamp: BigInt! swapsCount: BigInt! holdersCount: BigInt!
  tokens: [PoolToken!]! rateProviders: [RateProvider!]! hookConfig: HookConfig! liquidityManagement: LiquidityManagement!
}
type _Block_ { number: Int! }
type _Meta_ { block: _Block_! }
type Query {
  pools(first: Int, orderBy: Pool_orderBy, orderDirection: OrderDirection, where: Pool_filter): [Pool!]!
  _meta: _Meta_
}`;

const POOLS_SDL = `
scalar Bytes
scalar BigDecimal
scalar BigInt
input Pool_filter { id_in: [Bytes!] }
enum PoolType { Weighted Stable LBPool LBP FixedLBP QuantAMMWeighted Gyro2 GyroE ReClamm }
type Factory { id: Bytes! type: PoolType! version: Int! }
type WeightedParams { weights: [BigDecimal!]! }
type StableParams { amp: BigInt! }
type Gyro2Params { id: Bytes! sqrtAlpha: BigDecimal! sqrtBeta: BigDecimal! }
type GyroEParams {
  id: Bytes! alpha: BigDecimal! beta: BigDecimal! c: BigDecimal! s: BigDecimal! lambda: BigDecimal!
  tauAlphaX: BigDecimal! tauAlphaY: BigDecimal! tauBetaX: BigDecimal! tauBetaY: BigDecimal!
  u: BigDecimal! v: BigDecimal! w: BigDecimal! z: BigDecimal! dSq: BigDecimal!
}
type ReClammParams {
  id: Bytes! lastTimestamp: BigInt! lastVirtualBalances: [BigInt!]! dailyPriceShiftExponent: BigInt!
  dailyPriceShiftBase: BigInt! centerednessMargin: BigInt! currentFourthRootPriceRatio: BigInt!
  startFourthRootPriceRatio: BigInt! endFourthRootPriceRatio: BigInt! priceRatioUpdateStartTime: BigInt!
  priceRatioUpdateEndTime: BigInt!
}
type QuantAMMWeightedParams {
  id: Bytes! oracleStalenessThreshold: BigInt! poolRegistry: BigInt! lambda: [BigInt!]! epsilonMax: BigInt!
  absoluteWeightGuardRail: BigInt! maxTradeSizeRatio: BigInt! updateInterval: BigInt!
  weightsAtLastUpdateInterval: [BigInt!]! weightBlockMultipliers: [BigInt!]! lastUpdateIntervalTime: BigInt!
  lastInterpolationTimePossible: BigInt!
}
type LBPParams {
  startTime: BigInt! endTime: BigInt! owner: Bytes! isProjectTokenSwapInBlocked: Boolean! projectToken: Bytes! reserveToken: Bytes!
  projectTokenStartWeight: BigInt! projectTokenEndWeight: BigInt! reserveTokenStartWeight: BigInt! reserveTokenEndWeight: BigInt!
}
type FixedLBPParams {
  startTime: BigInt! endTime: BigInt! owner: Bytes! isProjectTokenSwapInBlocked: Boolean! projectToken: Bytes! reserveToken: Bytes!
  projectTokenRate: BigInt!
}
type Pool {
  id: Bytes! address: Bytes! factory: Factory! weightedParams: WeightedParams stableParams: StableParams
  gyro2Params: Gyro2Params gyroEParams: GyroEParams reClammParams: ReClammParams
  quantAMMWeightedParams: QuantAMMWeightedParams lbpParams: LBPParams fixedLBPParams: FixedLBPParams
}
type Query { pools(first: Int, where: Pool_filter): [Pool!]! }`;

/** The pools SDL without the LBP sale entities and the Pool fields that name them. */
function withoutSales(sdl: string): string {
  return sdl
    .replace(/type (Fixed)?LBPParams \{[^}]*\}\n/g, '')
    .replace(' lbpParams: LBPParams fixedLBPParams: FixedLBPParams', '');
}

type Row = Record<string, unknown> & { readonly id: string };

interface Where {
  readonly id_gt?: string;
  readonly id_in?: readonly string[];
  readonly totalShares_gt?: string;
  readonly _change_block?: { readonly number_gte: number };
}

async function serve(
  sdl: string,
  root: (log: Where[]) => object,
): Promise<{ server: Server; url: string; log: Where[] }> {
  const schema = buildSchema(sdl);
  const log: Where[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: string; variables?: object };
      void graphql({ schema, source: body.query, variableValues: body.variables as never, rootValue: root(log) }).then(
        (result) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(result));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, log };
}

export class FakeV3Subgraphs {
  /** Vault-subgraph pools by id, with the block each last changed at. */
  private readonly vaultPools = new Map<string, { row: Row; changedAt: number }>();
  /** Pools-subgraph rows (type, parameters) by id. */
  private readonly typeRows = new Map<string, Row>();
  block = 1_000;

  private constructor(
    private readonly vault: { server: Server; url: string; log: Where[] },
    private readonly types: { server: Server; url: string; log: Where[] },
  ) {}

  get vaultUrl(): string {
    return this.vault.url;
  }

  get poolsUrl(): string {
    return this.types.url;
  }

  /** Every vault-subgraph pools query's `where`. */
  get queries(): readonly Where[] {
    return this.vault.log;
  }

  /** `sales: false`: a pools subgraph without the LBP sale entities (`lbpParams`, `fixedLBPParams`), as older deployments. */
  static async start(options: { readonly sales?: boolean } = {}): Promise<FakeV3Subgraphs> {
    const ref: { self?: FakeV3Subgraphs } = {};
    const vault = await serve(VAULT_SDL, (log) => ({
      pools: (args: { first?: number; where?: Where }) => {
        log.push(args.where ?? {});
        return ref.self!.vaultPage(args);
      },
      _meta: () => ({ block: { number: ref.self!.block } }),
    }));
    const types = await serve(options.sales === false ? withoutSales(POOLS_SDL) : POOLS_SDL, () => ({
      pools: (args: { where?: Where }) =>
        (args.where?.id_in ?? [...ref.self!.typeRows.keys()]).flatMap((id) => ref.self!.typeRows.get(id) ?? []),
    }));
    ref.self = new FakeV3Subgraphs(vault, types);
    return ref.self;
  }

  /** Adds or changes a pool in both subgraphs (the type row only when given); moves the block. */
  setPool(vaultRow: Row, typeRow?: Row): void {
    this.block++;
    this.vaultPools.set(vaultRow.id, { row: vaultRow, changedAt: this.block });
    if (typeRow) this.typeRows.set(typeRow.id, typeRow);
  }

  private vaultPage(args: { first?: number; where?: Where }): Row[] {
    const w = args.where ?? {};
    return [...this.vaultPools.values()]
      .filter(({ row, changedAt }) => {
        if (w.id_gt !== undefined && !(row.id > w.id_gt)) return false;
        if (w.totalShares_gt !== undefined && !(Number(row.totalShares) > Number(w.totalShares_gt))) return false;
        if (w._change_block !== undefined && changedAt < w._change_block.number_gte) return false;
        return true;
      })
      .map(({ row }) => row)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, args.first ?? 100);
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.vault.server, this.types.server].map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
  }
}
