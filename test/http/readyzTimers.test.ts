import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * `/readyz` bounds the store's ping with a timer that goes with the answer: Cloud Run probes every
 * few seconds, and a timer left per probe would pile up for the bound's span.
 */
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ ROUTER_WORKERS: '0' }, { features: [] });
});
afterAll(() => srv.close());

it('leaves no timer behind per probe', async () => {
  const open = new Set<unknown>();
  const realSet = global.setTimeout;
  const realClear = global.clearTimeout;
  const set = jest.spyOn(global, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    const t = realSet(() => {
      open.delete(t);
      fn();
    }, ms);
    if (ms === 2_000) open.add(t);
    return t;
  }) as typeof setTimeout);
  const clear = jest.spyOn(global, 'clearTimeout').mockImplementation((t) => {
    open.delete(t);
    realClear(t);
  });
  try {
    for (let i = 0; i < 5; i++) expect((await fetch(`${srv.url}/readyz`)).status).toBe(200);
    expect(set.mock.calls.filter(([, ms]) => ms === 2_000)).toHaveLength(5);
    expect(open.size).toBe(0);
  } finally {
    set.mockRestore();
    clear.mockRestore();
  }
});
