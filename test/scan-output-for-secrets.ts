// Reads the output of a whole test run (a file, or standard input) and fails when any test secret
// appears in it: logs, error bodies, command output and crash messages must never carry one.
import { readFileSync } from 'node:fs';
import { ALL_TEST_SECRETS } from './helpers/test-secrets.js';

const path = process.argv[2];
const output = readFileSync(path ?? 0, 'utf8');
const found = ALL_TEST_SECRETS.filter((secret) => output.includes(secret));
if (output.length === 0) {
  process.stderr.write('scan-output-for-secrets: the test output is empty\n');
  process.exit(1);
}
if (found.length > 0) {
  process.stderr.write(`scan-output-for-secrets: ${found.length} test secret(s) appear in the test output\n`);
  process.exit(1);
}
process.stdout.write(
  `scan-output-for-secrets: none of ${ALL_TEST_SECRETS.length} test secrets appear in ${output.length} ` +
    `characters of test output\n`,
);
