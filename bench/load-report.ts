// Runs a load generator on core 1, the proxies' neighbour, and reads its report: the last line it prints
// that is a JSON object (wrk through bench/wrk-report.lua, or bench/steady-load.ts).
import { spawn } from 'node:child_process';

/** The report's fields; rejects when the generator printed none (`target` names what it loaded). */
export function runLoadReport(command: readonly string[], target: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', '1', ...command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const line = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .pop();
      if (!line) return reject(new Error(`load generator printed nothing for ${target}`));
      resolve(JSON.parse(line) as Record<string, number>);
    });
  });
}
