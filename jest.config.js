/** Unit tests (test/unit) and e2e tests (test/e2e) run in one jest invocation against real PostgreSQL and Redis. */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleNameMapper: { '^src/(.*)$': '<rootDir>/src/$1' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The entrypoints compiled for the suites that start them as processes (test/support/entrypoints.ts).
  modulePathIgnorePatterns: ['<rootDir>/.test-dist/'],
  // The service's logs are dropped (TEST_LOGS=1 shows them): a run prints jest's own output only.
  setupFiles: ['<rootDir>/test/support/quiet-logs.ts'],
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  testTimeout: 30000,
  // Two test files at a time: most of an e2e file's time is spent waiting (on PostgreSQL, Redis, a worker or a
  // spawned process), so two in flight roughly halve the run on two cores. Each file owns its database and Redis
  // prefix, so they cannot collide. Timing bounds (event loop, rate-limit windows) are met with a neighbour running.
  maxWorkers: 2,
};
