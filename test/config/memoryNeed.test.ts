import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerLimitMiB, MEASURED_RSS, memoryNeedMiB, memoryShortfall } from '../../src/config/memoryNeed';

describe('memory a configuration needs', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bps-cgroup-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('is never below a measured RSS, and within 5 % of the largest for each thread count', () => {
    expect(MEASURED_RSS.length).toBeGreaterThanOrEqual(4);
    const need = (row: (typeof MEASURED_RSS)[number]) => memoryNeedMiB(row.chains * row.poolsPerChain, row.threads);
    for (const row of MEASURED_RSS) expect(need(row)).toBeGreaterThanOrEqual(row.rssMiB);
    for (const threads of new Set(MEASURED_RSS.map((r) => r.threads))) {
      const largest = MEASURED_RSS.filter((r) => r.threads === threads).sort((a, b) => b.rssMiB - a.rssMiB)[0]!;
      expect(need(largest)).toBeLessThanOrEqual(largest.rssMiB * 1.05);
    }
  });

  it('grows with pools and with quote threads', () => {
    expect(memoryNeedMiB(33_480, 2)).toBeGreaterThan(memoryNeedMiB(11_160, 2));
    expect(memoryNeedMiB(33_480, 3)).toBeGreaterThan(memoryNeedMiB(33_480, 2));
  });

  // Node knows no limit: the files decide.
  const onlyFiles = (...files: string[]) => ({ constrainedMemory: () => 0, files });

  it("reads the container's limit from cgroup v2, then v1; none when unlimited or absent", () => {
    const missing = join(dir, 'absent');
    expect(containerLimitMiB(onlyFiles(file('v2', '1073741824\n')))).toBe(1024);
    expect(containerLimitMiB(onlyFiles(file('v2max', 'max\n'), file('v1', '536870912')))).toBeUndefined();
    expect(containerLimitMiB(onlyFiles(missing, file('v1b', '536870912\n')))).toBe(512);
    expect(containerLimitMiB(onlyFiles(missing, file('v1unset', '9223372036854771712')))).toBeUndefined();
    expect(containerLimitMiB(onlyFiles(missing))).toBeUndefined();
  });

  it("prefers Node's reading of the limit, and takes 0 or near 2^64 from it as none known", () => {
    const files = [file('v2other', '536870912')];
    expect(containerLimitMiB({ constrainedMemory: () => 2 ** 30, files })).toBe(1024);
    expect(containerLimitMiB({ constrainedMemory: () => 0, files })).toBe(512);
    expect(containerLimitMiB({ constrainedMemory: () => 2 ** 64, files })).toBe(512);
    expect(containerLimitMiB({ constrainedMemory: () => undefined, files })).toBe(512);
    expect(containerLimitMiB({ constrainedMemory: () => 2 ** 64, files: [join(dir, 'absent')] })).toBeUndefined();
    // MEMORY_LIMIT_MIB still comes first.
    const poolsByChain = new Map([[1, 11_160]]);
    const sources = { constrainedMemory: () => 2 ** 28, files };
    expect(memoryShortfall({ poolsByChain, threads: 2, limitMib: 4096, limitSources: sources })).toBeUndefined();
    expect(memoryShortfall({ poolsByChain, threads: 2, limitMib: undefined, limitSources: sources })).toContain(
      "the container's memory limit (cgroup) is 256 MiB",
    );
  });

  it('counts the main thread as one quote thread when there are none (ROUTER_WORKERS=0)', () => {
    expect(memoryNeedMiB(33_480, 0)).toBe(memoryNeedMiB(33_480, 1));
    expect(memoryNeedMiB(0, 0)).toBe(memoryNeedMiB(0, 1));
  });

  it('refuses an instance too small, naming the settings that change the need or the limit', () => {
    const poolsByChain = new Map([
      [1, 11_160],
      [137, 11_160],
      [42161, 11_160],
    ]);
    const message = memoryShortfall({ poolsByChain, threads: 2, limitMib: 512 });
    expect(message).toContain(`need about ${memoryNeedMiB(33_480, 2)} MiB`);
    expect(message).toContain('MEMORY_LIMIT_MIB is 512 MiB');
    for (const setting of ['NETWORKS', 'ROUTER_WORKERS', '1: 11,160']) expect(message).toContain(setting);
    const fromCgroup = memoryShortfall({
      poolsByChain,
      threads: 2,
      limitMib: undefined,
      limitSources: onlyFiles(file('small', '536870912')),
    });
    expect(fromCgroup).toContain("the container's memory limit (cgroup) is 512 MiB");
  });

  it('lets a start through when the instance holds it, when no limit is known, or with MEMORY_LIMIT_MIB=0', () => {
    const poolsByChain = new Map([[1, 11_160]]);
    expect(memoryShortfall({ poolsByChain, threads: 2, limitMib: 4096 })).toBeUndefined();
    expect(memoryShortfall({ poolsByChain, threads: 2, limitMib: 0 })).toBeUndefined();
    expect(
      memoryShortfall({ poolsByChain, threads: 2, limitMib: undefined, limitSources: onlyFiles(join(dir, 'none')) }),
    ).toBeUndefined();
  });
});
