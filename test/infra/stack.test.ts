import {
  DEFAULT_POOLS_PER_CHAIN,
  MEMORY_MARGIN,
  quantityMiB,
  readStackConfig,
  SECRET_NAMES,
  StackConfig,
  StackConfigError,
} from '../../infra/config';
import { memoryNeedMiB } from '../../src/config/memoryNeed';
import { createStack } from '../../infra/stack';
import { EDGE_ADDRESS, PROJECT_NUMBER, recordResources, settle, valueOf } from './pulumiMocks';

/** The stack config as `pulumi config` would give it (plain strings, like the CLI stores them). */
function configFrom(values: Record<string, string>, objects: Record<string, unknown> = {}): StackConfig {
  return readStackConfig({
    project: 'bal-pools-prod',
    region: 'europe-west1',
    get: (k) => values[k],
    getObject: <T>(k: string) => objects[k] as T | undefined,
  });
}

const BASE = {
  image: 'europe-west1-docker.pkg.dev/bal-pools-prod/balancer-pools/api:v1',
  NETWORKS: '1,137,42161',
  UPDATE_POOLS_INTERVAL_IN_MINUTES: '5',
  DECORATE_POOLS_INTERVAL_IN_MINUTES: '15',
};

async function deploy(config: StackConfig) {
  const recorded = recordResources();
  const outputs = createStack(config);
  await Promise.all([valueOf(outputs.serviceUrl), ...outputs.schedulerJobs.map(valueOf)]);
  await settle(recorded);
  const ofType = (type: string) => recorded.filter((r) => r.type === type);
  return { recorded, outputs, ofType };
}

interface Container {
  image: string;
  envs: { name: string; value?: string; valueSource?: { secretKeyRef: { secret: string; version: string } } }[];
  startupProbe: { httpGet: { path: string } };
  livenessProbe: { httpGet: { path: string } };
  resources: { limits: { cpu: string; memory: string } };
}
interface Template {
  serviceAccount: string;
  scaling: { minInstanceCount: number; maxInstanceCount: number };
  maxInstanceRequestConcurrency: number;
  containers: Container[];
}
interface SchedulerJob {
  schedule: string;
  attemptDeadline: string;
  httpTarget: { uri: string; httpMethod: string; oidcToken: { serviceAccountEmail: string; audience: string } };
}

describe('Pulumi program (with NETWORKS=1,137,42161)', () => {
  let d: Awaited<ReturnType<typeof deploy>>;
  const serviceUrl = `https://balancer-pools-${PROJECT_NUMBER}.europe-west1.run.app`;
  const accountEmail = (suffix: string) => `balancer-pools-${suffix}@bal-pools-prod.iam.gserviceaccount.com`;

  beforeAll(async () => {
    d = await deploy(configFrom(BASE));
  });

  it('creates one Cloud Run service running the image with the Firestore store and no embedded timers', () => {
    const services = d.ofType('gcp:cloudrunv2/service:Service');
    expect(services).toHaveLength(1);
    const template = services[0]?.inputs.template as Template;
    const container = template.containers[0] as Container;
    expect(container.image).toBe(BASE.image);
    const env = Object.fromEntries(container.envs.filter((e) => e.value !== undefined).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({
      STORE: 'firestore',
      JOB_RUNNER: 'scheduler',
      NETWORKS: '1,137,42161',
      UPDATE_POOLS_INTERVAL_IN_MINUTES: '5',
      DECORATE_POOLS_INTERVAL_IN_MINUTES: '15',
      GOOGLE_CLOUD_PROJECT: 'bal-pools-prod',
      SERVICE_URL: serviceUrl,
      SCHEDULER_SERVICE_ACCOUNT: accountEmail('scheduler'),
      TASKS_SERVICE_ACCOUNT: accountEmail('tasks'),
      TASKS_QUEUE: 'balancer-pools-jobs',
      TASKS_LOCATION: 'europe-west1',
    });
    expect(template.serviceAccount).toBe(accountEmail('run'));
    // A new instance takes traffic only once its followed chains serve the chain's state.
    expect(container.startupProbe.httpGet.path).toBe('/readyz?serving=chain');
    expect(container.livenessProbe.httpGet.path).toBe('/healthz');
    expect(template.scaling.minInstanceCount).toBe(1);
  });

  it('wires every secret from Secret Manager, never as a plain value', () => {
    const container = (d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template)
      .containers[0] as Container;
    const secretIds = new Map(d.ofType('gcp:secretmanager/secret:Secret').map((s) => [s.inputs.secretId as string, s]));
    for (const name of SECRET_NAMES) {
      const env = container.envs.filter((e) => e.name === name);
      expect(env).toHaveLength(1);
      expect(env[0]?.value).toBeUndefined();
      const ref = env[0]?.valueSource?.secretKeyRef;
      expect(ref?.version).toBe('latest');
      expect(secretIds.has(ref?.secret as string)).toBe(true);
    }
  });

  it('schedules exactly one pool update and one decoration per chain plus one price tick, all signed as the scheduler account', () => {
    const jobs = d.ofType('gcp:cloudscheduler/job:Job').map((j) => j.inputs as unknown as SchedulerJob);
    const paths = jobs.map((j) => j.httpTarget.uri.replace(serviceUrl, ''));
    const pools = jobs.filter((j) => j.httpTarget.uri.includes('/update-pools/'));
    const decorate = jobs.filter((j) => j.httpTarget.uri.includes('/decorate-pools/'));
    const ticks = jobs.filter((j) => j.httpTarget.uri.endsWith('/price-tick'));
    expect(jobs).toHaveLength(7);
    expect(pools).toHaveLength(3);
    expect(decorate).toHaveLength(3);
    expect(ticks).toHaveLength(1);
    expect(paths.sort()).toEqual(
      ['1', '137', '42161']
        .flatMap((id) => [`/internal/jobs/decorate-pools/${id}`, `/internal/jobs/update-pools/${id}`])
        .concat('/internal/jobs/price-tick')
        .sort(),
    );
    expect(pools.map((j) => j.schedule)).toEqual(['*/5 * * * *', '*/5 * * * *', '*/5 * * * *']);
    expect(decorate.map((j) => j.schedule)).toEqual(['*/15 * * * *', '*/15 * * * *', '*/15 * * * *']);
    expect(ticks[0]?.schedule).toBe('* * * * *');
    for (const j of jobs) {
      expect(j.httpTarget.uri.startsWith(serviceUrl)).toBe(true);
      expect(j.httpTarget.httpMethod).toBe('POST');
      expect(j.httpTarget.oidcToken).toEqual({ serviceAccountEmail: accountEmail('scheduler'), audience: serviceUrl });
    }
  });

  it('gives the runtime account data access, its own secrets, enqueueing and actAs on the tasks account, and nothing project-wide beyond datastore.user', () => {
    const runtime = `serviceAccount:${accountEmail('run')}`;
    const projectRoles = d
      .ofType('gcp:projects/iAMMember:IAMMember')
      .filter((m) => m.inputs.member === runtime)
      .map((m) => m.inputs.role);
    expect(projectRoles).toEqual(['roles/datastore.user']);
    for (const r of d.recorded) {
      expect(['roles/owner', 'roles/editor']).not.toContain(r.inputs.role);
    }
    const secretGrants = d.ofType('gcp:secretmanager/secretIamMember:SecretIamMember');
    expect(secretGrants).toHaveLength(SECRET_NAMES.length);
    const ownSecretIds = d.ofType('gcp:secretmanager/secret:Secret').map((s) => s.inputs.secretId);
    for (const g of secretGrants) {
      expect(g.inputs).toMatchObject({ role: 'roles/secretmanager.secretAccessor', member: runtime });
      expect(ownSecretIds).toContain(g.inputs.secretId);
    }
    const queueGrants = d.ofType('gcp:cloudtasks/queueIamMember:QueueIamMember');
    expect(queueGrants.map((g) => [g.inputs.role, g.inputs.member])).toEqual([['roles/cloudtasks.enqueuer', runtime]]);
    const actAs = d.ofType('gcp:serviceaccount/iAMMember:IAMMember');
    expect(actAs.map((g) => [g.inputs.serviceAccountId, g.inputs.role, g.inputs.member])).toEqual([
      [`projects/bal-pools-prod/serviceAccounts/${accountEmail('tasks')}`, 'roles/iam.serviceAccountUser', runtime],
    ]);
  });

  it('creates the Firestore native database and the history index the Firestore store queries', () => {
    const [db] = d.ofType('gcp:firestore/database:Database');
    expect(db?.inputs).toMatchObject({ name: '(default)', type: 'FIRESTORE_NATIVE' });
    const [index] = d.ofType('gcp:firestore/index:Index');
    expect(index?.inputs).toMatchObject({
      collection: 'poolSnapshots',
      fields: [
        { fieldPath: 'poolId', order: 'ASCENDING' },
        { fieldPath: 'timestamp', order: 'ASCENDING' },
      ],
    });
  });

  it('creates the image registry, a public invoker for the API and the task queue limited by the database burst', () => {
    expect(d.ofType('gcp:artifactregistry/repository:Repository')).toHaveLength(1);
    const invokers = d.ofType('gcp:cloudrunv2/serviceIamMember:ServiceIamMember').map((m) => m.inputs.member);
    expect(invokers).toContain('allUsers');
    const [queue] = d.ofType('gcp:cloudtasks/queue:Queue');
    // DATABASE_AUTOSCALE_MAX_MULTIPLIER defaults to 10 (src/config/env.ts).
    expect(queue?.inputs.rateLimits).toEqual({ maxConcurrentDispatches: 10, maxDispatchesPerSecond: 10 });
  });

  it('gives every job a deadline the service keeps, below the scheduler attempt that waits for it', () => {
    const container = (d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template)
      .containers[0] as Container;
    const env = Object.fromEntries(container.envs.map((e) => [e.name, e.value]));
    // The service's own defaults (src/config/env.ts), passed explicitly so both sides agree.
    expect(env).toMatchObject({ UPDATE_POOLS_DEADLINE_SECONDS: '60', PRICE_RUN_DEADLINE_SECONDS: '90' });
    const seconds = (j: SchedulerJob) => Number(j.attemptDeadline.replace(/s$/, ''));
    const jobs = d.ofType('gcp:cloudscheduler/job:Job').map((j) => j.inputs as unknown as SchedulerJob);
    for (const j of jobs.filter((x) => x.httpTarget.uri.includes('/update-pools/')))
      expect(seconds(j)).toBeGreaterThan(60);
    for (const j of jobs.filter((x) => x.httpTarget.uri.endsWith('/price-tick')))
      expect(seconds(j)).toBeGreaterThan(90);
  });

  it("trusts one proxy hop (Cloud Run's front end) and puts no load balancer in front by default", () => {
    const template = d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template;
    expect(template.containers[0]?.envs).toContainEqual({ name: 'TRUST_PROXY', value: '1' });
    expect(d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.ingress).toBe('INGRESS_TRAFFIC_ALL');
    expect(d.ofType('gcp:compute/securityPolicy:SecurityPolicy')).toHaveLength(0);
    expect(d.ofType('gcp:compute/globalForwardingRule:GlobalForwardingRule')).toHaveLength(0);
  });

  it('has no domain mapping when DOMAIN_NAME is unset', () => {
    expect(d.ofType('gcp:cloudrun/domainMapping:DomainMapping')).toHaveLength(0);
    expect(d.outputs.customDomainUrl).toBeUndefined();
  });
});

describe('Pulumi program variants', () => {
  it('maps DOMAIN_NAME to the service', async () => {
    const d = await deploy(configFrom({ ...BASE, DOMAIN_NAME: 'pools.example.org' }));
    const maps = d.ofType('gcp:cloudrun/domainMapping:DomainMapping');
    expect(maps).toHaveLength(1);
    expect(maps[0]?.inputs).toMatchObject({ name: 'pools.example.org', spec: { routeName: 'balancer-pools' } });
  });

  it("sizes each instance's memory by the measured need of its chains and pools, and tells the service", async () => {
    const sized = async (values: Record<string, string>) => {
      const d = await deploy(configFrom({ ...BASE, ...values }));
      const container = (d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template).containers[0]!;
      const limit = container.envs.find((e) => e.name === 'MEMORY_LIMIT_MIB')?.value;
      const threads = container.envs.find((e) => e.name === 'ROUTER_WORKERS')?.value;
      return { memory: container.resources.limits.memory, limit, threads };
    };
    // Three chains at mainnet's scale (the default poolsPerChain) fit the default instance.
    expect(DEFAULT_POOLS_PER_CHAIN).toBe(11_160);
    expect(await sized({})).toEqual({ memory: '1Gi', limit: '1024', threads: '1' });
    expect(memoryNeedMiB(3 * 11_160, 1) * MEMORY_MARGIN).toBeLessThanOrEqual(1024);
    // Four times the pools need the next sizes up.
    const big = await sized({ poolsPerChain: '44640' });
    expect(quantityMiB(big.memory)).toBeGreaterThanOrEqual(memoryNeedMiB(3 * 44_640, 1) * MEMORY_MARGIN);
    expect(big.limit).toBe(String(quantityMiB(big.memory)));
    expect(await sized({ memory: '4Gi' })).toEqual({ memory: '4Gi', limit: '4096', threads: '1' });
    expect((await sized({ cpu: '2' })).threads).toBe('2');
  });

  it('refuses a memory below the need, and a need beyond what the CPUs allow, naming the keys', () => {
    expect(() => configFrom({ ...BASE, memory: '512Mi' })).toThrow(StackConfigError);
    expect(() => configFrom({ ...BASE, memory: '512Mi' })).toThrow(
      /pulumi config memory: 512Mi is 512 MiB, but 3 chains x 11160 pools \(poolsPerChain\) with 1 quote threads need about \d+ MiB/,
    );
    expect(() => configFrom({ ...BASE, memory: 'lots' })).toThrow(
      /pulumi config memory: expected a size such as 512Mi/,
    );
    expect(() => configFrom({ ...BASE, poolsPerChain: '200000' })).toThrow(/pulumi config cpu: .* cpu >= 2/);
    expect(
      configFrom({ ...BASE, poolsPerChain: '200000', cpu: '2' }, { extraEnv: { ROUTER_WORKERS: '1' } }).memory,
    ).toBe('8Gi');
    // No quote threads: the main thread quotes, and needs what one thread does.
    expect(() => configFrom({ ...BASE, memory: '512Mi' }, { extraEnv: { ROUTER_WORKERS: '0' } })).toThrow(
      new RegExp(`with 0 quote threads need about ${memoryNeedMiB(3 * 11_160, 1)} MiB`),
    );
    expect(configFrom({ ...BASE }, { extraEnv: { ROUTER_WORKERS: '0' } })).toMatchObject({
      memory: '1Gi',
      memoryLimitMib: 1024,
      quoteThreads: 0,
    });
  });

  it('takes instances, CPU, memory, concurrency and queue burst from config', async () => {
    const d = await deploy(
      configFrom(
        {
          ...BASE,
          NETWORKS: 'gnosis',
          minInstances: '0',
          maxInstances: '12',
          cpu: '2',
          memory: '2Gi',
          concurrency: '40',
          DATABASE_AUTOSCALE_MAX_MULTIPLIER: '3',
        },
        // Scaling to zero: no instance follows the chain heads.
        { extraEnv: { FOLLOW_HEAD: 'off' } },
      ),
    );
    const template = d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template;
    expect(template.scaling).toEqual({ minInstanceCount: 0, maxInstanceCount: 12 });
    expect(template.maxInstanceRequestConcurrency).toBe(40);
    expect(template.containers[0]?.resources.limits).toEqual({ cpu: '2', memory: '2Gi' });
    expect(d.ofType('gcp:cloudscheduler/job:Job')).toHaveLength(3);
    expect(d.ofType('gcp:cloudtasks/queue:Queue')[0]?.inputs.rateLimits).toEqual({
      maxConcurrentDispatches: 3,
      maxDispatchesPerSecond: 3,
    });
  });

  it('creates only the foundation until an image is configured', async () => {
    const { image: _image, ...withoutImage } = BASE;
    const d = await deploy(configFrom(withoutImage));
    expect(d.ofType('gcp:cloudrunv2/service:Service')).toHaveLength(0);
    expect(d.ofType('gcp:cloudscheduler/job:Job')).toHaveLength(0);
    expect(d.ofType('gcp:secretmanager/secret:Secret')).toHaveLength(SECRET_NAMES.length);
    expect(d.ofType('gcp:cloudtasks/queue:Queue')).toHaveLength(1);
  });

  it('with edgeSecurity puts Cloud Armor rate limits per client IP and an HTTPS load balancer in front of the service', async () => {
    const d = await deploy(
      configFrom({
        ...BASE,
        DOMAIN_NAME: 'pools.example.org',
        edgeSecurity: 'true',
        edgeQuotesPerMinute: '1200',
        edgeReadsPerMinute: '3000',
        edgeJobsPerMinute: '10',
      }),
    );
    const [policy] = d.ofType('gcp:compute/securityPolicy:SecurityPolicy');
    interface Rule {
      action: string;
      priority: number;
      match: { expr?: { expression: string }; config?: { srcIpRanges: string[] } };
      rateLimitOptions?: {
        enforceOnKey: string;
        exceedAction: string;
        rateLimitThreshold: { count: number; intervalSec: number };
      };
    }
    const rules = (policy?.inputs.rules as Rule[]).sort((a, b) => a.priority - b.priority);
    const throttles = rules.filter((r) => r.action === 'throttle');
    expect(
      throttles.map((r) => [
        r.rateLimitOptions?.rateLimitThreshold,
        r.rateLimitOptions?.enforceOnKey,
        r.rateLimitOptions?.exceedAction,
      ]),
    ).toEqual([
      [{ count: 10, intervalSec: 60 }, 'IP', 'deny(429)'],
      [{ count: 1200, intervalSec: 60 }, 'IP', 'deny(429)'],
      [{ count: 3000, intervalSec: 60 }, 'IP', 'deny(429)'],
    ]);
    // The job and quote rules match the paths the service's own limits classify that way.
    expect(throttles[0]?.match.expr?.expression).toContain('update');
    expect(throttles[1]?.match.expr?.expression).toContain('sor|order');
    expect(rules[rules.length - 1]).toMatchObject({ action: 'allow', priority: 2147483647 });

    const [neg] = d.ofType('gcp:compute/regionNetworkEndpointGroup:RegionNetworkEndpointGroup');
    expect(neg?.inputs).toMatchObject({
      networkEndpointType: 'SERVERLESS',
      region: 'europe-west1',
      cloudRun: { service: 'balancer-pools' },
    });
    const [backend] = d.ofType('gcp:compute/backendService:BackendService');
    expect(backend?.inputs).toMatchObject({
      loadBalancingScheme: 'EXTERNAL_MANAGED',
      backends: [{ group: `${neg?.name}-id` }],
    });
    expect(backend?.inputs.securityPolicy).toBe(`${policy?.name}-id`);
    const [cert] = d.ofType('gcp:compute/managedSslCertificate:ManagedSslCertificate');
    expect(cert?.inputs.managed).toEqual({ domains: ['pools.example.org'] });
    expect(d.ofType('gcp:compute/targetHttpsProxy:TargetHttpsProxy')).toHaveLength(1);
    const [rule] = d.ofType('gcp:compute/globalForwardingRule:GlobalForwardingRule');
    expect(rule?.inputs).toMatchObject({
      portRange: '443',
      loadBalancingScheme: 'EXTERNAL_MANAGED',
      ipAddress: EDGE_ADDRESS,
    });

    // Only the load balancer (and Google's own callers) reach the service, so the policy cannot be
    // bypassed; the service trusts the two hops the load balancer adds.
    const service = d.ofType('gcp:cloudrunv2/service:Service')[0];
    expect(service?.inputs.ingress).toBe('INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER');
    expect((service?.inputs.template as Template).containers[0]?.envs).toContainEqual({
      name: 'TRUST_PROXY',
      value: '2',
    });
    // The domain points at the load balancer's address, not at a Cloud Run domain mapping.
    expect(d.ofType('gcp:cloudrun/domainMapping:DomainMapping')).toHaveLength(0);
    expect(d.outputs.edgeAddress && (await valueOf(d.outputs.edgeAddress))).toBe(EDGE_ADDRESS);
  });

  it('takes the job deadlines from config and moves the scheduler attempt deadlines with them', async () => {
    const d = await deploy(
      configFrom({
        ...BASE,
        UPDATE_POOLS_DEADLINE_SECONDS: '240',
        PRICE_RUN_DEADLINE_SECONDS: '45',
        DECORATE_POOLS_DEADLINE_SECONDS: '200',
      }),
    );
    const container = (d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template)
      .containers[0] as Container;
    expect(container.envs).toEqual(
      expect.arrayContaining([
        { name: 'UPDATE_POOLS_DEADLINE_SECONDS', value: '240' },
        { name: 'PRICE_RUN_DEADLINE_SECONDS', value: '45' },
        { name: 'DECORATE_POOLS_DEADLINE_SECONDS', value: '200' },
      ]),
    );
    const jobs = d.ofType('gcp:cloudscheduler/job:Job').map((j) => j.inputs as unknown as SchedulerJob);
    expect(
      new Set(jobs.filter((j) => j.httpTarget.uri.includes('/update-pools/')).map((j) => j.attemptDeadline)),
    ).toEqual(new Set(['270s']));
    expect(jobs.find((j) => j.httpTarget.uri.endsWith('/price-tick'))?.attemptDeadline).toBe('75s');
    // The decoration's deadline bounds its gauge reads; the attempt keeps 300 s for the rest of the run.
    expect(
      new Set(jobs.filter((j) => j.httpTarget.uri.includes('/decorate-pools/')).map((j) => j.attemptDeadline)),
    ).toEqual(new Set(['300s']));
    const slow = await deploy(configFrom({ ...BASE, DECORATE_POOLS_DEADLINE_SECONDS: '600' }));
    const slowJobs = slow.ofType('gcp:cloudscheduler/job:Job').map((j) => j.inputs as unknown as SchedulerJob);
    expect(
      new Set(slowJobs.filter((j) => j.httpTarget.uri.includes('/decorate-pools/')).map((j) => j.attemptDeadline)),
    ).toEqual(new Set(['630s']));
    // Cloud Run lets a request run as long as the longest attempt waits for it.
    expect(
      (slow.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template & { timeout?: string }).timeout,
    ).toBe('630s');
    expect(
      (d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template & { timeout?: string }).timeout,
    ).toBe('300s');
    // Cloud Scheduler waits at most 30 min for an attempt.
    expect(() => configFrom({ ...BASE, UPDATE_POOLS_DEADLINE_SECONDS: '1790' })).toThrow(
      /UPDATE_POOLS_DEADLINE_SECONDS: expected a whole number from 1 to 1770/,
    );
  });

  it('keeps an instance running while instances follow the chain heads, with CPU outside requests', async () => {
    expect(() => configFrom({ ...BASE, minInstances: '0' })).toThrow(
      /minInstances: must be at least 1 while instances follow the chain heads/,
    );
    expect(() =>
      configFrom(
        { ...BASE, minInstances: '0' },
        { mountedSecrets: ['JOBS_SECRET'], extraEnv: { RPC_URL_1: 'https://rpc.example.org' } },
      ),
    ).toThrow(/minInstances/);
    expect(configFrom({ ...BASE, minInstances: '0' }, { mountedSecrets: ['JOBS_SECRET'] }).minInstances).toBe(0);
    const d = await deploy(configFrom(BASE));
    const template = d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template & {
      containers: { resources: { cpuIdle?: boolean } }[];
    };
    expect(template.scaling.minInstanceCount).toBeGreaterThanOrEqual(1);
    expect(template.containers[0]?.resources.cpuIdle).toBe(false);
  });

  it('refuses edgeSecurity without a domain for the certificate', () => {
    expect(() => configFrom({ ...BASE, edgeSecurity: 'true' })).toThrow(/edgeSecurity: needs DOMAIN_NAME/);
    expect(() => configFrom({ ...BASE, edgeSecurity: 'maybe' })).toThrow(/edgeSecurity: expected true or false/);
  });

  it('holds the price API key and any other key in Secret Manager, never as a plain value', async () => {
    const gatewayUrl =
      'https://gateway.thegraph.com/api/0123456789abcdef0123456789abcdef/subgraphs/id/C4ayEZP2yTXRAB8vSaTrgN4m9anTe9Mdm2ViyiAuV9TV';
    const d = await deploy(
      configFrom(BASE, {
        secretEnv: ['SUBGRAPH_URL_1'],
        extraEnv: { PRICE_API_URL: 'https://pro-api.coingecko.com/api/v3' },
      }),
    );
    const container = (d.ofType('gcp:cloudrunv2/service:Service')[0]?.inputs.template as Template)
      .containers[0] as Container;
    const secrets = new Map(d.ofType('gcp:secretmanager/secret:Secret').map((s) => [s.inputs.secretId as string, s]));
    const grants = d.ofType('gcp:secretmanager/secretIamMember:SecretIamMember').map((g) => g.inputs.secretId);
    for (const name of ['PRICE_API_KEY', 'SUBGRAPH_URL_1']) {
      const env = container.envs.filter((e) => e.name === name);
      expect(env).toEqual([{ name, valueSource: { secretKeyRef: { secret: expect.any(String), version: 'latest' } } }]);
      const secretId = env[0]?.valueSource?.secretKeyRef.secret as string;
      expect(secrets.has(secretId)).toBe(true);
      expect(grants).toContain(secretId);
    }
    expect(d.outputs.secretIds).toHaveProperty('SUBGRAPH_URL_1');

    // A key handed over as a plain variable is refused, naming where it belongs.
    expect(() => configFrom(BASE, { extraEnv: { PRICE_API_KEY: 'cg-key' } })).toThrow(
      /extraEnv: PRICE_API_KEY is set by the stack/,
    );
    expect(() => configFrom(BASE, { extraEnv: { SUBGRAPH_URL_1: gatewayUrl } })).toThrow(
      /extraEnv: SUBGRAPH_URL_1 carries a key; list it in secretEnv/,
    );
    expect(() => configFrom(BASE, { extraEnv: { RPC_URL_1: 'https://user:pass@rpc.example.org' } })).toThrow(
      /extraEnv: RPC_URL_1 carries a key/,
    );
    expect(() => configFrom(BASE, { extraEnv: { SOME_ACCESS_TOKEN: 'x' } })).toThrow(
      /extraEnv: SOME_ACCESS_TOKEN carries a key/,
    );
    expect(() => configFrom(BASE, { secretEnv: ['NETWORKS'] })).toThrow(/secretEnv: NETWORKS is set by the stack/);
  });

  it('refuses intervals Cloud Scheduler cannot keep evenly, naming the key, before declaring anything', () => {
    const recorded = recordResources();
    expect(() => createStack(configFrom({ ...BASE, UPDATE_POOLS_INTERVAL_IN_MINUTES: '7' }))).toThrow(
      /UPDATE_POOLS_INTERVAL_IN_MINUTES: 7 minutes/,
    );
    expect(() => createStack(configFrom({ ...BASE, DECORATE_POOLS_INTERVAL_IN_MINUTES: '0.5' }))).toThrow(
      /DECORATE_POOLS_INTERVAL_IN_MINUTES: expected a whole number/,
    );
    expect(recorded).toHaveLength(0);
    expect(() => configFrom({ ...BASE, NETWORKS: '1,99999' })).toThrow(StackConfigError);
    expect(() => configFrom(BASE, { extraEnv: { STORE: 'sqlite' } })).toThrow(/STORE is set by the stack/);
  });
});
