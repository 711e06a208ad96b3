/** Tests run through swc (type-stripping only); `npm run typecheck` does the type checking. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'commonjs' } },
    ],
  },
  setupFiles: ['<rootDir>/test/setupEnv.ts'],
  // Compiles Balancer V3 for the devnet once per install (cached), before any test deploys one.
  globalSetup: '<rootDir>/test/globalSetup.ts',
  testTimeout: 60000,
  // The end-to-end and browser suites start processes; two workers fit this 2-core machine.
  maxWorkers: 2,
  // Longest suites first even on a clean clone, which has no durations from a last run.
  testSequencer: '<rootDir>/test/sequencer.js',
};
