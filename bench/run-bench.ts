// `npm run bench [-- --quick]`: the cost of the sidecar, measured against calling the upstream
// directly, against an nginx pass-through proxy (when installed), against a plain node:http proxy
// (bench/plain-proxy.ts) and against hono's adapter with http-proxy and nothing else (bench/stack-proxy.ts),
// each on the same Node, in one run, on each Node line (bench/node-lines.ts). Each
// proxy runs alone on core 0, the upstream and the load generator on core 1; rows alternate within
// each round so a noisy machine affects all alike. Exits non-zero only when a scenario saw errors,
// never on timings.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { superviseChildren } from './child-supervisor.js';
import { runLoadReport } from './load-report.js';
import { freePort, waitForPort } from './net-utils.js';
import { formatReport, summarise } from './bench-report.js';
import { rowOf, type Measurement, type NodeProxy, type Rounds, type RowName } from './measurement.js';
import { errorCount, roundProblems, type RoundOutcome } from './round-problems.js';
import { checkTargets, formatTargets, PER_POD_TARGETS } from './targets.js';
import { parseBenchArgs } from './bench-args.js';
import { formatOperationsCost, operationsCost } from './operations-cost.js';
import { resolveNodeLines, type NodeLine } from './node-lines.js';
import { shippedSidecarLaunch } from './shipped-node-options.js';
import { DEFAULT_LIMITS } from '../src/config/limits-config.js';
import { formatIdle, IDLE_LOAD_PERIODS, measureIdle, type IdleMeasurement } from './idle-load.js';
import { formatStartToReady, measureStartToReady, type Launch } from './start-to-ready.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { quick, nodes, operations } = parseBenchArgs(process.argv.slice(2));
// Five rounds: on a shared 2-core VM single runs of the same build were seen to differ by 50%; the
// median of five, and ratios taken within each round, hold still far better than three. Each round
// holds three rows per Node line, so a run of three lines keeps to 6 s per row.
const rounds = quick ? 1 : 5;
// A p99.9 of a few thousand requests a round moves with every pause of the machine: the tail scenarios
// (concurrency 32) run nine rounds, which the tail targets need.
const tailRounds = quick ? 1 : 9;
const seconds = quick ? 2 : 6;
// The idle row: the probe and scrape load for a settling spell (longer than the event loop monitor's spell
// after the last request, and V8's memory reducer after the load), then measured for a minute.
const idleSeconds = quick ? 5 : 60;
const idleSettleSeconds = quick ? 1 : 30;
const readyRounds = quick ? 2 : 9;
const warmupSeconds = quick ? 1 : 3;
// The quick form checks the sidecar for errors; the floors' rows would only add to its minute.
const withNodeFloor = !quick;
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly connections: number;
  /**
   * Requests per second, evenly spaced, for a fixed-rate run (`connections` is then the most open at once); undefined
   * for as fast as possible.
   */
  readonly rate?: number;
  /** Path and query requested; the bench upstream answers `delayMs=N` N ms late. */
  readonly path?: string;
  /** Judged by its tail: run `tailRounds` rounds. */
  readonly tail?: true;
}
const CUSTOMER_PATH = '/v1.1/customer/12345';
const scenarios: Scenario[] = [
  { name: 'GET, concurrency 1', method: 'GET', connections: 1 },
  { name: 'GET, concurrency 32', method: 'GET', connections: 32, tail: true },
  { name: 'POST 1 KiB, concurrency 1', method: 'POST', connections: 1 },
  { name: 'POST 1 KiB, concurrency 32', method: 'POST', connections: 32, tail: true },
  { name: 'GET at a fixed 1000 requests/s', method: 'GET', connections: 16, rate: 1000 },
  // A pod's usual traffic, for the footprint the chart's requests follow.
  { name: 'GET at a fixed 100 requests/s', method: 'GET', connections: 4, rate: 100 },
  // A gateway 50 ms away: about 50 requests in flight at once, each held by the proxy for 50 ms.
  {
    name: 'GET at a fixed 1000 requests/s, upstream answering in 50 ms',
    method: 'GET',
    connections: 128,
    rate: 1000,
    path: `${CUSTOMER_PATH}?delayMs=50`,
  },
];
const postBody = JSON.stringify({ timeWindow: 30, requestLimit: 50, note: 'x'.repeat(1024 - 60) });

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** A failure the bench explains in one line, without a stack: one of its servers died mid-run. */
class BenchFailure extends Error {}

function pinned(
  core: number,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  logFile?: string,
): ChildProcess {
  const out = logFile ? openSync(logFile, 'a') : 'ignore';
  return spawn('taskset', ['-c', String(core), command, ...args], { env, stdio: ['ignore', out, out] });
}

/** /proc/PID/FILE of a measured process; a process that is gone is a BenchFailure, not a crash. */
function procFile(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    throw new BenchFailure(`process ${pid} is gone`);
  }
}

function cpuTicks(pid: number): number {
  const stat = procFile(pid, 'stat');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(procFile(pid, 'status'));
  return Math.round((Number(match?.[1] ?? 0) / 1024) * 10) / 10;
}

function anonymousMb(pid: number): number {
  const match = /^Anonymous:\s+(\d+) kB/m.exec(procFile(pid, 'smaps_rollup'));
  return Math.round((Number(match?.[1] ?? 0) / 1024) * 10) / 10;
}

/** Connections the upstream has accepted in all, and the most held open at once since the last read. */
async function upstreamStats(port: number): Promise<{ connections: number; peakOpen: number }> {
  return (await (await fetch(`http://127.0.0.1:${port}/__stats`)).json()) as { connections: number; peakOpen: number };
}

/** The load generator's command line for one row of a scenario: wrk, or evenly spaced requests for a fixed rate. */
function loadCommand(url: string, scenario: Scenario, durationS: number): string[] {
  const post = scenario.method === 'POST' ? ['post', postBody] : [];
  if (scenario.rate !== undefined) {
    return [
      process.execPath,
      join(ROOT, 'dist/bench/steady-load.js'),
      url,
      String(scenario.rate),
      String(durationS),
      String(scenario.connections),
      ...post,
    ];
  }
  return [
    'wrk',
    '-t1',
    `-c${scenario.connections}`,
    `-d${durationS}s`,
    '-s',
    join(ROOT, 'bench/wrk-report.lua'),
    url,
    ...(post.length > 0 ? ['--', ...post] : []),
  ];
}

async function runLoad(
  url: string,
  scenario: Scenario,
  durationS: number,
): Promise<
  Omit<
    Measurement,
    'errors' | 'cpuUsPerRequest' | 'rssMb' | 'anonymousMb' | 'newUpstreamSockets' | 'peakUpstreamSockets'
  >
> {
  const r = await runLoadReport(loadCommand(url, scenario, durationS), url);
  const requests = r.requests!;
  return {
    requests,
    rps: Math.round(requests / (r.durationUs! / 1e6)),
    p50Ms: r.p50Us! / 1000,
    p99Ms: r.p99Us! / 1000,
    p999Ms: r.p999Us! / 1000,
    errorKinds: { socket: r.socketErrors!, timeout: r.timeouts!, status: r.non2xx! },
  };
}

/** The key store of `--operations FILE` and the profile it signs with: its only one. */
function operationsKeyStore(file: string): { path: string; profile: string } {
  let profiles: string[];
  try {
    profiles = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { profiles: object }).profiles);
  } catch (error) {
    throw new BenchFailure(`--operations ${file}: not a key store in JSON (${(error as Error).message})`);
  }
  if (profiles.length !== 1) throw new BenchFailure(`--operations ${file}: the key store must hold one profile`);
  return { path: resolve(file), profile: profiles[0]! };
}

/** Every call the scenarios make must be allowed, or the row would measure refusals. */
async function checkAllowed(base: string, file: string): Promise<void> {
  for (const method of ['GET', 'POST'] as const) {
    const answer = await fetch(`${base}${CUSTOMER_PATH}`, { method, body: method === 'POST' ? postBody : undefined });
    await answer.arrayBuffer();
    if (answer.status !== 200)
      throw new BenchFailure(
        `--operations ${file}: ${method} ${CUSTOMER_PATH}, which the scenarios send, is answered ${answer.status}; ` +
          'the key store must allow it',
      );
  }
}

/**
 * What the start-to-ready row launches on each line: a bare Node HTTP server (a CommonJS one-liner, the least
 * a Node server loads), `stack` with its admin listener, and the sidecar as shipped, with the image's compile
 * cache written as the image writes it (same binary, flags and options) when the image has one; then the
 * sidecar without it, as context.
 */
function readyLaunches(
  nodeLines: readonly NodeLine[],
  shipped: ReturnType<typeof shippedSidecarLaunch>,
  nodeEnv: NodeJS.ProcessEnv,
  upstreamPort: number,
  work: string,
): Launch[] {
  const launches: Launch[] = [];
  for (const { line, binary } of nodeLines) {
    let cache: string | null = null;
    if (shipped.compileCacheRun) {
      cache = join(work, `compile-cache-${line}`);
      const run = spawnSync(binary, shipped.compileCacheRun, {
        env: { ...nodeEnv, NODE_COMPILE_CACHE: cache },
        encoding: 'utf8',
      });
      if (run.status !== 0) throw new BenchFailure(`writing the compile cache on Node ${line}: ${run.stderr}`);
    }
    const sidecarEnv =
      (withCache: boolean) =>
      (port: number): NodeJS.ProcessEnv => ({
        ...nodeEnv,
        ...(withCache && cache ? { NODE_COMPILE_CACHE: cache } : {}),
        SFD_UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}`,
        SFD_ACCESS_KEY_ID: 'AKBENCH00000001',
        SFD_ACCESS_KEY_SECRET: 'bench-secret-not-a-real-key',
        SFD_LISTEN: '127.0.0.1:0',
        SFD_ADMIN_LISTEN: `127.0.0.1:${port}`,
      });
    launches.push(
      {
        row: `bare-node@${line}`,
        binary,
        args: (port) => ['-e', `require('http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`],
        env: () => nodeEnv,
        path: '/',
      },
      {
        row: rowOf('stack', line),
        binary,
        args: (port) => [
          ...shipped.nodeFlags,
          join(ROOT, 'dist/bench/stack-proxy.js'),
          '0',
          String(upstreamPort),
          String(port),
        ],
        env: () => nodeEnv,
        path: '/readyz',
      },
      { row: rowOf('sidecar', line), binary, args: () => shipped.args, env: sidecarEnv(true), path: '/readyz' },
      ...(cache
        ? [
            {
              row: `sidecar-uncached@${line}`,
              binary,
              args: () => shipped.args,
              env: sidecarEnv(false),
              path: '/readyz',
            },
          ]
        : []),
    );
  }
  return launches;
}

async function main(): Promise<void> {
  if (!has('wrk')) throw new BenchFailure('wrk is not installed: apt-get install wrk (.ci/run installs it)');
  const useNginx = has('nginx');
  const work = mkdtempSync(join(tmpdir(), 'sfd-bench-'));
  /** Servers that exited while the bench still needed them, as "name exited (cause)". */
  const departures: string[] = [];
  const children = superviseChildren((description) => departures.push(description));
  const stopAll = (): void => children.stopAll('SIGKILL');
  process.on('exit', stopAll);
  const checkRunning = (during: string): void => {
    if (departures.length > 0)
      throw new BenchFailure(`${departures.join('; ')}, noticed at ${during}; the output is kept in ${work}`);
  };

  const upstreamPort = await freePort();
  children.watch(
    'the upstream',
    pinned(1, process.execPath, [join(ROOT, 'dist/bench/bench-upstream.js'), String(upstreamPort)]),
  );
  await waitForPort(upstreamPort);

  // The environment and flags of a Node proxy as shipped: production mode and the Dockerfile's Node
  // options and command-line flags.
  const shipped = shippedSidecarLaunch(ROOT);
  const { nodeFlags } = shipped;
  const shippedNodeEnv = { PATH: process.env.PATH, ...shipped.env };

  let nodeLines: NodeLine[];
  try {
    nodeLines = resolveNodeLines(nodes, process.execPath, quick);
  } catch (error) {
    throw new BenchFailure((error as Error).message);
  }
  const targets: Partial<Record<RowName, { base: string; pid: number | null; admin?: string }>> = {
    direct: { base: `http://127.0.0.1:${upstreamPort}`, pid: null },
  };
  const startSidecar = async (row: RowName, binary: string, keys: NodeJS.ProcessEnv): Promise<void> => {
    const sidecarPort = await freePort();
    const adminPort = await freePort();
    const sidecar = pinned(
      0,
      binary,
      shipped.args,
      {
        ...shippedNodeEnv,
        ...keys,
        SFD_UPSTREAM_URL: `http://127.0.0.1:${upstreamPort}`,
        SFD_LISTEN: `127.0.0.1:${sidecarPort}`,
        SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
        SFD_LOG_LEVEL: 'info',
      },
      join(work, `${row}.log`),
    );
    children.watch(`${row} (the sidecar)`, sidecar);
    await waitForPort(sidecarPort);
    targets[row] = {
      base: `http://127.0.0.1:${sidecarPort}`,
      pid: sidecar.pid!,
      admin: `http://127.0.0.1:${adminPort}`,
    };
  };
  const limited = operations === null ? null : operationsKeyStore(operations);
  for (const { line, binary } of nodeLines) {
    await startSidecar(rowOf('sidecar', line), binary, {
      SFD_ACCESS_KEY_ID: 'AKBENCH00000001',
      SFD_ACCESS_KEY_SECRET: 'bench-secret-not-a-real-key',
    });
    if (limited && line === nodeLines[0]!.line) {
      const row = rowOf('sidecar+operations', line);
      await startSidecar(row, binary, { SFD_KEYSTORE_FILE: limited.path, SFD_PROFILE: limited.profile });
      await checkAllowed(targets[row]!.base, operations!);
    }
    if (!withNodeFloor) continue;
    // The floors run on the same Node under the same Node options as the sidecar, on every line: the
    // requested stack (bench/stack-proxy.ts), which the targets judge against, and plain-node
    // (bench/plain-proxy.ts), the floor of Node's HTTP stack.
    const floors: [NodeProxy, string, string][] = [
      ['stack', 'stack-proxy.js', 'the hono and http-proxy floor'],
      ['plain-node', 'plain-proxy.js', 'the plain-node proxy'],
    ];
    for (const [proxy, script, name] of floors) {
      const port = await freePort();
      // The stack answers the idle row's probes and scrapes on an admin listener of its own.
      const adminPort = proxy === 'stack' ? await freePort() : null;
      const floor = pinned(
        0,
        binary,
        [
          ...nodeFlags,
          join(ROOT, 'dist/bench', script),
          String(port),
          String(upstreamPort),
          ...(adminPort === null ? [] : [String(adminPort)]),
        ],
        shippedNodeEnv,
      );
      children.watch(`${name} on Node ${line}`, floor);
      await waitForPort(port);
      targets[rowOf(proxy, line)] = {
        base: `http://127.0.0.1:${port}`,
        pid: floor.pid!,
        ...(adminPort === null ? {} : { admin: `http://127.0.0.1:${adminPort}` }),
      };
    }
  }
  if (useNginx) {
    const nginxPort = await freePort();
    mkdirSync(join(work, 'nginx'), { recursive: true });
    writeFileSync(
      join(work, 'nginx/nginx.conf'),
      `daemon off; master_process off; worker_processes 1;
error_log ${join(work, 'nginx/error.log')} warn; pid ${join(work, 'nginx/nginx.pid')};
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${join(work, 'nginx')}; proxy_temp_path ${join(work, 'nginx')};
  upstream origin { server 127.0.0.1:${upstreamPort}; keepalive 32; }
  server {
    listen 127.0.0.1:${nginxPort};
    location / { proxy_pass http://origin; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`,
    );
    const nginx = pinned(0, 'nginx', ['-p', join(work, 'nginx'), '-c', join(work, 'nginx/nginx.conf')]);
    children.watch('nginx', nginx);
    await waitForPort(nginxPort);
    targets.nginx = { base: `http://127.0.0.1:${nginxPort}`, pid: nginx.pid! };
  }
  const rows = Object.keys(targets) as RowName[];

  for (const row of rows)
    await runLoad(
      `${targets[row]!.base}${CUSTOMER_PATH}`,
      { name: 'warm-up', method: 'GET', connections: 8 },
      warmupSeconds,
    );

  const results: Rounds = {};
  const outcomes: RoundOutcome[] = [];
  for (const scenario of scenarios) {
    results[scenario.name] = {};
    for (let round = 0; round < (scenario.tail ? tailRounds : rounds); round += 1) {
      for (const row of rows) {
        const target = targets[row]!;
        const where = `${scenario.name}, ${row}, round ${round + 1}`;
        checkRunning(where);
        const cpuBefore = target.pid ? cpuTicks(target.pid) : 0;
        const socketsBefore = (await upstreamStats(upstreamPort)).connections;
        const startedAt = performance.now();
        const load = await runLoad(`${target.base}${scenario.path ?? CUSTOMER_PATH}`, scenario, seconds);
        outcomes.push({
          scenario: scenario.name,
          row,
          round,
          errorKinds: load.errorKinds,
          seconds: (performance.now() - startedAt) / 1000,
          plannedSeconds: seconds,
        });
        checkRunning(where);
        const cpuUs = target.pid ? ((cpuTicks(target.pid) - cpuBefore) * 1e6) / CLK_TCK : 0;
        const sockets = await upstreamStats(upstreamPort);
        const measurement: Measurement = {
          ...load,
          errors: errorCount(load.errorKinds),
          cpuUsPerRequest: target.pid && load.requests > 0 ? Math.round(cpuUs / load.requests) : null,
          rssMb: target.pid ? rssMb(target.pid) : null,
          anonymousMb: target.pid ? anonymousMb(target.pid) : null,
          newUpstreamSockets: row === 'direct' ? null : sockets.connections - socketsBefore,
          peakUpstreamSockets: row === 'direct' ? null : sockets.peakOpen,
        };
        (results[scenario.name]![row] ??= []).push(measurement);
      }
    }
  }

  // Idle: every sidecar and stack (not the operations row, whose key store watcher is its own) at once.
  checkRunning('the idle row');
  const idleRows = rows.filter((row) => targets[row]!.admin !== undefined && !row.startsWith('sidecar+'));
  const idleFigures = await measureIdle(
    idleRows.map((row) => ({ pid: targets[row]!.pid!, admin: targets[row]!.admin! })),
    idleSeconds,
    idleSettleSeconds,
  );
  checkRunning('the idle row');
  const idle: Record<string, IdleMeasurement | null> = Object.fromEntries(
    idleRows.map((row, i) => [row, idleFigures[i]!]),
  );
  stopAll();

  const { rows: ready, failures: readyFailures } = await measureStartToReady(
    readyLaunches(nodeLines, shipped, shippedNodeEnv, upstreamPort, work),
    readyRounds,
  );

  const lineNumbers = nodeLines.map((l) => l.line);
  const summary = summarise(results, rows, lineNumbers);
  const limits = { ...PER_POD_TARGETS, maxUpstreamSockets: DEFAULT_LIMITS.upstreamMaxSockets };
  const targetVerdicts = Object.fromEntries(
    nodeLines.map(({ line }) => [line, checkTargets(results, limits, line, { idle, ready })]),
  );
  const leading = nodeLines[0]!;
  const costOfOperations = operationsCost(results, leading.line);
  const report = {
    date: new Date().toISOString(),
    quick,
    rounds,
    tailRounds,
    secondsPerRun: seconds,
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    nodes: nodeLines.map(({ line, version }) => ({ line, version })),
    benchNode: process.version,
    sidecarNodeOptions: shipped.env.NODE_OPTIONS,
    sidecarNodeFlags: nodeFlags,
    loadGenerator: 'wrk (bench/steady-load for the fixed-rate scenario)',
    nginx: useNginx,
    plainNodeProxy: withNodeFloor,
    scenarios: summary,
    targets: targetVerdicts,
    idle: { seconds: idleSeconds, settleSeconds: idleSettleSeconds, periods: IDLE_LOAD_PERIODS, rows: idle },
    startToReady: { rounds: readyRounds, rows: ready, failures: readyFailures },
    ...(operations === null ? {} : { operations: { keyStore: operations, cost: costOfOperations } }),
    runs: results,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `bench-${report.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(formatReport(report, summary));
  process.stdout.write(formatIdle(idle, idleSeconds));
  process.stdout.write(formatStartToReady(ready));
  for (const { line, version } of nodeLines) process.stdout.write(formatTargets(targetVerdicts[line]!, version, quick));
  process.stdout.write(formatOperationsCost(costOfOperations, leading.version));
  process.stdout.write(`\nWritten to ${file}\n`);
  const errors = Object.values(summary)
    .flatMap((s) => Object.values(s.rows))
    .reduce((sum, m) => sum + (m?.errors ?? 0), 0);
  stopAll();
  const problems = [...roundProblems(outcomes), ...readyFailures.map((failure) => `start to ready, ${failure}`)];
  if (problems.length > 0) process.stderr.write(`\n${problems.map((line) => `bench: ${line}`).join('\n')}\n`);
  if (errors > 0) {
    // The sidecar's log (a few hundred MB after a full run) is kept only when it may explain an error.
    process.stderr.write(
      `bench: ${errors} ${errors === 1 ? 'error' : 'errors'}; the sidecar's log and nginx's error log are ` +
        `kept in ${work}\n`,
    );
    process.exitCode = 1;
  } else {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  const explained = error instanceof BenchFailure;
  process.stderr.write(`bench failed: ${explained ? error.message : ((error as Error).stack ?? String(error))}\n`);
  process.exit(1);
});
