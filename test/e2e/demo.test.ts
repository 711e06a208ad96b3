import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseUnits } from 'ethers';
import { chainById } from '../../src/config/chains';
import { READY_LINE } from '../../src/devnet/demoBanner';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { TRADER_FUNDS } from '../../src/devnet/universe';
import { curlCommands, docFiles, isDemoCommand, runAgainst } from '../docs/docText';

/**
 * `npm run demo` as a newcomer runs it: start the process, wait for the ready line, paste every
 * curl command it printed (run here with fetch), then every curl of the README and docs/*.md with
 * the answer each shows, then stop it with SIGTERM and expect a clean exit. Ports are 0 so the test
 * never collides with a demo a developer has running.
 */
const ROOT = join(__dirname, '..', '..');

interface PrintedCommand {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly body: string | undefined;
}

/** The single-line `curl -s ...` commands of the banner (the piped multi-line example is skipped). */
function printedCommands(banner: string): PrintedCommand[] {
  const out: PrintedCommand[] = [];
  for (const raw of banner.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line.startsWith('curl -s') || line.endsWith('\\')) continue;
    const url = /'(http:\/\/[^']+)'/.exec(line)?.[1];
    if (!url) throw new Error(`printed curl command without a URL: ${line}`);
    const body = / -d '(.*)'$/.exec(line)?.[1];
    out.push({ method: line.includes('-X POST') ? 'POST' : 'GET', url, body });
  }
  return out;
}

function waitForExit(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await waitForExit(child);
  }
});

test('npm run demo starts, answers every printed curl command, and stops cleanly on SIGTERM', async () => {
  child = spawn(process.execPath, ['--import', 'tsx', join('src', 'devnet', 'demo.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DEMO_RPC_PORT: '0', DEMO_UPSTREAMS_PORT: '0', DEBUG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = waitForExit(child);

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ready line within 60 s\nstdout:\n${stdout}\nstderr:\n${stderr}`)),
      60_000,
    );
    const check = () => {
      if (stdout.includes(READY_LINE)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child!.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`demo exited with ${code} before it was ready\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    });
    check();
  });

  // The banner says how many pairs route in each Vault, measured on the running service.
  for (const v of [2, 3]) expect(stdout).toMatch(new RegExp(`Balancer V${v} +[1-9]\\d* of \\d+ ordered pairs`));
  const commands = printedCommands(stdout);
  const paths = commands.map((c) => `${c.method} ${new URL(c.url).pathname}`);
  // One command per endpoint family the service offers.
  for (const expected of [
    'GET /healthz',
    'GET /pools/31337',
    'POST /pools/31337/update',
    'GET /tokens/31337',
    'POST /tokens/update/',
    'POST /sor/31337',
    'POST /order/31337',
    'POST /graphql',
    'GET /check-wallet',
    'POST /simulator/simulate',
  ]) {
    expect(paths).toContain(expected);
  }
  const devnetVault = chainById(DEVNET_CHAIN_ID)!.vault;
  for (const c of commands) {
    const res = await fetch(c.url, {
      method: c.method,
      headers: c.body ? { 'content-type': 'application/json' } : {},
      body: c.body,
    });
    const text = await res.text();
    // Job endpoints answer 201 with an empty body, everything else 200.
    const expectedStatus = /\/update\/?$/.test(new URL(c.url).pathname) ? 201 : 200;
    expect({ command: `${c.method} ${c.url}`, status: res.status }).toEqual({
      command: `${c.method} ${c.url}`,
      status: expectedStatus,
    });
    if (c.url.includes('/order/')) {
      // The stETH order goes to the batch relayer (wrapStETH first); V2 orders to the Vault; the
      // V3 order to a V3 router, with no relayer to approve.
      const order = JSON.parse(text) as {
        data: string;
        to: string;
        relayerApprovalRequired: boolean;
        protocolVersion?: number;
      };
      expect(order.data).toMatch(/^0x/);
      const v3 = chainById(DEVNET_CHAIN_ID)!.v3!;
      if (order.protocolVersion === 3) expect([v3.router, v3.batchRouter]).toContain(order.to.toLowerCase());
      expect(order.relayerApprovalRequired).toBe(order.protocolVersion !== 3 && order.to.toLowerCase() !== devnetVault);
    }
    if (c.url.includes('/sor/'))
      expect(BigInt((JSON.parse(text) as { returnAmount: string }).returnAmount)).toBeGreaterThan(0n);
    // The simulated balanceOf runs on the devnet: the funded account holds its WETH allowance.
    if (c.url.endsWith('/simulator/simulate')) {
      const sim = JSON.parse(text) as {
        transaction: { status: boolean; transaction_info: { call_trace: { output: string } } };
      };
      expect(sim.transaction.status).toBe(true);
      expect(BigInt(sim.transaction.transaction_info.call_trace.output)).toBe(parseUnits(TRADER_FUNDS.WETH!, 18));
    }
  }
  const blocked = commands.find((c) => c.url.includes('check-wallet') && c.url.endsWith('dead'));
  expect(await (await fetch(blocked!.url)).json()).toEqual({ is_blocked: true });

  // The gauges the demo deploys pay BAL (boostable) and reward tokens from the first decoration on,
  // and the printed GraphQL query finds those pools by their staking APR.
  type Apr = { stakingApr: { min: number; max: number }; rewardAprs: { total: number } };
  const pools = (await (await fetch(commands.find((c) => new URL(c.url).pathname === '/pools/31337')!.url)).json()) as {
    apr?: Apr;
  }[];
  const earning = pools.filter(
    (p) =>
      p.apr && p.apr.stakingApr.min > 0 && p.apr.stakingApr.max > p.apr.stakingApr.min && p.apr.rewardAprs.total > 0,
  );
  expect(earning.length).toBeGreaterThan(0);
  const byStaking = commands.find((c) => c.body?.includes('stakingAprMax'))!;
  const found = (await (
    await fetch(byStaking.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: byStaking.body,
    })
  ).json()) as { data: { pools: { pools: { apr: Apr }[] } } };
  expect(found.data.pools.pools.length).toBe(pools.filter((p) => (p.apr?.stakingApr.min ?? 0) > 0).length);
  const maxima = found.data.pools.pools.map((p) => p.apr.stakingApr.max);
  expect(maxima).toEqual([...maxima].sort((a, b) => b - a));

  const apiUrl = new URL(commands[0]!.url).origin;
  // Every curl the docs show answers as they say: its status and the shape of its example answer.
  const documented = docFiles().flatMap(curlCommands).filter(isDemoCommand);
  expect(documented.length).toBeGreaterThan(30);
  const wrong: string[] = [];
  for (const c of documented) {
    const problem = await runAgainst(apiUrl, c);
    if (problem) wrong.push(problem);
  }
  expect(wrong).toEqual([]);

  // The demo's API follows its chain: a block mined now is the served state within a second.
  const rpcUrl = /chain RPC\s+(http:\/\/\S+)/.exec(stdout)?.[1];
  expect(rpcUrl).toBeDefined();
  const rpc = async (method: string) =>
    (
      (await (
        await fetch(rpcUrl!, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
        })
      ).json()) as { result: string }
    ).result;
  await rpc('evm_mine');
  const head = Number(BigInt(await rpc('eth_blockNumber')));
  const followedAt = async () =>
    ((await (await fetch(`${apiUrl}/readyz`)).json()) as { chains: { follow: { stateBlock: number } | null }[] })
      .chains[0]?.follow?.stateBlock;
  // No time bound (a busy CPU slows the follower, not the outcome); the long cap ends a hung run.
  const deadline = Date.now() + 60_000;
  while (((await followedAt()) ?? -1) < head && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(await followedAt()).toBe(head);

  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  await expect(fetch(`${apiUrl}/healthz`)).rejects.toThrow();
}, 120_000);
