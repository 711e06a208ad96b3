import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sorTimestamp } from '../../../src/routing/v2/sorConfig';
import { describeWithSnapshot, MAINNET } from '../../helpers/snapshot';
import type { SnapshotQuote, WorkerMessage } from './snapshotQuoteWorker';

/**
 * Every quote on the mainnet snapshot ends. YFI and UMA sit in 8-token weighted pools holding a
 * few wei of them: a split path through such a pool fails below 512 wei, where the engine's search
 * for a capped path's largest amount once bisected forever (these requests never answered). Each
 * answer is a route whose return amount is the exact replay of its swaps, or no route.
 *
 * The quotes run in a worker thread: a quote that never ends cannot be interrupted on the thread
 * that runs it, so the test stops the worker and names the request instead of hanging the run.
 * The bound is a liveness check (a quote takes milliseconds), not a speed target.
 */

const TIMESTAMP = sorTimestamp(Date.UTC(2026, 0, 15, 12));
const STUCK_MS = 30_000;
const YFI = '0x0bc529c00c6401aef6d220be8c6ea1667f6ad93e';
const UMA = '0x04fa0d235c4abf4bcf4787af4cf447de572ef828';
const LINK = '0x514910771af9ca656af840dff83e8264ecf986ca';
const LDO = '0x5a98fcbea516cf06857215779fd812ca3bef1b32';
const AAVE = '0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9';
const CRV = '0xd533a949740bb3306d119cc777fa900ba034cd52';
const SNX = '0xc011a73ee8576fb46f5e1c5751ca3b9fe0af2a6f';
const E18 = 10n ** 18n;

/** The requests that never answered before the fix (the bug report's and the 40-token sweep's). */
const ONCE_STUCK: SnapshotQuote[] = [
  { sellToken: MAINNET.WETH, buyToken: YFI, orderKind: 'buy', amount: (1000n * E18).toString() },
  { sellToken: MAINNET.BAL, buyToken: YFI, orderKind: 'buy', amount: E18.toString() },
  { sellToken: YFI, buyToken: UMA, orderKind: 'sell', amount: (1000n * E18).toString() },
  { sellToken: MAINNET.DAI, buyToken: YFI, orderKind: 'buy', amount: (1000n * E18).toString() },
  { sellToken: LINK, buyToken: YFI, orderKind: 'buy', amount: (10n ** 6n * E18).toString() },
];

/** YFI against the tokens of its pools, both ways, both kinds, from dust to more than any pool holds. */
function yfiSweep(): SnapshotQuote[] {
  const others = [MAINNET.WETH, MAINNET.DAI, MAINNET.USDC, MAINNET.WBTC, MAINNET.BAL, UMA, LINK, LDO, AAVE, CRV, SNX];
  const decimals = (t: string) => (t === MAINNET.USDC ? 6n : t === MAINNET.WBTC ? 8n : 18n);
  const out: SnapshotQuote[] = [];
  for (const other of others)
    for (const [sellToken, buyToken] of [
      [other, YFI],
      [YFI, other],
    ] as const)
      for (const orderKind of ['sell', 'buy'] as const)
        for (const human of [1n, 1000n, 10n ** 6n]) {
          const fixed = orderKind === 'sell' ? sellToken : buyToken;
          out.push({ sellToken, buyToken, orderKind, amount: (human * 10n ** decimals(fixed)).toString() });
        }
  // Dust: amounts near the few-wei balances of the 8-token pools.
  for (const amount of ['1', '27', '345', '100000'])
    for (const orderKind of ['sell', 'buy'] as const)
      out.push({ sellToken: MAINNET.WETH, buyToken: YFI, orderKind, amount });
  return out;
}

type Answer = Extract<WorkerMessage, { done: number }>;

/** Every request's answer, or the first request that did not answer within STUCK_MS. */
function quoteAll(requests: readonly SnapshotQuote[]): Promise<{ answers: Answer[]; stuck?: SnapshotQuote }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'snapshotQuoteWorker.ts'), {
      workerData: { timestamp: TIMESTAMP, requests },
      execArgv: ['--require', require.resolve('tsx/cjs')],
    });
    const answers: Answer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const finish = (stuck?: SnapshotQuote) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ answers, ...(stuck ? { stuck } : {}) });
    };
    worker.on('message', (m: WorkerMessage) => {
      clearTimeout(timer);
      if ('started' in m) timer = setTimeout(() => finish(requests[m.started]), STUCK_MS);
      else {
        answers.push(m);
        if (answers.length === requests.length) finish();
      }
    });
    worker.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

describeWithSnapshot('every quote on the mainnet snapshot ends (pools holding a few wei of a token)', () => {
  const requests = [...ONCE_STUCK, ...yfiSweep()];
  let answers: Answer[];
  let stuck: SnapshotQuote | undefined;
  beforeAll(async () => {
    ({ answers, stuck } = await quoteAll(requests));
  }, 300_000);

  test('no request is left without an answer', () => {
    expect(stuck).toBeUndefined();
    expect(answers).toHaveLength(requests.length);
  });

  test('each answer is a route whose return amount is the exact replay of its swaps, or no route', () => {
    const wrong = answers.filter((a) => (a.swaps > 0 ? a.exact !== a.returnAmount : a.returnAmount !== '0'));
    expect(wrong).toEqual([]);
  });

  test('BAL -> buy 1 YFI, which never answered, is routed', () => {
    const a = answers.find((x) => requests[x.done] === ONCE_STUCK[1])!;
    expect(a.swaps).toBeGreaterThan(0);
    expect(BigInt(a.returnAmount)).toBeGreaterThan(0n);
  });

  test('a third of the orders or more are routed (the answers are not all "no route")', () => {
    const routed = answers.filter((a) => a.swaps > 0).length;
    expect(routed).toBeGreaterThan(requests.length / 3);
  });
});
