import { readFileSync } from 'node:fs';
import { resolveChain } from '../config/chains';
import { ConfigError, loadConfig, processEnv } from '../config/env';
import { poolsFromFile } from '../domain/normalizePool';
import { planPoolUpdate } from '../jobs/planPoolUpdate';
import { createStore } from '../store/createStore';
import { parseArgs } from './args';

/**
 * `npm run seed -- --chain 1 --file pools.json`: loads a subgraph-shaped pools file into the
 * configured store through the pool-update job's own normalization, and bumps the version.
 */
async function main(): Promise<void> {
  const { flags } = parseArgs(process.argv.slice(2), ['chain', 'file']);
  const chainArg = flags.get('chain');
  const file = flags.get('file');
  if (!chainArg || !file) throw new Error('usage: npm run seed -- --chain <id|name> --file <pools.json>');
  const chain = resolveChain(chainArg);
  if (!chain) throw new Error(`--chain: unknown chain '${chainArg}'`);
  // Seeding a chain must work even when NETWORKS does not list it yet.
  const config = loadConfig(processEnv({ NETWORKS: String(chain.id) }));
  const raw = poolsFromFile(JSON.parse(readFileSync(file, 'utf8')));

  const store = await createStore(config);
  try {
    const [stored, tokens] = await Promise.all([store.listPools(chain.id), store.listTokens(chain.id)]);
    const plan = planPoolUpdate(raw, stored, new Set(tokens.map((t) => t.address)), {
      nowSeconds: Math.floor(Date.now() / 1000),
      removeMissing: false,
    });
    const meta = await store.commit(chain.id, plan.change);
    for (const s of plan.skipped) process.stderr.write(`skipped pool ${s.id}: ${s.error}\n`);
    process.stdout.write(
      `seeded chain ${chain.id} (${chain.name}) into ${config.store}: ${plan.fetched} pools read, ${plan.written} written, ` +
        `${plan.skipped.length} skipped, ${plan.tokensAdded} new tokens (${tokens.length + plan.tokensAdded} tokens), poolsVersion ${meta.poolsVersion}\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((e: Error) => {
  process.stderr.write(`${e instanceof ConfigError ? 'configuration error' : 'seed failed'}: ${e.message}\n`);
  process.exit(1);
});
