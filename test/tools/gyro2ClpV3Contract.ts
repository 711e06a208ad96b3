import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContractFactory, type Contract, type InterfaceAbi, type JsonRpcSigner } from 'ethers';
import { startInProcessChain } from '../../src/devnet/localChain';
import type { Gyro2ClpV3State } from '../../src/domain/poolTypes/gyro/v3/twoClpV3State';
import { gyro2ClpV3Math } from '../../src/domain/poolTypes/gyro/v3/twoClpV3Pool';
import type { V3PoolMath } from '../../src/domain/protocols/v3/poolMath';
import { isRevert } from '../../src/domain/swap/math/revert';

/**
 * The V3 2-CLP model against the deployed contract's own source, to the wei. Gyro2CLPPool.sol is not
 * on the npm registry, so the project's tests cannot compile it; this tool does, from a clone of
 * balancer-v3-monorepo (read with `git show` at the commit the 2025-01-20 Gyro 2-CLP deployment
 * names) and OpenZeppelin contracts 5.0.0 (its dependency), with the project's `solc`, deploys the
 * pool on hardhat's in-process chain with the signer as its Vault (onSwap is Vault-only), and
 * compares computeInvariant (both roundings), computeBalance and onSwap (exact in and out) on
 * random inputs, a revert on one side matching a revert on the other.
 *
 *   npx tsx test/tools/gyro2ClpV3Contract.ts <monorepo git dir> <@openzeppelin/contracts@5.0.0 dir>
 *   SEED=7 POOLS=40 PER=40 AMOUNT_MAX=-0.5 RATIO_LOG=0.3 npx tsx test/tools/gyro2ClpV3Contract.ts ...
 *
 * Exit code 1 when any answer differs.
 */

const DEPLOYED_COMMIT = 'e1ae7f091244ae20e5c1add3e7f89b6d33f48d23';
const ENTRY = '@balancer-labs/v3-pool-gyro/contracts/Gyro2CLPPool.sol';
const PACKAGES: Record<string, string> = {
  'v3-interfaces': 'pkg/interfaces',
  'v3-solidity-utils': 'pkg/solidity-utils',
  'v3-vault': 'pkg/vault',
  'v3-pool-utils': 'pkg/pool-utils',
  'v3-pool-gyro': 'pkg/pool-gyro',
};
const ONE = 10n ** 18n;
const OZ_PREFIX = '@openzeppelin/contracts/';

interface Artifact {
  readonly abi: InterfaceAbi;
  readonly bytecode: string;
}

function compilePool(gitDir: string, ozDir: string, commit: string): Artifact {
  const read = (path: string): string => {
    if (path.startsWith(OZ_PREFIX)) return readFileSync(join(ozDir, path.slice(OZ_PREFIX.length)), 'utf8');
    const m = /^@balancer-labs\/([^/]+)\/(.*)$/.exec(path);
    const pkg = m ? PACKAGES[m[1]!] : undefined;
    if (!m || !pkg) throw new Error(`no source for ${path}`);
    return execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${pkg}/${m[2]}`], { encoding: 'utf8' });
  };
  const importer = (path: string): { contents: string } | { error: string } => {
    try {
      return { contents: read(path) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  // The deployment's settings (via IR, cancun); the compiler is the project's, a later 0.8 whose
  // checked arithmetic is the same.
  const input = {
    language: 'Solidity',
    sources: { [ENTRY]: { content: read(ENTRY) } },
    settings: {
      viaIR: true,
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 9999 },
      outputSelection: { [ENTRY]: { Gyro2CLPPool: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const solc = require('solc') as { compile(input: string, callbacks: { import: typeof importer }): string };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: importer })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: InterfaceAbi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const pool = output.contracts?.[ENTRY]?.Gyro2CLPPool;
  if (!pool) throw new Error('solc produced no Gyro2CLPPool');
  return { abi: pool.abi, bytecode: `0x${pool.evm.bytecode.object}` };
}

/** A 64-bit LCG, so a run is reproducible from its seed. */
function draws(seed: bigint): () => number {
  let s = seed;
  return () => {
    s = (s * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
    return Number(s >> 11n) / 2 ** 53;
  };
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length >> 1) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

type Answer = bigint | 'revert';

function ours(f: () => bigint): Answer {
  try {
    return f();
  } catch (e) {
    if (isRevert(e)) return 'revert';
    throw e;
  }
}

async function theirs(f: () => Promise<unknown>): Promise<Answer> {
  try {
    return BigInt(String(await f()));
  } catch (e) {
    if (/revert|CALL_EXCEPTION/i.test((e as Error).message)) return 'revert';
    throw e;
  }
}

async function main(): Promise<void> {
  const [gitDir, ozDir] = process.argv.slice(2);
  if (!gitDir || !ozDir) throw new Error('usage: gyro2ClpV3Contract.ts <monorepo git dir> <openzeppelin dir>');
  const seed = process.env.SEED ?? '20260127';
  const pools = Number(process.env.POOLS ?? 16);
  const perPool = Number(process.env.PER ?? 25);
  const amountMaxLog = Number(process.env.AMOUNT_MAX ?? 0.15);
  const ratioLog = Number(process.env.RATIO_LOG ?? 1.5);
  const rnd = draws(BigInt(seed));
  /** An integer of about 10^(lo..hi) with all its digits random. */
  const magnitude = (lo: number, hi: number): bigint =>
    BigInt(Math.floor(10 ** (lo + (hi - lo) * rnd()))) + BigInt(Math.floor(rnd() * 1e6));

  const artifact = compilePool(gitDir, ozDir, process.env.COMMIT ?? DEPLOYED_COMMIT);
  const chain = startInProcessChain();
  const signer = await (chain.provider as unknown as { getSigner(i: number): Promise<JsonRpcSigner> }).getSigner(0);
  const vault = await signer.getAddress();
  const factory = new ContractFactory(artifact.abi, artifact.bytecode, signer);
  const compared: Record<string, number> = {};
  const chainReverts: Record<string, number> = {};
  const mismatches: string[] = [];
  const check = (label: string, model: Answer, contract: Answer, where: string): void => {
    compared[label] = (compared[label] ?? 0) + 1;
    if (contract === 'revert') chainReverts[label] = (chainReverts[label] ?? 0) + 1;
    if (model !== contract) mismatches.push(`${label} ${where}: model ${String(model)}, contract ${String(contract)}`);
  };

  for (let p = 0; p < pools; p++) {
    // alpha from 1e-4 to 1e4, beta above it by 1e-6 to 10 times alpha.
    const sqrtAlpha = isqrt(magnitude(14, 22) * ONE);
    const sqrtBeta = sqrtAlpha + (sqrtAlpha * magnitude(12, 19)) / ONE + 1n;
    const deployed = await factory.deploy({ name: '2CLP', symbol: '2CLP', sqrtAlpha, sqrtBeta, version: '1' }, vault);
    const pool = (await deployed.waitForDeployment()) as unknown as Contract;
    const model: V3PoolMath = gyro2ClpV3Math({ sqrtAlpha, sqrtBeta } as Gyro2ClpV3State);
    for (let k = 0; k < perPool; k++) {
      // Down to dust (1e6 wei) and occasionally empty, where the fixed point is least precise.
      const balances = [0, 1].map(() => (rnd() < 0.03 ? 0n : magnitude(6, 30)));
      const where = `sqrtAlpha ${sqrtAlpha} sqrtBeta ${sqrtBeta} balances ${balances.join(',')}`;
      // The contract's Rounding: ROUND_UP = 0, ROUND_DOWN = 1.
      for (const [rounding, code] of [
        ['up', 0],
        ['down', 1],
      ] as const) {
        check(
          `invariant ${rounding}`,
          ours(() => model.computeInvariant(balances, rounding)),
          await theirs(() => pool.getFunction('computeInvariant').staticCall(balances, code)),
          where,
        );
      }
      for (const tokenIndex of [0, 1]) {
        const ratio = rnd() < 0.1 ? BigInt(Math.floor(rnd() * 3)) * ONE : magnitude(18 - ratioLog, 18 + ratioLog);
        check(
          'computeBalance',
          ours(() => model.computeBalance(balances, tokenIndex, ratio)),
          await theirs(() => pool.getFunction('computeBalance').staticCall(balances, tokenIndex, ratio)),
          `${where} index ${tokenIndex} ratio ${ratio}`,
        );
      }
      for (const indexIn of [0, 1]) {
        const indexOut = 1 - indexIn;
        // The contract's SwapKind: EXACT_IN = 0, EXACT_OUT = 1.
        for (const [kind, code] of [
          ['exactIn', 0],
          ['exactOut', 1],
        ] as const) {
          const reference = balances[code === 0 ? indexIn : indexOut]!;
          const amount = reference === 0n ? magnitude(0, 20) : (reference * magnitude(6, 18 + amountMaxLog)) / ONE + 1n;
          const swap = { amountGivenScaled18: amount, balancesScaled18: balances, indexIn, indexOut };
          check(
            `swap ${kind}`,
            ours(() => model.onSwap({ kind, ...swap })),
            await theirs(() =>
              pool.getFunction('onSwap').staticCall({ kind: code, ...swap, router: vault, userData: '0x' }),
            ),
            `${where} ${indexIn}->${indexOut} amount ${amount}`,
          );
        }
      }
    }
  }
  await chain.close();
  process.stdout.write(`${JSON.stringify({ seed, pools, compared, chainReverts, mismatches: mismatches.length })}\n`);
  for (const m of mismatches.slice(0, 20)) process.stdout.write(`${m}\n`);
  process.exitCode = mismatches.length === 0 ? 0 : 1;
}

main().catch((e: unknown) => {
  process.stderr.write(`${String((e as Error).stack ?? e)}\n`);
  process.exitCode = 1;
});
