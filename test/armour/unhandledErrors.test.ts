import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeSentryIngest, startFakeSentryIngest } from '../fakes/sentryIngest';

const ROOT = join(__dirname, '..', '..');

function runCrashingService(dsn: string, crash: 'exception' | 'rejection', dataDir: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', join('test', 'armour', 'fixtures', 'crashingService.ts')], {
    cwd: ROOT,
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME,
      ERRORTRACKER_DSN: dsn,
      CRASH: crash,
      DATA_DIR: dataDir,
    },
    stdio: 'ignore',
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    }),
  );
}

describe('unhandled errors in the service process', () => {
  let ingest: FakeSentryIngest;
  let dataDir: string;
  beforeEach(async () => {
    ingest = await startFakeSentryIngest();
    dataDir = mkdtempSync(join(tmpdir(), 'bps-crash-'));
  });
  afterEach(async () => {
    await ingest.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['an uncaught exception', 'exception', 'uncaught exception in a background task'],
    ['an unhandled rejection', 'rejection', 'unhandled rejection in a background task'],
  ] as const)(
    'reports %s as a fatal event, then the process exits non-zero as Node would',
    async (_what, crash, message) => {
      const code = await runCrashingService(ingest.dsn, crash, dataDir);
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      const [event] = await ingest.waitForEvents(1);
      expect(event?.level).toBe('fatal');
      expect(event?.exception?.values?.[0]?.value).toBe(message);
    },
    40_000,
  );
});
