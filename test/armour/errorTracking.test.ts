import { Router } from 'express';
import { errorTrackingFeature } from '../../src/errorTracking/feature';
import { poolUpdateFeature } from '../../src/jobs/triggers/poolUpdateFeature';
import { UPDATE_POOLS_JOB } from '../../src/jobs/updatePools';
import { sanctionsFeature } from '../../src/sanctions/feature';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { FakeSentryIngest, startFakeSentryIngest } from '../fakes/sentryIngest';
import { startTestServer, TestServer } from '../helpers/testServer';

const SANCTIONS_KEY = 'sanctions-key-that-must-not-leak';
const JOBS_SECRET = 'jobs-secret-that-must-not-leak';

/** A route that fails the way a bug does: a plain Error, here carrying a secret in its message. */
function explodingRouter(): Router {
  const r = Router();
  r.get('/explode/:chainId', () => {
    throw new Error(`lookup failed with key ${SANCTIONS_KEY}`);
  });
  return r;
}

describe('error tracking', () => {
  let ingest: FakeSentryIngest;
  let server: TestServer;

  beforeEach(async () => {
    ingest = await startFakeSentryIngest();
    server = await startTestServer(
      {
        ERRORTRACKER_DSN: ingest.dsn,
        SANCTIONS_API_KEY: SANCTIONS_KEY,
        SANCTIONS_API_URL: 'http://127.0.0.1:1',
        JOBS_SECRET,
      },
      { features: [errorTrackingFeature, sanctionsFeature], routers: [explodingRouter()] },
    );
  });
  afterEach(async () => {
    await server.close();
    await ingest.close();
  });

  it('receives an event for a forced 500 with route, chain id and request id, and no secret', async () => {
    const res = await fetch(`${server.url}/explode/1`, { headers: { authorization: `Bearer ${JOBS_SECRET}` } });
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: string; reason: string };
    expect(body.reason).toBe('INTERNAL');
    expect(body.error).not.toContain(SANCTIONS_KEY);
    const requestId = res.headers.get('x-request-id');

    const [event] = await ingest.waitForEvents(1);
    expect(event?.tags).toEqual(
      expect.objectContaining({
        route: '/explode/:chainId',
        chain_id: '1',
        request_id: requestId,
        status: '500',
        method: 'GET',
      }),
    );
    expect(event?.exception?.values?.[0]?.value).toBe('lookup failed with key [redacted]');
    for (const raw of ingest.rawEnvelopes) {
      expect(raw).not.toContain(SANCTIONS_KEY);
      expect(raw).not.toContain(JOBS_SECRET);
    }
  });

  it('reports every 5xx, such as a sanctions check that could not run', async () => {
    const res = await fetch(`${server.url}/check-wallet?address=0xBA12222222228d8Ba445958a75a0704d566BF2C8`);
    expect(res.status).toBe(503);
    const [event] = await ingest.waitForEvents(1);
    expect(event?.tags).toEqual(
      expect.objectContaining({ route: '/check-wallet', status: '503', request_id: res.headers.get('x-request-id') }),
    );
    expect(event?.tags?.chain_id).toBeUndefined();
  });

  it('does not report client errors', async () => {
    expect((await fetch(`${server.url}/check-wallet?address=nope`)).status).toBe(400);
    expect((await fetch(`${server.url}/explode/1`)).status).toBe(500);
    const events = await ingest.waitForEvents(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(events).toHaveLength(1);
    expect(events[0]?.tags?.route).toBe('/explode/:chainId');
  });

  it('receives failed jobs reported by job code, tagged with job and chain id', async () => {
    server.ctx.errorTracker.reportJobFailure(new Error('subgraph: answered HTTP 500'), {
      job: 'update-pools',
      chainId: 137,
    });
    const [event] = await ingest.waitForEvents(1);
    expect(event?.tags).toEqual(expect.objectContaining({ job: 'update-pools', chain_id: '137', kind: 'job' }));
    expect(event?.exception?.values?.[0]?.value).toBe('subgraph: answered HTTP 500');
  });
});

describe('error tracking of failed jobs', () => {
  it('reports a failed pool update as a job failure (job, chain id) and as a 5xx of its endpoint', async () => {
    const ingest = await startFakeSentryIngest();
    const subgraph = await FakeSubgraph.start([]);
    subgraph.faults = { failPage: 1 };
    const server = await startTestServer(
      { ERRORTRACKER_DSN: ingest.dsn, SUBGRAPH_URL_1: subgraph.url, SUBGRAPH_RETRIES: '0' },
      { features: [errorTrackingFeature, poolUpdateFeature] },
    );
    try {
      const res = await fetch(`${server.url}/pools/1/update`, { method: 'POST' });
      expect(res.status).toBe(502);
      const events = await ingest.waitForEvents(2);
      const job = events.find((e) => e.tags?.kind === 'job');
      const request = events.find((e) => e.tags?.kind === 'request');
      expect(job?.tags).toEqual(expect.objectContaining({ job: UPDATE_POOLS_JOB, chain_id: '1' }));
      expect(request?.tags).toEqual(
        expect.objectContaining({
          route: '/pools/:chainId/update',
          chain_id: '1',
          status: '502',
          request_id: res.headers.get('x-request-id'),
        }),
      );
    } finally {
      await server.close();
      await subgraph.close();
      await ingest.close();
    }
  });
});
