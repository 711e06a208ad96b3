import { chainById } from '../../../src/config/chains';
import { routingFeature } from '../../../src/routing/routingFeature';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { post } from '../quoteClient';

/**
 * The stETH orders the service understands but cannot build as asked, over HTTP: 422
 * UNPROCESSABLE, naming the field to change where one is at fault. (What the refusals say, and
 * the routes the service does build, are in lido.test.ts.)
 */

const MAINNET = chainById(1)!;
const { stETH: ST, wstETH: WST } = MAINNET.lido!;
const WETH = MAINNET.wrappedNative;
const SENDER = '0x1111111111111111111111111111111111111111';

const POOL = {
  id: `0x${'5e'.repeat(20)}000200000000000000000001`,
  address: `0x${'5e'.repeat(20)}`,
  poolType: 'Weighted',
  swapFee: '0.003',
  totalShares: '1000',
  tokens: [
    { address: WETH, symbol: 'WETH', decimals: 18, balance: '100', weight: '0.5', priceRate: '1' },
    { address: WST, symbol: 'wstETH', decimals: 18, balance: '87', weight: '0.5', priceRate: '1' },
  ],
};

let server: TestServer;

beforeAll(async () => {
  // No RPC_URL_1: Lido's ratio cannot be read.
  server = await startTestServer(
    { ROUTER_WORKERS: '0' },
    { seed: [{ chainId: 1, pools: [POOL] }], features: [routingFeature] },
  );
});
afterAll(async () => {
  await server?.close();
});

const order = { amount: (10n ** 18n).toString(), gasPrice: '0', sender: SENDER };

test.each([
  ['/sor', { sellToken: WETH, buyToken: ST }],
  ['/order', { sellToken: ST, buyToken: WETH }],
])('%s: a buy order with stETH on either side is refused, naming orderKind', async (path, pair) => {
  const res = await post(`${server.url}${path}/1`, { ...order, ...pair, orderKind: 'buy' });
  expect(res).toEqual({
    status: 422,
    body: {
      error: expect.stringMatching(/Lido's rounding lets only sells be exact: send orderKind "sell"/),
      code: 422,
      reason: 'UNPROCESSABLE',
      field: 'orderKind',
    },
  });
});

test("a stETH sell without the chain's node: refused, naming RPC_URL_1", async () => {
  const res = await post(`${server.url}/sor/1`, { ...order, sellToken: ST, buyToken: WETH, orderKind: 'sell' });
  expect(res).toEqual({
    status: 422,
    body: {
      error: expect.stringMatching(/has no RPC URL configured \(RPC_URL_1\)/),
      code: 422,
      reason: 'UNPROCESSABLE',
    },
  });
});
