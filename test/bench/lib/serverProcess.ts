import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../helpers/freePort';
import { imageCommand, type ImageCommand } from './imageCommand';

const ROOT = join(__dirname, '..', '..', '..');

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resident set size of the server process in MiB. */
  rssMiB(): number;
  /** The process's peak resident set size so far in MiB (VmHWM). */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /**
   * Run the compiled service (`dist/src/main.js`, built by `npm run build`) exactly as the image
   * does (the Dockerfile's `CMD` flags and `ENV`, `imageCommand.ts`), instead of the sources
   * through tsx: tsx's loader in the process and in each quote thread costs memory production
   * does not pay.
   */
  readonly compiled?: boolean;
  /** How long to wait for `/readyz` (default 30 s). */
  readonly readyTimeoutMs?: number;
}

/**
 * The server process's environment: none of the shell's but PATH and HOME, the image's `ENV` when
 * compiled, then `env`. `MEMORY_LIMIT_MIB` is 0 unless `env` sets it: the
 * start check would otherwise read the host's cgroup and may refuse a bench on a small machine.
 */
export function serverProcessEnv(
  env: Record<string, string>,
  port: number,
  image?: ImageCommand,
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    METADATA_SERVER_DETECTION: 'none',
    MEMORY_LIMIT_MIB: '0',
    ...image?.env,
    PORT: String(port),
    ...env,
  };
}

/** Starts the service as its own process (as in production), so the load generator does not share its event loop. */
export async function startServerProcess(
  env: Record<string, string>,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const image = options.compiled ? imageCommand() : undefined;
  const [command, args] = image
    ? [process.execPath, [...image.args]]
    : [join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'src', 'main.ts')]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: serverProcessEnv(env, port, image),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const readyMs = options.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${log}`);
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready after ${readyMs / 1000} s: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    rssMiB: () => statusMiB(child, 'VmRSS'),
    peakRssMiB: () => statusMiB(child, 'VmHWM'),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

function statusMiB(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}
