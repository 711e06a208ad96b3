import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/env';
import { memoryNeedMiB } from '../../src/config/memoryNeed';
import { syntheticPools } from '../fakes/syntheticPools';
import { imageCommand } from '../bench/lib/imageCommand';
import { serverProcessEnv } from '../bench/lib/serverProcess';
import { startTestServer } from '../helpers/testServer';

const ROOT = join(__dirname, '..', '..');

describe('a start on an instance too small for its pools', () => {
  it('fails before listening, naming the need and the setting that gave the limit', async () => {
    const start = startTestServer(
      { NETWORKS: '1,137', ROUTER_WORKERS: '1', MEMORY_LIMIT_MIB: '100' },
      { seed: [{ chainId: 1, pools: syntheticPools(50) as unknown[] }] },
    );
    await expect(start).rejects.toThrow(ConfigError);
    await expect(start).rejects.toThrow(
      new RegExp(
        `2 chains \\(NETWORKS; pools 1: \\d+, 137: 0\\) with 1 quote threads \\(ROUTER_WORKERS\\) need about \\d+ MiB, and MEMORY_LIMIT_MIB is 100 MiB`,
      ),
    );
  });

  it('starts when the limit holds the need', async () => {
    const server = await startTestServer(
      { NETWORKS: '1', ROUTER_WORKERS: '1', MEMORY_LIMIT_MIB: String(memoryNeedMiB(1_000, 1)) },
      { seed: [{ chainId: 1, pools: syntheticPools(50) as unknown[] }] },
    );
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.close();
  });

  it('ends the process with one line naming the settings, not an OOM kill later', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bps-memory-start-'));
    try {
      const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '/tmp',
          METADATA_SERVER_DETECTION: 'none',
          PORT: '0',
          NETWORKS: '1',
          DATA_DIR: dataDir,
          ROUTER_WORKERS: '1',
          MEMORY_LIMIT_MIB: '64',
          UPDATE_POOLS_INTERVAL_IN_MINUTES: '0',
          DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
          PRICE_INTERVAL_SECONDS: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toMatch(
        /^configuration error: memory: 1 chains .* need about \d+ MiB, and MEMORY_LIMIT_MIB is 64 MiB/m,
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('test and bench servers', () => {
  it("skip the start check unless told a limit, whatever the host's cgroup says", async () => {
    const server = await startTestServer({ ROUTER_WORKERS: '0' }, { features: [] });
    try {
      expect(server.ctx.config.memoryLimitMib).toBe(0);
    } finally {
      await server.close();
    }
    const env = serverProcessEnv({ NETWORKS: '1' }, 1234, imageCommand());
    expect(env).toMatchObject({ MEMORY_LIMIT_MIB: '0', NETWORKS: '1', PORT: '1234' });
    expect(serverProcessEnv({ MEMORY_LIMIT_MIB: '900' }, 1234).MEMORY_LIMIT_MIB).toBe('900');
  });
});
