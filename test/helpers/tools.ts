// External tools the tests use (installed by .ci/run from Debian's packages): found on PATH, and a
// clear failure, never a silent skip, when one is missing.
import { spawnSync } from 'node:child_process';
import { REPO_ROOT } from './repo-root.js';

export { REPO_ROOT };

export function requireTool(name: string, debianPackage: string): string {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  if (found.status !== 0 || path === '')
    throw new Error(`${name} is not installed: apt-get install ${debianPackage} (.ci/run does this)`);
  return path;
}

export function runTool(
  command: string,
  args: readonly string[],
  input?: string,
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, [...args], { encoding: 'utf8', cwd: REPO_ROOT, input, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
