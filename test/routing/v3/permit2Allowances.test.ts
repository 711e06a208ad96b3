import { CHAINS } from '../../../src/config/chains';
import { RpcPermit2Allowances } from '../../../src/sources/rpc/permit2Allowances';
import { startPermit2Fake, type Permit2Fake } from '../../fakes/permit2RpcServer';
import { USDC } from '../../helpers/v3Universe';

/** The sender's allowances a V3 order reads from the node, at the block it names. */

const V3 = CHAINS.find((c) => c.id === 11155111)!.v3!;
const SENDER = '0x1111111111111111111111111111111111111111';

describe('Permit2 allowances from the node', () => {
  let node: Permit2Fake;
  beforeAll(async () => {
    node = await startPermit2Fake(V3.permit2);
  });
  afterAll(async () => {
    await node?.close();
  });

  test('the token allowance to Permit2 and Permit2 allowance to the router, at the block asked', async () => {
    node.erc20.set(`${USDC}:${SENDER}:${V3.permit2}`, 123n);
    node.permit2.set(`${SENDER}:${USDC}:${V3.batchRouter}`, { amount: 456n, expiration: 1_750_000_000 });
    const reader = new RpcPermit2Allowances({
      url: node.url,
      timeoutMs: 2_000,
      batchSize: 10,
      retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 },
    });
    const read = await reader.read({
      token: USDC,
      sender: SENDER,
      router: V3.batchRouter,
      permit2: V3.permit2,
      block: '0x7184e4',
    });
    expect(read).toEqual({ tokenToPermit2: 123n, permit2ToRouter: { amount: 456n, expiration: 1_750_000_000 } });
    expect(node.blocks.slice(-2)).toEqual(['0x7184e4', '0x7184e4']);
    // Another router has no Permit2 allowance.
    const other = await reader.read({
      token: USDC,
      sender: SENDER,
      router: V3.router,
      permit2: V3.permit2,
      block: 'latest',
    });
    expect(other.permit2ToRouter).toEqual({ amount: 0n, expiration: 0 });
  });
});
