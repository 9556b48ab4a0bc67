// `npm run bench:injector [-- --reviews N --concurrency C]`: the injector as shipped (its own process,
// the image's Node options) answering AdmissionReviews of a Pod that asks for the sidecar, C at once
// over kept-alive HTTPS connections. Prints one line (reviews/s, latency percentiles, the injector's
// RSS) and writes it to bench/results/injector-reviews-*.json. Not part of `npm test`.
import https from 'node:https';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startShippedInjectorChild, superviseChildren } from './child-supervisor.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const argument = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const reviews = argument('--reviews', 5000);
const concurrency = argument('--concurrency', 32);

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (value: number): number => Math.round(value * 100) / 100;

/** A review of a Pod that asks for the sidecar, as the API server sends it. */
function review(index: number): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      kind: { group: '', version: 'v1', kind: 'Pod' },
      namespace: 'shop',
      operation: 'CREATE',
      object: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { generateName: 'web-', labels: { app: 'web' }, annotations: { 'sfd-sidecar.io/inject': 'true' } },
        spec: { containers: [{ name: 'web', image: 'example/web:4', ports: [{ containerPort: 8080 }] }] },
      },
    },
  });
}

async function main(): Promise<void> {
  const children = superviseChildren((description) => {
    process.stderr.write(`bench:injector failed: ${description}\n`);
    process.exit(1);
  });
  process.on('exit', () => children.stopAll('SIGKILL'));
  const { child: injector, port, ca } = await startShippedInjectorChild(children, ROOT);
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets: concurrency,
    ca,
    servername: 'localhost',
  });
  const post = (body: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const request = https.request(
        {
          host: '127.0.0.1',
          port,
          path: '/mutate',
          method: 'POST',
          agent,
          headers: { 'Content-Type': 'application/json' },
        },
        (response) => {
          response.resume();
          response.on('end', () =>
            response.statusCode === 200
              ? resolve(performance.now() - started)
              : reject(new Error(`status ${response.statusCode}`)),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  // At rest (started, nothing asked yet), then a warm-up, then the measured run.
  const atRestMb = rssMb(injector.pid!);
  for (let i = 0; i < 200; i += 1) await post(review(i));
  const latencies: number[] = [];
  let next = 0;
  let peakMb = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < reviews) {
        const index = next;
        next += 1;
        latencies.push(await post(review(index)));
        if (index % 500 === 0) peakMb = Math.max(peakMb, rssMb(injector.pid!));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  children.stopAll('SIGTERM');
  const sorted = latencies.sort((a, b) => a - b);
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    reviews,
    concurrency,
    reviewsPerSecond: Math.round(reviews / seconds),
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? 0),
    atRestRssMb: round(atRestMb),
    peakRssMb: round(peakMb),
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `injector-reviews-${result.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `injector: ${reviews} reviews at concurrency ${concurrency}: ${result.reviewsPerSecond} reviews/s, p50 ` +
      `${result.p50Ms} ms, p99 ${result.p99Ms} ms, max ${result.maxMs} ms, RSS ${result.atRestRssMb} MB at rest, ` +
      `at most ${result.peakRssMb} MB ` +
      `(${file})\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:injector failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
