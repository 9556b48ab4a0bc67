// The cluster tier (test/cluster): run by dist/test/cluster/run-cluster-tier.js, one file at a time,
// against the cluster it names; SFD_TEST_FILES runs some of its files only.
import process from 'node:process';

export default {
  files: [process.env.SFD_TEST_FILES ?? 'dist/test/cluster/**/*.test.js'],
  concurrency: 1,
  timeout: '5m',
  workerThreads: false,
  nodeArguments: ['--enable-source-maps'],
};
