const Sequencer = require('@jest/test-sequencer').default;
const path = require('node:path');

/**
 * Longest suites first, so neither worker is left with a long one at the end. Jest orders by the
 * durations of its last run, but a clean clone (CI) has none and falls back to file size, which
 * ran the 4-line atHead suites (about a minute each) last. Without a cached duration a suite's
 * estimate is its figure here (seconds on a CI worker), else a devnet suite's typical figure.
 * A stale figure only changes the order.
 */
const SECONDS = {
  'test/routing/v2/engineVsSor.test.ts': 100,
  'test/e2e/followState.test.ts': 80,
  'test/domain/swap/candidateUpdates.test.ts': 78,
  'test/e2e/atHeadPolling.test.ts': 72,
  'test/e2e/v3Orders.test.ts': 70,
  'test/e2e/atHead.test.ts': 64,
  'test/jobs/updatePools.faults.test.ts': 60,
  'test/e2e/randomOrders.test.ts': 49,
  'test/domain/poolTypes/composableStable/composableStable.devnet.test.ts': 48,
  'test/e2e/v3Pairs.test.ts': 46,
  'test/e2e/lyingNode.test.ts': 45,
  'test/routing/v2/sorMatchesSor.test.ts': 44,
  'test/e2e/balancerSdk.test.ts': 43,
  'test/routing/sorEndpoint.test.ts': 43,
  'test/e2e/orders.test.ts': 42,
  'test/e2e/demo.test.ts': 42,
  'test/devnet/composableStableFees.test.ts': 41,
  'test/e2e/relayerOrders.test.ts': 40,
  'test/e2e/followHead.test.ts': 39,
  'test/e2e/lyingNodeV3.test.ts': 39,
  'test/devnet/extraPools.test.ts': 39,
  'test/store/firestoreStore.test.ts': 38,
  'test/e2e/cowSolver.test.ts': 37,
  'test/devnet/poolAgreement.test.ts': 36,
};
/** Suites that deploy a devnet: about 25 s each on a CI worker. */
const DEVNET = /(^test\/(e2e|devnet)\/)|\.devnet\.test\.ts$/;

class SlowFirst extends Sequencer {
  estimate(test) {
    const cached = this.time(test);
    if (cached !== undefined) return cached;
    const rel = path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/');
    if (SECONDS[rel] !== undefined) return SECONDS[rel] * 1000;
    return DEVNET.test(rel) ? 25_000 : 0;
  }

  sort(tests) {
    const size = (t) => t.context.hasteFS.getSize(t.path) ?? 0;
    const keyed = tests.map((t) => ({ t, failed: this.hasFailed(t), ms: this.estimate(t), size: size(t) }));
    keyed.sort((a, b) => Number(b.failed) - Number(a.failed) || b.ms - a.ms || b.size - a.size);
    return keyed.map((k) => {
      k.t.duration = this.time(k.t);
      return k.t;
    });
  }
}

module.exports = SlowFirst;
