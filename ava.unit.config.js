// The unit tier (test/unit): pure tests, in-process, with no program run and no socket opened; run by
// `npm run test:unit` after a build, and by `npm test` with every other file. The guard makes any run
// of a program or any socket fail the test that does it. Worker threads start faster than processes,
// and no unit test needs a process of its own.
export default {
  files: ['dist/test/unit/**/*.test.js'],
  require: ['./dist/test/helpers/unit-tier-guard.js'],
  workerThreads: true,
  timeout: '60s',
  nodeArguments: ['--enable-source-maps'],
};
