import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { devAccount } from '../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, type Devnet } from '../../src/devnet/devnet';
import { ensureDevnet } from '../../src/devnet/ensure';
import { startInProcessChain } from '../../src/devnet/localChain';
import { startDevnetUpstreams } from '../../src/devnet/upstreams';
import { TOKENS } from '../bench/quoteCases';
import { V3_QUOTE_CASES, v3BenchChainState } from '../bench/v3QuoteUniverse';
import { SNAPSHOT_FILE } from '../helpers/snapshot';
import { startTestServer } from '../helpers/testServer';

/**
 * Records the service's answers to a fixed list of requests, so two versions of the code can be
 * shown to answer byte for byte the same (a refactoring's acceptance check). Two stores:
 * - `snapshot`: a SQLite store seeded with the mainnet pool snapshot (test/helpers/snapshot.ts);
 * - `devnet`: an in-process hardhat devnet indexed through its subgraph-shaped endpoint.
 * - `v3`: the snapshot with the quotes benchmark's V3 universe laid over it (`bench/v3QuoteUniverse.ts`),
 *   asked V3 `/sor` and `/order` without protocolVersion (the better of both Vaults), on quote threads.
 * Requests: /pools, /pools/:id, /tokens, GraphQL pools, and /sor and /order over many token pairs,
 * amounts and both order kinds. The clock is fixed, so time-dependent pools price the same.
 *
 *   npx tsx test/tools/compareAnswers.ts out.json [snapshot] [devnet] [v3]
 *   ROUTER_ENGINE=sor npx tsx test/tools/compareAnswers.ts out-sor.json snapshot
 *   npx tsx test/tools/compareAnswers.ts --diff before.json after.json
 *
 * `SNAPSHOT_FILE` overrides where the snapshot is read (`test/helpers/snapshot.ts`; a git worktree has
 * no data beside it).
 * Run it on each commit (e.g. the base in `git worktree add /tmp/base <commit>` with node_modules
 * symlinked) and `--diff` the two files: the exit code is 1 when any answer differs.
 * Devnet answers that carry the chain's wall-clock block times (createTime, history) are masked.
 */

/** Fixed clock: 2026-01-01T00:00:00Z. */
const NOW_MS = Date.UTC(2026, 0, 1);
const SENDER = devAccount(1).address;
const GWEI = 10n ** 9n;
/** `ROUTER_ENGINE=sor` records the fallback router's answers instead of the own engine's. */
const ENGINE: Record<string, string> = process.env.ROUTER_ENGINE ? { ROUTER_ENGINE: process.env.ROUTER_ENGINE } : {};
/**
 * The per-IP rate limits off (`0`): the tool asks thousands of questions a minute from one address,
 * and a 429 would record the limiter's answer instead of the service's.
 */
const UNLIMITED: Record<string, string> = {
  RATE_LIMIT_QUOTES_PER_MINUTE: '0',
  RATE_LIMIT_READS_PER_MINUTE: '0',
  RATE_LIMIT_JOBS_PER_MINUTE: '0',
};

interface Answer {
  readonly request: string;
  readonly status: number;
  readonly body: string;
}

interface Client {
  get(path: string): Promise<Answer>;
  post(path: string, body: unknown): Promise<Answer>;
}

function client(base: string, mask: (body: string) => string = (b) => b): Client {
  const answer = async (request: string, res: Response): Promise<Answer> => ({
    request,
    status: res.status,
    body: mask(await res.text()),
  });
  return {
    get: async (path) => answer(`GET ${path}`, await fetch(`${base}${path}`)),
    post: async (path, body) =>
      answer(
        `POST ${path} ${JSON.stringify(body)}`,
        await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
  };
}

const GRAPHQL_POOLS = `query ($chainId: Int!, $first: Int) {
  pools(chainId: $chainId, first: $first, orderBy: "totalLiquidity", orderDirection: "desc") {
    pools { id address poolType poolTypeVersion swapFee amp totalShares totalLiquidity expiryTime unitSeconds
      mainIndex wrappedIndex lowerTarget upperTarget protocolYieldFeeCache
      tokens { address balance weight priceRate decimals } }
    nextToken
  }
}`;

type Token = { readonly address: string; readonly decimals: number };

/** Sell and buy orders of 10^-2 .. 10^3 whole units between every ordered pair of `tokens`. */
async function quoteAnswers(api: Client, chainId: number, tokens: readonly Token[], wholes: readonly number[]) {
  const out: Answer[] = [];
  for (const a of tokens)
    for (const b of tokens) {
      if (a === b) continue;
      for (const kind of ['sell', 'buy'] as const)
        for (const whole of wholes) {
          const token = kind === 'sell' ? a : b;
          const amount = ((BigInt(Math.round(whole * 100)) * 10n ** BigInt(token.decimals)) / 100n).toString();
          const body = {
            sellToken: a.address,
            buyToken: b.address,
            orderKind: kind,
            amount,
            gasPrice: (20n * GWEI).toString(),
          };
          out.push(await api.post(`/sor/${chainId}`, body));
          if (whole === wholes[0])
            out.push(
              await api.post(`/order/${chainId}`, {
                ...body,
                sender: SENDER,
                slippagePercentage: '0.01',
                deadline: NOW_MS / 1000 + 3600,
              }),
            );
        }
    }
  return out;
}

async function commonAnswers(api: Client, chainId: number): Promise<Answer[]> {
  const out = [await api.get(`/pools/${chainId}`), await api.get(`/tokens/${chainId}`)];
  const pools = JSON.parse(out[0]!.body) as { id: string }[];
  for (const p of pools.filter((_, k) => k % 50 === 0)) out.push(await api.get(`/pools/${chainId}/${p.id}`));
  out.push(await api.post('/graphql', { query: GRAPHQL_POOLS, variables: { chainId, first: 1000 } }));
  return out;
}

async function snapshotAnswers(): Promise<Answer[]> {
  const pools = JSON.parse(readFileSync(process.env.SNAPSHOT_FILE ?? SNAPSHOT_FILE, 'utf8')) as unknown[];
  const server = await startTestServer(
    { ROUTER_WORKERS: '0', ...UNLIMITED, ...ENGINE },
    { seed: [{ chainId: 1, pools }], now: () => NOW_MS },
  );
  try {
    const api = client(server.url);
    const tokens = Object.values(TOKENS);
    return [...(await commonAnswers(api, 1)), ...(await quoteAnswers(api, 1, tokens, [0.5, 20, 1000]))];
  } finally {
    await server.close();
  }
}

/** The V3 mix at three sizes each, as `/sor` protocolVersion 3 and as `/order` weighing both Vaults. */
async function v3Answers(): Promise<Answer[]> {
  const pools = JSON.parse(readFileSync(process.env.SNAPSHOT_FILE ?? SNAPSHOT_FILE, 'utf8')) as unknown[];
  const server = await startTestServer(
    { ...UNLIMITED, ...ENGINE },
    { seed: [{ chainId: 1, pools }], now: () => NOW_MS },
  );
  try {
    server.ctx.readModel.setChainState(1, v3BenchChainState());
    const api = client(server.url);
    const out: Answer[] = [];
    for (const c of V3_QUOTE_CASES)
      for (const scale of [1n, 37n, 1000n]) {
        const body = {
          sellToken: c.sellToken,
          buyToken: c.buyToken,
          orderKind: c.orderKind,
          amount: ((BigInt(c.amount) * scale) / 100n).toString(),
          gasPrice: c.gasPrice,
        };
        out.push(await api.post('/sor/1', { ...body, protocolVersion: 3 }));
        out.push(
          await api.post('/order/1', {
            ...body,
            sender: SENDER,
            slippagePercentage: '0.01',
            deadline: NOW_MS / 1000 + 3600,
          }),
        );
      }
    return out;
  } finally {
    await server.close();
  }
}

/** Block times of the in-process chain follow the wall clock: mask the fields that carry them. */
function maskDevnetTimes(body: string): string {
  return body.replace(/"(createTime|timestamp|lastUpdate|decoratedAt)":\d+/g, '"$1":"(time)"');
}

async function devnetAnswers(): Promise<Answer[]> {
  const chain = startInProcessChain();
  try {
    const { devnet } = await ensureDevnet(chain.provider);
    const upstreams = await startDevnetUpstreams({ provider: chain.provider, devnet });
    const server = await startTestServer(
      {
        NETWORKS: String(DEVNET_CHAIN_ID),
        [`SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.subgraphUrl,
        [`GAUGES_SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.gaugesSubgraphUrl,
        PRICE_API_URL: upstreams.priceApiUrl,
        ROUTER_WORKERS: '0',
        ...UNLIMITED,
        ...ENGINE,
      },
      { now: () => NOW_MS },
    );
    try {
      const api = client(server.url, maskDevnetTimes);
      const update = [await api.post(`/pools/${DEVNET_CHAIN_ID}/update`, {}), await api.post('/tokens/update/', {})];
      const tokens = devnetTokens(devnet);
      return [
        ...update,
        ...(await commonAnswers(api, DEVNET_CHAIN_ID)),
        ...(await quoteAnswers(api, DEVNET_CHAIN_ID, tokens, [0.5, 7, 300])),
      ];
    } finally {
      await server.close();
      await upstreams.close();
    }
  } finally {
    await chain.close();
  }
}

/** Every devnet token plus the BPTs of its pools (joins, exits and nested pools). */
function devnetTokens(devnet: Devnet): Token[] {
  return [
    ...devnet.tokens.map((t) => ({ address: t.address, decimals: t.decimals })),
    ...devnet.pools.map((p) => ({ address: p.address, decimals: 18 })),
  ];
}

function digest(answers: readonly Answer[]): string {
  const h = createHash('sha256');
  for (const a of answers) h.update(`${a.request}\n${a.status}\n${a.body}\n`);
  return h.digest('hex');
}

function diff(beforeFile: string, afterFile: string): number {
  const before = JSON.parse(readFileSync(beforeFile, 'utf8')) as Record<string, Answer[]>;
  const after = JSON.parse(readFileSync(afterFile, 'utf8')) as Record<string, Answer[]>;
  let differing = 0;
  for (const store of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[store] ?? [];
    const b = after[store] ?? [];
    let same = a.length === b.length ? 0 : -1;
    for (let k = 0; k < Math.max(a.length, b.length); k++) {
      const x = a[k];
      const y = b[k];
      if (x && y && x.request === y.request && x.status === y.status && x.body === y.body) {
        if (same >= 0) same++;
        continue;
      }
      differing++;
      if (differing <= 10)
        process.stdout.write(
          `${store} #${k} differs:\n  ${x?.request ?? '(none)'} -> ${x?.status} ${x?.body.slice(0, 300)}\n  ${y?.request ?? '(none)'} -> ${y?.status} ${y?.body.slice(0, 300)}\n`,
        );
    }
    process.stdout.write(
      `${store}: ${a.length} answers before, ${b.length} after, ${digest(a) === digest(b) ? 'byte-identical' : 'DIFFERENT'}\n`,
    );
  }
  return differing === 0 ? 0 : 1;
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === '--diff' && argv.length === 3) return diff(argv[1]!, argv[2]!);
  const [out, ...stores] = argv;
  if (!out) throw new Error('usage: compareAnswers.ts <out.json> [snapshot] [devnet] [v3] | --diff <before> <after>');
  const wanted = stores.length > 0 ? stores : ['snapshot', 'devnet'];
  const result: Record<string, Answer[]> = {};
  for (const store of wanted) {
    if (store === 'snapshot') result.snapshot = await snapshotAnswers();
    else if (store === 'devnet') result.devnet = await devnetAnswers();
    else if (store === 'v3') result.v3 = await v3Answers();
    else throw new Error(`unknown store ${store} (snapshot, devnet or v3)`);
    process.stdout.write(`${store}: ${result[store]!.length} answers, sha256 ${digest(result[store]!)}\n`);
    // A limiter's answer says nothing about the code under comparison: such a recording is void.
    const limited = result[store]!.filter((a) => a.status === 429).length;
    if (limited > 0) throw new Error(`${store}: ${limited} answers were 429 (rate limited); the recording is void`);
  }
  writeFileSync(out, JSON.stringify(result));
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: Error) => {
      process.stderr.write(`${e.stack ?? e.message}\n`);
      process.exit(2);
    },
  );
}
