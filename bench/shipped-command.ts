// Prints the shell command that runs the built sidecar as the container image does: production mode
// (no demo), the image's NODE_OPTIONS and its Node flags, this machine's Node. `npm run start:shipped`
// execs it, so that a load test of your own measures the sidecar as shipped, in one process whose pid
// is the one npm started, against the upstream and key the SFD_* settings of the environment name.
import { fileURLToPath } from 'node:url';
import { shippedSidecarLaunch } from './shipped-node-options.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** One word for a POSIX shell, quoted whatever it holds. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

const launch = shippedSidecarLaunch(ROOT);
const assignments = Object.entries(launch.env).map(([name, value]) => `${name}=${value}`);
process.stdout.write(`${['env', ...assignments, process.execPath, ...launch.args].map(shellWord).join(' ')}\n`);
