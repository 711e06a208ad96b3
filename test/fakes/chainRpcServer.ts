import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { id as keccakText, Interface, zeroPadValue } from 'ethers';
import { aggregateAnswer, encodeBlockNumber, innerCalls, isGetBlockNumber, MULTICALL3, rotated } from './multicall3';
import { serveWebSocket, type WsPeer } from './webSocketServer';

/**
 * A local EVM JSON-RPC node with a tiny chain of its own, enough for the head follower: blocks
 * (number, hash, parent hash, timestamp), the Vault's `Swap` logs, pools' `SwapFeePercentageChanged` logs, and `eth_call`s of the Vault's
 * `getPoolTokens` and a pool's `getSwapFeePercentage` answered at the block they are pinned to.
 * With `feesCollector` set, also the Vault's `getProtocolFeesCollector`, that collector's
 * `getSwapFeePercentage` (`protocolSwapFee`) and a pool's `getLastInvariant` (`lastInvariant`),
 * as a weighted v1 pool's fee basis.
 * Every other call reverts (a pool without that getter). Blocks are mined and reorganized by the
 * test; `failStatus` makes the node answer every request with an HTTP error, `callError` fails
 * chosen calls inside an answered batch (a node a block behind, a per-call rate limit).
 * The same port speaks JSON-RPC over WebSocket (`wsUrl`), with `eth_subscribe("newHeads")`
 * announcing each mined block; `socketDown` refuses sockets and drops the open ones. A lying
 * node: `lie` replaces chosen results (null, `0x`, cut short), `answerFromBlocksBack` answers
 * `eth_call`s from an older block than asked, `rotateIds` rotates a batch's answer ids by one,
 * `drop` leaves chosen calls out of a batch's answer, and `latestBehind` answers `latest` with an
 * older block (a load balancer's lagging backend).
 * Multicall3's `aggregate3` (test/fakes/multicall3.ts) is opened into its inner calls, each
 * answered (and lied about, failed, dropped, rotated, answered from blocks back) as a plain
 * `eth_call`, and counted in `ethCalls` but not in `methodCounts` (one `eth_call` billed);
 * `outOfGasInside` fails chosen inner calls as running out of the aggregate's gas does (no return
 * data) while the same call alone answers, and `noMulticall3` takes Multicall3's code away (a
 * call to it answers `0x`, as any call to an address without code).
 */
export interface FakeChainPool {
  readonly id: string;
  readonly address: string;
  readonly tokens: readonly string[];
  balances: bigint[];
  swapFee: bigint;
  /** A weighted v1 pool's `getLastInvariant()`; absent: the getter reverts. */
  lastInvariant?: bigint;
  /**
   * The pool's other getters that do not move with the blocks: return data by calldata (selector
   * and arguments); a call not listed reverts, as a getter the pool lacks does.
   */
  getters?: ReadonlyMap<string, string>;
}

interface Block {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: number;
  /** Pool ids with a Swap log in this block. */
  readonly swaps: readonly string[];
  /** Pool ids with a PoolBalanceChanged log (a join or an exit) in this block. */
  readonly joins: readonly string[];
  /** Logs contracts emitted in this block (address, topic 0 and, for indexed fields, further topics). */
  readonly poolLogs: readonly FakeLog[];
  /** Each pool's balances and fee at the end of this block. */
  readonly state: ReadonlyMap<string, { balances: bigint[]; swapFee: bigint }>;
  /** The fees collector's protocol swap fee percentage at the end of this block. */
  readonly protocolSwapFee: bigint;
  /** Per pool, the last block its balances changed (the Vault's `lastChangeBlock`). */
  readonly lastChange: ReadonlyMap<string, number>;
}

const VAULT = new Interface([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
  'function getProtocolFeesCollector() view returns (address)',
]);
const POOL = new Interface([
  'function getSwapFeePercentage() view returns (uint256)',
  'function getLastInvariant() view returns (uint256)',
]);
// Fragments and selectors once: ethers hashes a fragment's signature each time its selector is asked.
const GET_POOL_TOKENS = VAULT.getFunction('getPoolTokens')!;
const GET_FEES_COLLECTOR = VAULT.getFunction('getProtocolFeesCollector')!;
const GET_SWAP_FEE = POOL.getFunction('getSwapFeePercentage')!;
const GET_LAST_INVARIANT = POOL.getFunction('getLastInvariant')!;
const [GET_POOL_TOKENS_SELECTOR, GET_FEES_COLLECTOR_SELECTOR, GET_SWAP_FEE_SELECTOR, GET_LAST_INVARIANT_SELECTOR] = [
  GET_POOL_TOKENS,
  GET_FEES_COLLECTOR,
  GET_SWAP_FEE,
  GET_LAST_INVARIANT,
].map((f) => f.selector);
const SWAP_TOPIC = VAULT.getEvent('Swap')!.topicHash;

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');

/**
 * `getPoolTokens`' return data, encoded by hand: ethers checksums each address with a keccak, and
 * a cold start of 11,000 pools asks this 11,000 times (test/bench/headStep.bench.ts).
 */
function poolTokensResult(tokens: readonly string[], balances: readonly bigint[], lastChange: number): string {
  const n = tokens.length;
  const array = (items: string[]) => word(items.length) + items.join('');
  return `0x${word(96)}${word(96 + 32 * (n + 1))}${word(lastChange)}${array(
    tokens.map((t) => t.slice(2).toLowerCase().padStart(64, '0')),
  )}${array(balances.map(word))}`;
}
const JOIN_EXIT_TOPIC = VAULT.getEvent('PoolBalanceChanged')!.topicHash;

interface RpcRequest {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * An answer as JSON text; a hex result written as it is (an aggregate's is half a megabyte, which
 * JSON.stringify scans for characters to escape).
 */
function json(a: { jsonrpc: string; id?: unknown; result?: unknown }): string {
  if (typeof a.result !== 'string' || a.id === undefined || !/^0x[0-9a-fA-F]*$/.test(a.result))
    return JSON.stringify(a);
  return `{"jsonrpc":"2.0","id":${JSON.stringify(a.id)},"result":"${a.result}"}`;
}

/** A log a contract emits: topic 0 and the indexed fields' topics after it. */
export interface FakeLog {
  readonly address: string;
  readonly topic: string;
  readonly topics?: readonly string[];
  /** The log's data (`0x` when absent). */
  readonly data?: string;
}

/** `allowance(address,address)` of any ERC-20. */
const ERC20_ALLOWANCE = '0xdd62ed3e';

/** One call as `callError` sees it: `to` and `selector` only for `eth_call`s. */
export interface FakeCall {
  readonly method: string;
  readonly to?: string;
  readonly selector?: string;
  /** An `eth_call`'s calldata (for `callError`). */
  readonly data?: string;
  /** The block range of an `eth_getLogs`. */
  readonly fromBlock?: number;
  readonly toBlock?: number;
}

export class FakeChainRpc {
  failStatus: number | undefined;
  /** The error to answer a call with instead of its result, or undefined to answer it. */
  callError: ((call: FakeCall) => { code: number; message: string; data?: string } | undefined) | undefined;
  /**
   * Answers other `eth_call`s (any contract's getters, as the test sets them): the ABI-encoded
   * result, or undefined to revert as a contract without that getter does.
   */
  contractCall: ((call: { to: string; data: string; block: number }) => string | undefined) | undefined;
  /** `eth_call`s answered, with the block tag each was pinned to. */
  readonly ethCalls: { to: string; selector: string; block: string }[] = [];
  /** The Vault's ProtocolFeesCollector (lower case); undefined: the Vault's getter reverts. */
  feesCollector: string | undefined;
  /** The collector's swap fee percentage from the next mined block on (1e18 = 100 %). */
  protocolSwapFee = 0n;
  /** A result to answer a call with instead of the true one (`{ result }`), or undefined. */
  lie: ((call: FakeCall & { data?: string }) => { result: unknown } | undefined) | undefined;
  /** `eth_call`s pinned to block N are answered from block N minus this (0: honest). */
  answerFromBlocksBack = 0;
  /** Answer ids rotated by one in every batch of more than one call: each id carries the next call's answer. */
  rotateIds = false;
  /** Calls left out of a batch's answer (no entry for their id). */
  drop: ((call: FakeCall) => boolean) | undefined;
  /** Inner calls of an aggregate that fail there with no return data, as out of the aggregate's gas. */
  outOfGasInside: ((call: FakeCall) => boolean) | undefined;
  /** No code at Multicall3's address (a fork without it). */
  noMulticall3 = false;
  /** How many blocks behind the head `latest` is answered (called per `latest` asked). */
  latestBehind: (() => number) | undefined;
  /** Addresses with code, for `eth_getCode` (the Vault and the pools always have code). */
  readonly code = new Set<string>();
  /** Each HTTP answer is sent this long after the request (a node far away). */
  delayMs = 0;
  /**
   * Time spent parsing requests and making and writing their answers (ms): the fake node's own
   * share of a benchmark that runs it in its process.
   */
  busyMs = 0;
  /** `aggregate3` calls answered (each also counted as one `eth_call` in `methodCounts`). */
  aggregates = 0;
  /** JSON-RPC requests answered, per method (batched calls counted one by one). */
  readonly methodCounts = new Map<string, number>();
  private readonly blocks: Block[] = [];
  private fork = 0;
  private readonly subscribers = new Map<WsPeer, string>();
  /** `eth_subscribe` calls answered. */
  subscribeCalls = 0;
  /** While true, sockets stay open but announce no block (a connection dead without a close). */
  muted = false;
  /** The timestamp of each block mined from now on, by number (a test pricing at a given time sets it). */
  timestampOf: (number: number) => number = (number) => 1_700_000_000 + number * 12;
  private socketsDown = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly vault: string,
    readonly pools: Map<string, FakeChainPool>,
  ) {}

  static async start(vault: string, pools: readonly FakeChainPool[]): Promise<FakeChainRpc> {
    const server = createServer();
    // A socket kept alive is not closed under a client reusing it while the loop was busy
    // answering a large read (the client sees ECONNRESET then).
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const addr = server.address() as AddressInfo;
    const fake = new FakeChainRpc(
      server,
      `http://127.0.0.1:${addr.port}`,
      vault.toLowerCase(),
      new Map(pools.map((p) => [p.id, p])),
    );
    fake.mine([]);
    serveWebSocket(server, {
      accept: () => !fake.socketsDown,
      onMessage: (peer, text) => {
        const r = JSON.parse(text) as RpcRequest;
        if (r.method === 'eth_subscribe') {
          fake.subscribeCalls++;
          const id = `0x${(fake.subscribers.size + 1).toString(16)}`;
          fake.subscribers.set(peer, id);
          peer.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, result: id }));
          return;
        }
        peer.send(JSON.stringify({ jsonrpc: '2.0', id: r.id, ...fake.answer(r) }));
      },
      onClose: (peer) => fake.subscribers.delete(peer),
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => setTimeout(respond, fake.delayMs));
      const respond = () => {
        const started = performance.now();
        try {
          send();
        } finally {
          fake.busyMs += performance.now() - started;
        }
      };
      const send = () => {
        res.setHeader('content-type', 'application/json');
        if (fake.failStatus !== undefined) {
          res.statusCode = fake.failStatus;
          res.end(JSON.stringify({ error: 'unavailable' }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcRequest | RpcRequest[];
        const answer = (r: RpcRequest) => ({ jsonrpc: '2.0', id: r.id, ...fake.answer(r) });
        if (!Array.isArray(body)) return res.end(json(answer(body)));
        const answers = body.filter((r) => !fake.drop?.(fake.callOf(r))).map(answer);
        // Each answer under the id of the request before it: every call gets its neighbour's result.
        if (fake.rotateIds && answers.length > 1) {
          const ids = answers.map((a) => a.id);
          answers.forEach((a, k) => (a.id = ids[(k + ids.length - 1) % ids.length]));
        }
        res.end(`[${answers.map(json).join(',')}]`);
      };
    });
    return fake;
  }

  /** The same node over WebSocket. */
  get wsUrl(): string {
    return this.url.replace(/^http/, 'ws');
  }

  /** While true, sockets are refused and the open ones dropped (HTTP still answers). */
  set socketDown(down: boolean) {
    this.socketsDown = down;
    if (down) for (const peer of [...this.subscribers.keys()]) peer.destroy();
  }

  /** Sockets with a live newHeads subscription. */
  get subscriptions(): number {
    return this.subscribers.size;
  }

  get head(): Block {
    return this.blocks[this.blocks.length - 1]!;
  }

  /**
   * Mines one block in which the given pools swapped, and `joined` were joined or exited (their
   * balances as the test set them).
   */
  mine(swapped: readonly string[], poolLogs: readonly FakeLog[] = [], joined: readonly string[] = []): Block {
    const parent = this.blocks[this.blocks.length - 1];
    const number = parent ? parent.number + 1 : 100;
    const lastChange = new Map(
      [...this.pools].map(([id, p]) => {
        const before = parent?.state.get(id);
        const moved =
          !before || swapped.includes(id) || joined.includes(id) || before.balances.some((b, i) => b !== p.balances[i]);
        return [id, moved ? number : parent!.lastChange.get(id)!];
      }),
    );
    const block: Block = {
      number,
      hash: keccakText(`block ${number} fork ${this.fork}`),
      parentHash: parent?.hash ?? zeroPadValue('0x00', 32),
      timestamp: this.timestampOf(number),
      swaps: [...swapped],
      joins: [...joined],
      poolLogs: [...poolLogs],
      state: new Map([...this.pools].map(([id, p]) => [id, { balances: [...p.balances], swapFee: p.swapFee }])),
      protocolSwapFee: this.protocolSwapFee,
      lastChange,
    };
    this.blocks.push(block);
    for (const [peer, subscription] of this.muted ? [] : this.subscribers)
      peer.send(
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'eth_subscription',
          params: { subscription, result: { number: hex(number), hash: block.hash, parentHash: block.parentHash } },
        }),
      );
    return block;
  }

  /** Drops the newest `depth` blocks (a reorg); the pools keep the state the test sets next. */
  rewind(depth: number): void {
    this.blocks.splice(this.blocks.length - depth, depth);
    this.fork++;
    const head = this.head;
    for (const [id, s] of head.state) {
      const p = this.pools.get(id)!;
      p.balances = [...s.balances];
      p.swapFee = s.swapFee;
    }
  }

  callOf(r: RpcRequest): FakeCall {
    const params = Array.isArray(r.params) ? (r.params as unknown[]) : [];
    const call = r.method === 'eth_call' ? (params[0] as { to: string; data: string }) : undefined;
    return {
      method: String(r.method),
      ...(call ? { to: call.to.toLowerCase(), selector: call.data.slice(0, 10) } : {}),
    };
  }

  private blockAt(tag: unknown): Block | undefined {
    if (tag === 'latest') {
      const back = Math.min(this.latestBehind?.() ?? 0, this.blocks.length - 1);
      return this.blocks[this.blocks.length - 1 - back];
    }
    if (typeof tag !== 'string') return undefined;
    const n = Number(BigInt(tag));
    return this.blocks.find((b) => b.number === n);
  }

  /** Each pool by its lower-case address, made again when the test adds pools. */
  private byAddress: { size: number; map: Map<string, FakeChainPool> } | undefined;

  private poolAt(address: string): FakeChainPool | undefined {
    if (this.byAddress?.size !== this.pools.size)
      this.byAddress = { size: this.pools.size, map: new Map([...this.pools.values()].map((p) => [p.address, p])) };
    return this.byAddress.map.get(address);
  }

  private answer(r: RpcRequest, counted = true): { result: unknown } | { error: { code: number; message: string } } {
    const params = Array.isArray(r.params) ? (r.params as unknown[]) : [];
    if (counted) this.methodCounts.set(String(r.method), (this.methodCounts.get(String(r.method)) ?? 0) + 1);
    if (this.callError) {
      const call = r.method === 'eth_call' ? (params[0] as { to: string; data: string }) : undefined;
      const logs = r.method === 'eth_getLogs' ? (params[0] as { fromBlock: string; toBlock: string }) : undefined;
      const error = this.callError({
        method: String(r.method),
        ...(call ? { to: call.to.toLowerCase(), selector: call.data.slice(0, 10), data: call.data } : {}),
        ...(logs ? { fromBlock: Number(BigInt(logs.fromBlock)), toBlock: Number(BigInt(logs.toBlock)) } : {}),
      });
      if (error) return { error };
    }
    if (this.lie) {
      const call = r.method === 'eth_call' ? (params[0] as { to: string; data: string }) : undefined;
      const lie = this.lie({
        method: String(r.method),
        ...(call ? { to: call.to.toLowerCase(), selector: call.data.slice(0, 10), data: call.data } : {}),
      });
      if (lie) return lie;
    }
    switch (r.method) {
      case 'eth_getCode': {
        const a = String(params[0]).toLowerCase();
        const hasCode =
          a === this.vault ||
          (a === MULTICALL3 && !this.noMulticall3) ||
          this.code.has(a) ||
          this.poolAt(a) !== undefined;
        return { result: hasCode ? '0x6080' : '0x' };
      }
      case 'eth_blockNumber':
        return { result: hex(this.head.number) };
      case 'eth_getBlockByNumber': {
        const b = this.blockAt(params[0]);
        return {
          result: b
            ? { number: hex(b.number), hash: b.hash, parentHash: b.parentHash, timestamp: hex(b.timestamp) }
            : null,
        };
      }
      case 'eth_getBlockByHash': {
        const b = this.blocks.find((x) => x.hash === String(params[0]).toLowerCase());
        return {
          result: b
            ? { number: hex(b.number), hash: b.hash, parentHash: b.parentHash, timestamp: hex(b.timestamp) }
            : null,
        };
      }
      case 'eth_getLogs': {
        const f = params[0] as { fromBlock: string; toBlock: string; address?: string; topics: string[][] };
        const from = Number(BigInt(f.fromBlock));
        const to = Number(BigInt(f.toBlock));
        if (f.address === undefined)
          return {
            result: this.blocks
              .filter((b) => b.number >= from && b.number <= to)
              .flatMap((b) =>
                b.poolLogs
                  .filter((l) => f.topics[0]?.includes(l.topic))
                  .map((l) => ({
                    address: l.address,
                    blockNumber: hex(b.number),
                    topics: [l.topic, ...(l.topics ?? [])],
                  })),
              ),
          };
        if (f.address.toLowerCase() !== this.vault) {
          // Another contract's logs (a second Vault): those the test mined with that address.
          const address = f.address.toLowerCase();
          return {
            result: this.blocks
              .filter((b) => b.number >= from && b.number <= to)
              .flatMap((b) =>
                b.poolLogs
                  .filter((l) => l.address === address && f.topics[0]?.includes(l.topic))
                  .map((l) => ({
                    address,
                    blockNumber: hex(b.number),
                    topics: [l.topic, ...(l.topics ?? [])],
                    data: l.data ?? '0x',
                  })),
              ),
          };
        }
        const asked = (topic: string, ids: readonly string[]) => (f.topics[0]?.includes(topic) ? ids : []);
        const logs = this.blocks
          .filter((b) => b.number >= from && b.number <= to)
          .flatMap((b) => [
            ...asked(SWAP_TOPIC, b.swaps).map((id) => ({
              address: this.vault,
              blockNumber: hex(b.number),
              topics: [SWAP_TOPIC, id],
            })),
            ...asked(JOIN_EXIT_TOPIC, b.joins).map((id) => ({
              address: this.vault,
              blockNumber: hex(b.number),
              topics: [JOIN_EXIT_TOPIC, id, zeroPadValue('0x05', 32)],
            })),
          ]);
        return { result: logs };
      }
      case 'eth_call': {
        const call = params[0] as { to: string; data: string };
        const asked = this.blockAt(params[1]);
        const block = asked && this.blockAt(hex(Math.max(100, asked.number - this.answerFromBlocksBack)));
        const selector = call.data.slice(0, 10);
        // Any call to an address without code runs nothing and answers nothing.
        if (this.noMulticall3 && call.to.toLowerCase() === MULTICALL3) return { result: '0x' };
        const inner = innerCalls(call);
        if (inner) {
          if (!block) return { error: { code: -32000, message: 'header not found' } };
          this.aggregates++;
          const answers = inner.map((c) => {
            const seen = { method: 'eth_call', to: c.to, selector: c.data.slice(0, 10), data: c.data };
            if (this.drop?.(seen)) return undefined;
            if (isGetBlockNumber(c)) return { result: encodeBlockNumber(block.number) };
            if (this.outOfGasInside?.(seen)) return { error: { code: 3, message: 'out of gas', data: '0x' } };
            return this.answer({ method: 'eth_call', params: [c, params[1]] }, false);
          });
          return aggregateAnswer(this.rotateIds ? rotated(answers) : answers);
        }
        this.ethCalls.push({ to: call.to.toLowerCase(), selector, block: String(params[1]) });
        if (!block) return { error: { code: -32000, message: 'header not found' } };
        // A token's allowance, as an order reads its sender's: none was given.
        if (selector === ERC20_ALLOWANCE) return { result: `0x${'0'.repeat(64)}` };
        if (call.to.toLowerCase() === this.vault && selector === GET_POOL_TOKENS_SELECTOR) {
          const poolId = `0x${call.data.slice(10, 74)}`.toLowerCase();
          const pool = this.pools.get(poolId);
          const s = block.state.get(poolId);
          if (!pool || !s) return { error: { code: 3, message: 'execution reverted: BAL#500' } };
          return { result: poolTokensResult(pool.tokens, s.balances, block.lastChange.get(poolId)!) };
        }
        const to = call.to.toLowerCase();
        if (this.feesCollector !== undefined) {
          if (to === this.vault && selector === GET_FEES_COLLECTOR_SELECTOR)
            return { result: `0x${this.feesCollector.slice(2).padStart(64, '0')}` };
          if (to === this.feesCollector && selector === GET_SWAP_FEE_SELECTOR)
            return { result: `0x${word(block.protocolSwapFee)}` };
        }
        // One-word answers by hand, as `getPoolTokens`'s (ethers' encoder costs more than the rest).
        const pool = this.poolAt(to);
        if (pool && selector === GET_SWAP_FEE_SELECTOR)
          return { result: `0x${word(block.state.get(pool.id)!.swapFee)}` };
        if (pool?.lastInvariant !== undefined && selector === GET_LAST_INVARIANT_SELECTOR)
          return { result: `0x${word(pool.lastInvariant)}` };
        const getter = pool?.getters?.get(call.data.toLowerCase());
        if (getter !== undefined) return { result: getter };
        const other = this.contractCall?.({ to: call.to.toLowerCase(), data: call.data, block: block.number });
        if (other !== undefined) return { result: other };
        return { error: { code: 3, message: 'execution reverted' } };
      }
      default:
        return { error: { code: -32601, message: `method ${String(r.method)} not supported` } };
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // Kept-alive sockets and answers held back by a delay would keep the close waiting for a minute.
      this.server.closeAllConnections();
    });
  }
}
