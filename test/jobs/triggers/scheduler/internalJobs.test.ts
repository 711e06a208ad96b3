import { protos } from '@google-cloud/tasks';
import { Writable } from 'node:stream';
import { OAuth2Client } from 'google-auth-library';
import request from 'supertest';
import { createInternalJobsFeature } from '../../../../src/jobs/triggers/scheduler/schedulerFeature';
import { poolUpdateFeature } from '../../../../src/jobs/triggers/poolUpdateFeature';
import { INTERNAL_JOB_RUNNERS } from '../../../../src/jobs/triggers/scheduler/jobRunners';
import { CloudTasksQueue } from '../../../../src/jobs/triggers/scheduler/taskQueue';
import { createLogger } from '../../../../src/log/logger';
import { PRICE_TASK_DELAY_MS } from '../../../../src/jobs/triggers/scheduler/priceTask';
import { sendJson, sleep, startHttpFake, HttpFake } from '../../../fakes/httpFake';
import { startTestServer, TestServer } from '../../../helpers/testServer';
import { LocalGoogleIssuer, startLocalGoogleIssuer } from './googleOidc';
import { LocalCloudTasks, startLocalCloudTasks } from './localCloudTasks';

const SERVICE_URL = 'https://balancer-pools-abc123-ew.a.run.app';
const SCHEDULER = 'scheduler@demo-test.iam.gserviceaccount.com';
const TASKS = 'tasks-invoker@demo-test.iam.gserviceaccount.com';
// A fixed clock, so the half-minute task's schedule time can be derived exactly.
const NOW_MS = Date.UTC(2026, 10, 21, 12, 0, 10, 250);

let issuer: LocalGoogleIssuer;
let subgraph: HttpFake;
let prices: HttpFake;
let tasksApi: LocalCloudTasks;
let app: TestServer;

const jobEnv = (): Record<string, string> => ({
  NETWORKS: '1',
  SERVICE_URL,
  SCHEDULER_SERVICE_ACCOUNT: SCHEDULER,
  TASKS_SERVICE_ACCOUNT: TASKS,
  TASKS_QUEUE: 'jobs',
  TASKS_LOCATION: 'europe-west1',
  GOOGLE_CLOUD_PROJECT: 'demo-test',
  JOB_RUNNER: 'scheduler',
  OIDC_CERTS_URL: issuer.certsUrl,
  PRICE_API_URL: prices.url,
  // No pacing between price requests: the tests are about who may run the job, not the gate.
  PRICE_REQUESTS_PER_MINUTE: '600000',
  SUBGRAPH_URL_1: subgraph.url,
});

beforeAll(async () => {
  issuer = await startLocalGoogleIssuer();
  subgraph = await startHttpFake((_req, res) => sendJson(res, 200, { data: { pools: [] } }));
  prices = await startHttpFake((req, res) =>
    sendJson(res, 200, req.url.includes('/simple/price') ? { ethereum: { usd: 3000 } } : {}),
  );
  tasksApi = await startLocalCloudTasks();
  // The Cloud Tasks client in HTTP/1 fallback mode, pointed at the local stand-in.
  const queue = new CloudTasksQueue(
    { project: 'demo-test', location: 'europe-west1', queue: 'jobs' },
    {
      fallback: true,
      apiEndpoint: '127.0.0.1',
      port: tasksApi.port,
      protocol: 'http',
      authClient: new OAuth2Client({
        credentials: { access_token: 'local-access-token', expiry_date: Date.now() + 3_600_000 },
        transporterOptions: { fetchImplementation: fetch },
      }),
    },
  );
  app = await startTestServer(jobEnv(), {
    features: [createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS, taskQueue: queue })],
    now: () => NOW_MS,
  });
});

afterAll(async () => {
  await app?.close();
  await Promise.all([issuer?.close(), subgraph?.close(), prices?.close(), tasksApi?.close()]);
});

beforeEach(() => {
  subgraph.received.length = 0;
  prices.received.length = 0;
  tasksApi.requests.length = 0;
  tasksApi.failWith(undefined);
});

const schedulerToken = () => issuer.signIdToken({ aud: SERVICE_URL, email: SCHEDULER });
const post = (path: string, token?: string) => {
  const r = request(app.url).post(path);
  return token === undefined ? r : r.set('Authorization', `Bearer ${token}`);
};

describe('internal job endpoints accept only Google ID tokens for this service from the job accounts', () => {
  it('runs the price update for the scheduler account (201, empty body)', async () => {
    const res = await post('/internal/jobs/update-prices', schedulerToken());
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect(prices.received.some((r) => r.url.includes('/simple/price'))).toBe(true);
  });

  it('runs the price update for the tasks account', async () => {
    const res = await post('/internal/jobs/update-prices', issuer.signIdToken({ aud: SERVICE_URL, email: TASKS }));
    expect(res.status).toBe(201);
  });

  it('runs the pool update of an enabled chain and refuses a disabled one without reaching the subgraph', async () => {
    const ok = await post('/internal/jobs/update-pools/1', schedulerToken());
    expect(ok.status).toBe(201);
    expect(subgraph.received.length).toBeGreaterThan(0);
    subgraph.received.length = 0;
    const disabled = await post('/internal/jobs/update-pools/10', schedulerToken());
    expect(disabled.status).toBe(404);
    expect(disabled.body.code).toBe(404);
    expect(subgraph.received).toHaveLength(0);
  });

  const refused: [string, () => string | undefined, number, RegExp][] = [
    ['no token', () => undefined, 401, /Authorization: Bearer/],
    [
      'a token for another audience',
      () => issuer.signIdToken({ aud: 'https://other-service.a.run.app', email: SCHEDULER }),
      401,
      /audience/,
    ],
    [
      'a token of another account',
      () => issuer.signIdToken({ aud: SERVICE_URL, email: 'someone@else.iam.gserviceaccount.com' }),
      403,
      /someone@else/,
    ],
    [
      'a token whose email is not verified',
      () => issuer.signIdToken({ aud: SERVICE_URL, email: SCHEDULER, emailVerified: false }),
      403,
      /may not run/,
    ],
    [
      'an expired token',
      () => {
        const now = Math.floor(Date.now() / 1000);
        return issuer.signIdToken({ aud: SERVICE_URL, email: SCHEDULER, iat: now - 7200, exp: now - 3600 });
      },
      401,
      /expired/,
    ],
    [
      'an unsigned token',
      () => issuer.signIdToken({ aud: SERVICE_URL, email: SCHEDULER }, { alg: 'none' }),
      401,
      /refused/,
    ],
    [
      'a token signed with a key Google did not publish',
      () => issuer.signIdToken({ aud: SERVICE_URL, email: SCHEDULER }, { key: issuer.foreignKey }),
      401,
      /signed/,
    ],
    [
      'a token from another issuer',
      () => issuer.signIdToken({ aud: SERVICE_URL, email: SCHEDULER, iss: 'https://evil.example' }),
      401,
      /accounts.google.com/,
    ],
    ['garbage', () => 'not-a-jwt', 401, /well-formed/],
  ];

  it.each(refused)('refuses %s with a JSON error and runs nothing', async (_name, token, status, message) => {
    for (const path of [
      '/internal/jobs/update-prices',
      '/internal/jobs/update-pools/1',
      '/internal/jobs/decorate-pools/1',
      '/internal/jobs/price-tick',
    ]) {
      const res = await post(path, token());
      expect(res.status).toBe(status);
      expect(res.body).toEqual({
        error: expect.stringMatching(message),
        code: status,
        reason: status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN',
      });
    }
    expect(prices.received).toHaveLength(0);
    expect(subgraph.received).toHaveLength(0);
    expect(tasksApi.requests).toHaveLength(0);
  });

  it("answers 503 UNAVAILABLE with Retry-After while Google's certificates cannot be fetched, and runs nothing", async () => {
    const certs = await startHttpFake((_req, res) => sendJson(res, 503, { error: 'unavailable' }));
    const unchecked = await startTestServer(
      { ...jobEnv(), OIDC_CERTS_URL: certs.url },
      { features: [createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS })], now: () => NOW_MS },
    );
    try {
      const res = await request(unchecked.url)
        .post('/internal/jobs/update-prices')
        .set('Authorization', `Bearer ${schedulerToken()}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('10');
      expect(res.body).toEqual({
        error: expect.stringMatching(/certificates could not be fetched; retry later/),
        code: 503,
        reason: 'UNAVAILABLE',
      });
      expect(certs.received.length).toBeGreaterThan(0);
      expect(prices.received).toHaveLength(0);
    } finally {
      await unchecked.close();
      await certs.close();
    }
  });

  it('guards the paths however they are spelled (Express matches routes case-insensitively)', async () => {
    for (const path of ['/Internal/Jobs/update-prices', '/internal/jobs/update-prices/', '/INTERNAL/JOBS/PRICE-TICK']) {
      const res = await post(path);
      expect(res.status).toBe(401);
    }
    expect(prices.received).toHaveLength(0);
    expect(tasksApi.requests).toHaveLength(0);
  });

  it('leaves the public endpoints open', async () => {
    const res = await request(app.url).get('/pools/1');
    expect(res.status).toBe(200);
  });
});

describe('price-tick', () => {
  it('updates prices and enqueues one update-prices task 30 s later with an OIDC token of the tasks account', async () => {
    const res = await post('/internal/jobs/price-tick', schedulerToken());
    expect(res.status).toBe(201);
    expect(prices.received.some((r) => r.url.includes('/simple/price'))).toBe(true);

    expect(tasksApi.requests).toHaveLength(1);
    const [created] = tasksApi.requests;
    expect(created?.path).toBe('/v2/projects/demo-test/locations/europe-west1/queues/jobs/tasks');
    expect(created?.authorization).toBe('Bearer local-access-token');
    const task = created?.body.task as {
      name: string;
      scheduleTime: string;
      httpRequest: { url: string; httpMethod: unknown; oidcToken: { serviceAccountEmail: string; audience: string } };
    };
    expect(task.httpRequest.url).toBe(`${SERVICE_URL}/internal/jobs/update-prices`);
    expect(task.httpRequest.oidcToken).toEqual({ serviceAccountEmail: TASKS, audience: SERVICE_URL });
    // The REST transport sends enums as numbers (numericEnums) or names; both must mean POST.
    const { POST } = protos.google.cloud.tasks.v2.HttpMethod;
    expect([POST, 'POST']).toContain(task.httpRequest.httpMethod);
    // Cloud Tasks keeps whole seconds: the schedule is the tick's arrival + 30 s, truncated.
    const expectedSeconds = Math.floor((NOW_MS + PRICE_TASK_DELAY_MS) / 1000);
    expect(Date.parse(task.scheduleTime)).toBe(expectedSeconds * 1000);
    expect(expectedSeconds * 1000 - NOW_MS).toBeGreaterThan(PRICE_TASK_DELAY_MS - 1000);
    expect(task.name).toMatch(/^projects\/demo-test\/locations\/europe-west1\/queues\/jobs\/tasks\/update-prices-\d+$/);
  });

  it('treats a retried tick in the same minute as done: the queue already holds its task', async () => {
    const res = await post('/internal/jobs/price-tick', schedulerToken());
    expect(res.status).toBe(201);
    expect(tasksApi.requests).toHaveLength(1); // the stand-in answered 409 ALREADY_EXISTS
  });

  it('still updates prices when the queue is down, and says so with a 502', async () => {
    tasksApi.failWith(503);
    const res = await post('/internal/jobs/price-tick', schedulerToken());
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/could not be enqueued/);
    expect(prices.received.some((r) => r.url.includes('/simple/price'))).toBe(true);
  });
});

describe('without configuration', () => {
  it('answers 503 naming the variables to set, logged as a warning, not an ERROR', async () => {
    let logText = '';
    const logger = createLogger({
      debug: false,
      destination: new Writable({ write: (chunk: Buffer, _e, cb) => ((logText += chunk.toString()), cb()) }),
    });
    const bare = await startTestServer(
      { NETWORKS: '1' },
      { features: [createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS })], logger },
    );
    try {
      for (const path of ['/internal/jobs/update-prices', '/internal/jobs/price-tick']) {
        const res = await request(bare.url).post(path).set('Authorization', `Bearer ${schedulerToken()}`);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ error: expect.stringMatching(/SERVICE_URL/), code: 503, reason: 'NOT_CONFIGURED' });
      }
      const levels = logText
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { severity: string; message: string })
        .map((l) => [l.severity, l.message]);
      expect(levels).toContainEqual(['WARNING', 'endpoint not configured']);
      expect(levels.filter(([severity]) => severity === 'ERROR' || severity === 'CRITICAL')).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('unknown job paths and other methods', () => {
  const asked: [string, string, number, RegExp][] = [
    [
      'POST',
      '/internal/jobs/nope',
      404,
      /^no internal job at POST \/internal\/jobs\/nope; the jobs are POST \/internal\/jobs\/update-pools\/\{chainId\}, /,
    ],
    ['POST', '/internal/jobs/update-pools', 404, /^no internal job at POST \/internal\/jobs\/update-pools;/],
    ['GET', '/internal/jobs', 404, /^no internal job at GET \/internal\/jobs;/],
    [
      'GET',
      '/internal/jobs/update-prices',
      405,
      /^GET \/internal\/jobs\/update-prices is not allowed; internal jobs run with POST/,
    ],
    ['PUT', '/internal/jobs/update-pools/1', 405, /^PUT \/internal\/jobs\/update-pools\/1 is not allowed/],
    ['DELETE', '/Internal/Jobs/Price-Tick', 405, /is not allowed; internal jobs run with POST/],
  ];

  it.each(asked)(
    '%s %s answers %i JSON before the caller check, configured or not, without an ERROR log',
    async (method, path, status, message) => {
      let logText = '';
      const logger = createLogger({
        debug: false,
        destination: new Writable({ write: (chunk: Buffer, _e, cb) => ((logText += chunk.toString()), cb()) }),
      });
      const bare = await startTestServer(
        { NETWORKS: '1' },
        { features: [createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS })], logger },
      );
      try {
        for (const url of [bare.url, app.url]) {
          const res = await request(url)[method.toLowerCase() as 'get'](path);
          expect({ url, status: res.status, body: res.body }).toEqual({
            url,
            status,
            body: {
              error: expect.stringMatching(message),
              code: status,
              reason: status === 405 ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND',
            },
          });
          if (status === 405) expect(res.headers.allow).toBe('POST');
        }
        // pino writes the level as Cloud Logging's severity (log/logger.ts).
        const severities = logText
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { severity: string }).severity);
        expect(severities.length).toBeGreaterThan(0);
        expect(severities.filter((s) => s === 'ERROR' || s === 'CRITICAL')).toEqual([]);
      } finally {
        await bare.close();
      }
      expect(prices.received).toHaveLength(0);
      expect(subgraph.received).toHaveLength(0);
    },
  );
});

describe('shared leases', () => {
  it('an internal pool update while the public one runs for the same chain waits for it and answers its result', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slowSubgraph = await startHttpFake(async (_req, res) => {
      await gate;
      sendJson(res, 200, { data: { pools: [] } });
    });
    const both = await startTestServer(
      { ...jobEnv(), SUBGRAPH_URL_1: slowSubgraph.url },
      { features: [poolUpdateFeature, createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS })] },
    );
    try {
      const publicRun = request(both.url)
        .post('/pools/1/update')
        .then((r) => r);
      while (slowSubgraph.received.length === 0) await sleep(10);
      const internal = request(both.url)
        .post('/internal/jobs/update-pools/1')
        .set('Authorization', `Bearer ${schedulerToken()}`)
        .then((r) => r);
      await sleep(300);
      release();
      expect((await publicRun).status).toBe(201);
      expect((await internal).status).toBe(201);
      // The internal call joined the public run instead of walking the subgraph again: one run's
      // requests (its indexed block, then its page of pools).
      expect(slowSubgraph.received.filter((r) => r.body.includes('pools('))).toHaveLength(1);
      expect(slowSubgraph.received.filter((r) => r.body.includes('_meta'))).toHaveLength(1);
    } finally {
      release();
      await both.close();
      await slowSubgraph.close();
    }
  });
});
