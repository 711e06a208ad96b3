import { JSON_BODY_LIMIT_BYTES } from '../../src/http/app';
import { simulatorFeature } from '../../src/simulator/feature';
import { FakeSimulator, startFakeSimulator } from '../fakes/simulator';
import { startTestServer, TestServer } from '../helpers/testServer';

describe('JSON body limit', () => {
  let sim: FakeSimulator;
  let server: TestServer;
  beforeAll(async () => {
    sim = await startFakeSimulator();
    server = await startTestServer(
      {
        SIMULATOR_API_URL: sim.url,
        SIMULATOR_USER: sim.user,
        SIMULATOR_PROJECT: sim.project,
        SIMULATOR_ACCESS_KEY: sim.accessKey,
      },
      { features: [simulatorFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
    await sim.close();
  });

  const postSimulation = (inputHexDigits: number) =>
    fetch(`${server.url}/simulator/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        network_id: '1',
        from: `0x${'1'.repeat(40)}`,
        to: '0xBA12222222228d8Ba445958a75a0704d566BF2C8',
        input: `0x${'ab'.repeat(inputHexDigits / 2)}`,
      }),
    });

  it('answers 413 JSON to a body over 32 KB, before any upstream call', async () => {
    const res = await postSimulation(JSON_BODY_LIMIT_BYTES);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: expect.stringContaining(`limit ${JSON_BODY_LIMIT_BYTES} bytes`),
      code: 413,
      reason: 'BODY_TOO_LARGE',
      details: { limitBytes: JSON_BODY_LIMIT_BYTES },
    });
    expect(sim.received).toHaveLength(0);
  });

  it('accepts a body just under the limit', async () => {
    const res = await postSimulation(JSON_BODY_LIMIT_BYTES - 1024);
    expect(res.status).toBe(200);
    expect(sim.received).toHaveLength(1);
  });
});
