import { get } from 'node:http';
import request from 'supertest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { seedStore, startTestServer, TestServer } from '../helpers/testServer';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';

describeWithSnapshot('read endpoints on the seeded mainnet snapshot', () => {
  let srv: TestServer;
  const raw = loadSnapshotPools() as { id: string; tokens: { address: string; balance: string }[] }[];

  beforeAll(async () => {
    srv = await startTestServer({ NETWORKS: '1,137' }, { seed: [{ chainId: 1, pools: raw }], features: [] });
  });
  afterAll(async () => {
    await srv.close();
  });

  test('GET /pools/1 returns all 372 pools with the chain id and exact balances', async () => {
    const res = await request(srv.url).get('/pools/1').expect(200).expect('Content-Type', /json/);
    expect(res.body).toHaveLength(372);
    expect(new Set(res.body.map((p: { id: string }) => p.id))).toEqual(new Set(raw.map((p) => p.id.toLowerCase())));
    const linear = res.body.find(
      (p: { id: string }) => p.id === '0x9210f1204b5a24742eba12f710636d76240df3d00000000000000000000000fc',
    );
    expect(linear).toMatchObject({
      chainId: 1,
      poolType: 'AaveLinear',
      mainIndex: 1,
      wrappedIndex: 2,
      lowerTarget: '2900000',
    });
    expect(linear.tokens[1]).toMatchObject({ address: MAINNET.USDC, balance: '2900000', decimals: 6 });
  });

  test('GET /pools/1/{ID in upper case} returns that pool; unknown id is a 404 JSON', async () => {
    const id = raw[5]!.id;
    const res = await request(srv.url)
      .get(`/pools/1/0x${id.slice(2).toUpperCase()}`)
      .expect(200);
    expect(res.body.id).toBe(id.toLowerCase());
    const missing = await request(srv.url)
      .get(`/pools/1/0x${'ab'.repeat(32)}`)
      .expect(404);
    expect(missing.body).toEqual({
      error: expect.stringMatching(/^pool 0xabab.* not found on chain 1$/),
      code: 404,
      reason: 'NOT_FOUND',
    });
  });

  test('chain id: not a positive integer is 400, valid but disabled is 404, enabled but empty is []', async () => {
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const res = await request(srv.url).get(`/pools/${bad}`).expect(400);
      expect(res.body).toEqual({
        error: expect.stringContaining('chainId must be a positive integer'),
        code: 400,
        reason: 'BAD_FIELD',
        field: 'chainId',
      });
    }
    expect((await request(srv.url).get('/pools/5').expect(404)).body).toEqual({
      error: expect.stringContaining('unknown chain 5'),
      code: 404,
      reason: 'CHAIN_NOT_ENABLED',
      field: 'chainId',
      details: { enabled: [1, 137] },
    });
    expect((await request(srv.url).get('/pools/42161').expect(404)).body.error).toMatch(
      /chain 42161 \(arbitrum\) is not enabled/,
    );
    expect((await request(srv.url).get('/tokens/10').expect(404)).body.code).toBe(404);
    expect((await request(srv.url).get('/pools/137').expect(200)).body).toEqual([]);
  });

  test('GET /tokens/1 lists every token of those pools once', async () => {
    const res = await request(srv.url).get('/tokens/1').expect(200);
    const expected = new Set(raw.flatMap((p) => p.tokens.map((t) => t.address.toLowerCase())));
    expect(new Set(res.body.map((t: { address: string }) => t.address))).toEqual(expected);
    expect(res.body).toHaveLength(expected.size);
    expect(res.body.find((t: { address: string }) => t.address === MAINNET.USDC)).toMatchObject({
      decimals: 6,
      chainId: 1,
    });
  });

  test('ETag: a second request with If-None-Match gets 304 and no body', async () => {
    const first = await request(srv.url).get('/pools/1').expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const second = await request(srv.url).get('/pools/1').set('If-None-Match', etag).expect(304);
    expect(second.text).toBe('');
    await request(srv.url).get('/pools/1').set('If-None-Match', '"stale"').expect(200);
  });

  test('gzip and brotli bodies decode to the same JSON', async () => {
    const plain = await rawGet(`${srv.url}/pools/1`, 'identity');
    const gz = await rawGet(`${srv.url}/pools/1`, 'gzip');
    const br = await rawGet(`${srv.url}/pools/1`, 'br, gzip');
    expect([plain.encoding, gz.encoding, br.encoding]).toEqual([undefined, 'gzip', 'br']);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
  });

  test('CORS as the old API; OPTIONS preflight is 204', async () => {
    const res = await request(srv.url).get('/pools/1').set('Origin', 'https://app.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const pre = await request(srv.url)
      .options('/sor/1')
      .set('Origin', 'https://app.example')
      .set('Access-Control-Request-Method', 'POST')
      .expect(204);
    expect(pre.headers['access-control-allow-methods']).toBe('OPTIONS,GET,POST');
    expect(pre.headers['access-control-allow-headers']).toBe('Content-Type');
  });

  test('unknown route is a 404 JSON; malformed JSON body is a 400 JSON', async () => {
    expect((await request(srv.url).get('/nope').expect(404)).body).toEqual({
      error: expect.stringContaining('no route for GET /nope'),
      code: 404,
      reason: 'NOT_FOUND',
    });
    const bad = await request(srv.url)
      .post('/anything')
      .set('Content-Type', 'application/json')
      .send('{"sellToken":')
      .expect(400);
    expect(bad.body).toEqual({
      error: expect.stringContaining('malformed JSON body'),
      code: 400,
      reason: 'MALFORMED_JSON',
    });
  });

  test('healthz and readyz', async () => {
    expect((await request(srv.url).get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    const ready = await request(srv.url).get('/readyz').expect(200);
    expect(ready.body).toMatchObject({ status: 'ready', store: 'ok' });
    expect(ready.body.chains).toEqual([
      // No RPC URL: neither chain is followed, its pools are the subgraph's values.
      { chainId: 1, loaded: true, poolsVersion: 1, pools: 372, follow: null },
      { chainId: 137, loaded: true, poolsVersion: 0, pools: 0, follow: null },
    ]);
  });

  test('a new version in the store reaches GET without a restart', async () => {
    const changed = structuredClone(raw[0]!);
    changed.tokens[0]!.balance = '424242.5';
    await seedStore(srv.ctx.store, 1, [changed]);
    await srv.ctx.readModel.refresh(1);
    const res = await request(srv.url).get(`/pools/1/${changed.id}`).expect(200);
    expect(res.body.tokens[0].balance).toBe('424242.5');
    const all = await request(srv.url).get('/pools/1').expect(200);
    expect(all.body).toHaveLength(372);
  });
});

/** The bytes as sent (HTTP clients like superagent and fetch decompress on their own). */
function rawGet(url: string, acceptEncoding: string): Promise<{ body: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), encoding: res.headers['content-encoding'] }));
    }).on('error', reject);
  });
}

describe('read model follows the store', () => {
  test('a commit from elsewhere is picked up by the listener without refresh()', async () => {
    const srv = await startTestServer({}, { features: [] });
    try {
      expect(srv.ctx.readModel.get(1)!.pools).toHaveLength(0);
      const pool = {
        id: `0x${'12'.repeat(20)}000200000000000000000001`,
        address: `0x${'12'.repeat(20)}`,
        poolType: 'Weighted',
        swapFee: '0.01',
        totalShares: '1',
        tokens: [
          { address: `0x${'01'.repeat(20)}`, balance: '1', decimals: 18, weight: '0.5', priceRate: '1' },
          { address: `0x${'02'.repeat(20)}`, balance: '2', decimals: 18, weight: '0.5', priceRate: '1' },
        ],
      };
      await seedStore(srv.ctx.store, 1, [pool]);
      const deadline = Date.now() + 3000;
      while (srv.ctx.readModel.get(1)!.pools.length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(srv.ctx.readModel.get(1)!.pools.map((p) => p.id)).toEqual([pool.id]);
      expect((await request(srv.url).get('/tokens/1').expect(200)).body).toHaveLength(2);
    } finally {
      await srv.close();
    }
  });
});
