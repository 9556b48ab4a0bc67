// `npm run bench:stages [-- --node PATH] [--connections N] [--seconds S]`: where the sidecar's time per
// request goes beyond the requested stack's. The sidecar as shipped and the `stack` floor
// (bench/stack-proxy.ts) run one after the other on core 0 under Node's CPU profiler, with the image's
// Node options and flags, against the bench upstream on core 1, each under the same wrk load (GET,
// concurrency 32 unless told); the profiles are split by stage (bench/stage-costs.ts) and printed side
// by side in microseconds of CPU per request. The profiler adds its own cost to both rows alike.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { runLoadReport } from './load-report.js';
import { freePort, waitForPort } from './net-utils.js';
import { registryNode } from './node-lines.js';
import { shippedSidecarLaunch } from './shipped-node-options.js';
import { stageCosts, type CpuProfile } from './stage-costs.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({
  options: {
    node: { type: 'string' },
    connections: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
  },
});
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const PATH = '/v1.1/customer/12345';

const pinned = (core: number, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess =>
  spawn('taskset', ['-c', String(core), command, ...args], { env, stdio: 'ignore' });

/** Requests wrk completed against the URL in the given seconds. */
async function load(url: string, durationS: number): Promise<number> {
  const wrk = ['wrk', '-t1', `-c${connections}`, `-d${durationS}s`, '-s', join(ROOT, 'bench/wrk-report.lua'), url];
  return (await runLoadReport(wrk, url)).requests!;
}

interface Launch {
  readonly args: string[];
  readonly env: NodeJS.ProcessEnv;
}

/** Profiles one proxy under load; the profile covers its whole life, so every request it served counts. */
async function profile(name: string, node: string, launch: (port: number) => Launch) {
  const dir = mkdtempSync(join(tmpdir(), `sfd-stages-${name}-`));
  const port = await freePort();
  const { args, env } = launch(port);
  const proxy = pinned(0, node, ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...args], env);
  const exited = new Promise((resolve) => proxy.once('exit', resolve));
  await waitForPort(port);
  const url = `http://127.0.0.1:${port}${PATH}`;
  const requests = (await load(url, 3)) + (await load(url, seconds));
  proxy.kill('SIGTERM');
  await exited;
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${name} wrote no profile`);
  const costs = stageCosts(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, requests);
  rmSync(dir, { recursive: true, force: true });
  return new Map(costs);
}

const cell = (value: number | undefined): string => (value === undefined ? '-' : value.toFixed(1));

async function main(): Promise<void> {
  const node = values.node ?? registryNode(24);
  const shipped = shippedSidecarLaunch(ROOT);
  const env = { PATH: process.env.PATH, ...shipped.env };
  const upstreamPort = await freePort();
  const upstream = pinned(1, process.execPath, [join(ROOT, 'dist/bench/bench-upstream.js'), String(upstreamPort)]);
  try {
    await waitForPort(upstreamPort);
    const adminPort = await freePort();
    const sidecar = await profile('sidecar', node, (port) => ({
      args: shipped.args,
      env: {
        ...env,
        SFD_UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}`,
        SFD_ACCESS_KEY_ID: 'AKBENCH00000001',
        SFD_ACCESS_KEY_SECRET: 'bench-secret-not-a-real-key',
        SFD_LOG_LEVEL: 'info',
        SFD_LISTEN: `127.0.0.1:${port}`,
        SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
      },
    }));
    const stack = await profile('stack', node, (port) => ({
      args: [...shipped.nodeFlags, join(ROOT, 'dist/bench/stack-proxy.js'), String(port), String(upstreamPort)],
      env,
    }));
    const stages = [...new Set([...sidecar.keys(), ...stack.keys()])];
    const total = (costs: Map<string, number>): number => [...costs.values()].reduce((sum, v) => sum + v, 0);
    const lines = [
      `CPU per request by stage, µs (GET, concurrency ${connections}, ${seconds} s after a 3 s warm-up, ` +
        `${node}; profiled, so both rows run slower than in the bench)`,
      '| stage | sidecar | stack | sidecar - stack |',
      '|---|---|---|---|',
      ...stages.map(
        (stage) =>
          `| ${stage} | ${cell(sidecar.get(stage))} | ${cell(stack.get(stage))} | ` +
          `${cell((sidecar.get(stage) ?? 0) - (stack.get(stage) ?? 0))} |`,
      ),
      `| all | ${cell(total(sidecar))} | ${cell(total(stack))} | ${cell(total(sidecar) - total(stack))} |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    upstream.kill('SIGKILL');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:stages failed: ${(error as Error).message}\n`);
  process.exit(1);
});
