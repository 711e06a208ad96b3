import { NewHeadsSubscription } from '../../../src/sources/rpc/newHeads';
import { FakeChainRpc } from '../../fakes/chainRpcServer';

/**
 * The newHeads subscription against a fake node's WebSocket: the heads it announces, a refused
 * handshake tried again until the node takes it, and a socket that stays open but goes silent
 * (dead without a close) opened again after `silenceMs`.
 */
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';

let node: FakeChainRpc;
let subscription: NewHeadsSubscription | undefined;
const heads: number[] = [];
const changes: { live: boolean; reason?: string }[] = [];

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function subscribe(silenceMs?: number): NewHeadsSubscription {
  subscription = new NewHeadsSubscription(
    node.wsUrl,
    { onHead: (n) => heads.push(n), onLive: (live, reason) => changes.push({ live, reason }) },
    silenceMs === undefined ? {} : { silenceMs },
  );
  subscription.start();
  return subscription;
}

beforeEach(async () => {
  node = await FakeChainRpc.start(VAULT, []);
  heads.length = 0;
  changes.length = 0;
});

afterEach(async () => {
  subscription?.stop();
  await node.close();
});

test('announces each block the node mines, by number', async () => {
  subscribe();
  await until('live', () => changes.some((c) => c.live));
  node.mine([]);
  node.mine([]);
  await until('two heads', () => heads.length === 2);
  expect(heads).toEqual([101, 102]);
});

test('a node refusing the socket is tried again until it takes it', async () => {
  node.socketDown = true;
  subscribe();
  // Retries after 0.5 s, then 1 s: at least two refused handshakes before the node takes one.
  await new Promise((r) => setTimeout(r, 1_700));
  expect(changes.filter((c) => c.live)).toEqual([]);
  node.socketDown = false;
  await until('live', () => changes.some((c) => c.live));
  node.mine([]);
  await until('a head', () => heads.length === 1);
  expect(node.subscriptions).toBe(1);
});

test('a live socket that announces nothing for silenceMs is opened and subscribed again', async () => {
  subscribe(400);
  await until('live', () => changes.some((c) => c.live));
  node.muted = true;
  await until('down for silence', () => changes.some((c) => !c.live));
  expect(changes.find((c) => !c.live)!.reason).toMatch(/no new head announced/);
  node.muted = false;
  await until('live again', () => changes.filter((c) => c.live).length === 2);
  expect(node.subscribeCalls).toBe(2);
  node.mine([]);
  await until('a head', () => heads.length === 1);
});
