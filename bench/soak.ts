// `npm run soak [-- --seconds N]`: sustained concurrent traffic through the sidecar as shipped to the
// emulator (separate processes), reporting every 5 s throughput, latency percentiles, errors and the
// sidecar's RSS. Fails when any request failed or RSS grew 10% or more after the warm-up. Not part of
// `npm test`; CI runs a short version.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startEmulatorChild, startShippedSidecarChild, superviseChildren } from './child-supervisor.js';
import { freePort } from './net-utils.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const secondsArg = process.argv.indexOf('--seconds');
const seconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 300;
const concurrency = 16;
const intervalMs = 5000;
const warmupMs = Math.min(60_000, (seconds * 1000) / 2);

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const soakStarted = Date.now();
  // A server gone mid-run ends the soak with one line (reading its RSS would fail without saying why).
  const children = superviseChildren((description) => {
    process.stderr.write(
      `soak failed: ${description} ${Math.round((Date.now() - soakStarted) / 1000)} s into the run\n`,
    );
    process.exit(1);
  });
  process.on('exit', () => children.stopAll('SIGKILL'));
  const emulatorPort = await startEmulatorChild(children, ROOT);
  const port = await freePort();
  const sidecar = await startShippedSidecarChild(children, ROOT, emulatorPort, {
    signingPort: port,
    adminListen: '127.0.0.1:0',
  });

  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const paths = [
    '/v1.1/customer/12345',
    '/v1.2/customerChildren/12345?page=1&size=10',
    '/cdn/v1.0/services/1001/rateLimit',
  ];
  let latencies: number[] = [];
  let errors = 0;
  let totalErrors = 0;
  let total = 0;
  let running = true;
  const one = (path: string): Promise<void> =>
    new Promise((resolve) => {
      const started = performance.now();
      const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - started);
          if (response.statusCode !== 200) errors += 1;
          total += 1;
          resolve();
        });
      });
      request.on('error', () => {
        errors += 1;
        total += 1;
        resolve();
      });
    });
  const loops = Array.from({ length: concurrency }, async (_, i) => {
    for (let n = i; running; n += 1) await one(paths[n % paths.length]!);
  });

  const started = Date.now();
  // RSS is sampled every 250 ms: garbage collection makes it saw up and down, so the verdict uses means
  // over many samples rather than a few points.
  const rssSamples: { atMs: number; mb: number }[] = [];
  const rssTimer = setInterval(() => rssSamples.push({ atMs: Date.now() - started, mb: rssMb(sidecar.pid!) }), 250);
  const samples: { atS: number; rps: number; p50: number; p99: number; errors: number; rssMb: number }[] = [];
  process.stdout.write(
    `soak: ${seconds} s, concurrency ${concurrency}, sidecar pid ${sidecar.pid}\n| t s | req/s | p50 ms | ` +
      `p99 ms | errors | RSS MB |\n|---|---|---|---|---|---|\n`,
  );
  while (Date.now() - started < seconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const sorted = latencies.sort((a, b) => a - b);
    const sample = {
      atS: Math.round((Date.now() - started) / 1000),
      rps: Math.round(sorted.length / (intervalMs / 1000)),
      p50: Math.round(percentile(sorted, 50) * 100) / 100,
      p99: Math.round(percentile(sorted, 99) * 100) / 100,
      errors,
      rssMb: Math.round(rssMb(sidecar.pid!) * 10) / 10,
    };
    samples.push(sample);
    totalErrors += errors;
    latencies = [];
    errors = 0;
    process.stdout.write(
      `| ${sample.atS} | ${sample.rps} | ${sample.p50} | ${sample.p99} | ${sample.errors} | ${sample.rssMb} |\n`,
    );
  }
  running = false;
  clearInterval(rssTimer);
  await Promise.all(loops);
  agent.destroy();
  children.stopAll('SIGTERM');

  // Growth compares the mean RSS of the first and the second half of the samples after the warm-up.
  const afterWarmup = rssSamples.filter((s) => s.atMs >= warmupMs);
  const mean = (list: typeof rssSamples): number => list.reduce((sum, s) => sum + s.mb, 0) / Math.max(1, list.length);
  const half = Math.max(1, Math.floor(afterWarmup.length / 2));
  const baseline = Math.round(mean(afterWarmup.slice(0, half)) * 10) / 10;
  const final = Math.round(mean(afterWarmup.slice(half).length > 0 ? afterWarmup.slice(half) : afterWarmup) * 10) / 10;
  const growth = (final - baseline) / baseline;
  process.stdout.write(
    `\n${total} requests, ${totalErrors} errors; mean RSS after warm-up ${baseline} MB in the first half, ` +
      `${final} MB in the second (${(growth * 100).toFixed(1)}% growth)\n`,
  );
  if (totalErrors > 0 || growth >= 0.1) {
    process.stderr.write(
      `soak failed: ${totalErrors > 0 ? `${totalErrors} errors` : ''}${growth >= 0.1 ? ' RSS grew 10% or more' : ''}\n`,
    );
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`soak failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
