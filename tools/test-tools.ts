// Run before `npm test`: makes sure the system tools the tests use are installed. Missing ones are
// installed with apt-get when that can be done without a prompt (as root, or with password-less
// sudo); otherwise it says in one line what to install, and the test run stops there instead of
// failing test by test.
import { spawnSync } from 'node:child_process';

/** Each command the tests run, and the Debian package that carries it. */
export const TEST_TOOLS: Readonly<Record<string, string>> = {
  prometheus: 'prometheus',
  promtool: 'prometheus',
  yamllint: 'yamllint',
  openssl: 'openssl',
  // The shell completion scripts are run in each shell they are written for.
  bash: 'bash',
  zsh: 'zsh',
  fish: 'fish',
};

const has = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** The packages whose commands are missing here, each once. */
export function missingPackages(isInstalled: (command: string) => boolean = has): string[] {
  const missing = Object.entries(TEST_TOOLS).filter(([command]) => !isInstalled(command));
  return [...new Set(missing.map(([, pkg]) => pkg))].sort();
}

/** The prefix that runs apt-get without a prompt, or null when nothing can. */
function privileged(): string[] | null {
  if (!has('apt-get')) return null;
  if (process.getuid?.() === 0) return [];
  if (has('sudo') && spawnSync('sudo', ['-n', 'true']).status === 0) return ['sudo', '-n'];
  return null;
}

function install(prefix: string[], packages: string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args: string[]): boolean => {
    const [command, ...rest] = [...prefix, ...args];
    return spawnSync(command!, rest, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  };
  return (
    run(['apt-get', 'update', '-qq']) &&
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages])
  );
}

function main(): number {
  const packages = missingPackages();
  if (packages.length === 0) return 0;
  const prefix = privileged();
  if (prefix) {
    process.stderr.write(`npm test: installing ${packages.join(', ')} with apt-get\n`);
    if (install(prefix, packages) && missingPackages().length === 0) return 0;
  }
  process.stderr.write(
    `npm test needs ${packages.join(', ')}: run \`sudo apt-get install ${packages.join(' ')}\` (or your ` +
      `system's equivalent), then npm test again\n`,
  );
  return 1;
}

if (process.argv[1]?.endsWith('test-tools.js')) process.exitCode = main();
