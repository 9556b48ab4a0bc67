// `npm run bench:injector-attack`: the injector as shipped (its own process, the image's Node options)
// under hostile callers: callers that send a 3 MiB review and never read the answer, callers that send
// half of a 3 MiB body and stop, and callers with the largest pod accepted who never read the answer.
// Samples the injector's resident memory throughout and checks it answers a normal review after each
// wave. Prints one line and writes it to bench/results/injector-attack-*.json.
// Sends only to 127.0.0.1; every wave is bounded in count and time. Not part of `npm test`.
import https from 'node:https';
import tls from 'node:tls';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { parseQuantity } from '../src/config/quantity.js';
import { admissionReviewOf } from '../test/helpers/admission-review.js';
import { startShippedInjectorChild, superviseChildren } from './child-supervisor.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MiB = 1024 * 1024;
/** The chart's memory limit for the injector, as its values give it. */
const CHART_LIMIT_MIB = (() => {
  const values = parse(readFileSync(join(ROOT, 'helm/sfd-sidecar/values.yaml'), 'utf8')) as {
    resources: { limits: { memory: string } };
  };
  const bytes = parseQuantity(values.resources.limits.memory);
  if (bytes === null) throw new Error('helm/sfd-sidecar/values.yaml: resources.limits.memory is not a quantity');
  return bytes / MiB;
})();

const rssMb = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const padded = admissionReviewOf({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    generateName: 'web-',
    labels: { 'sfd-sidecar.io/inject': 'true' },
    annotations: { n: 'x'.repeat(3 * MiB - 4096) },
  },
  spec: { containers: [{ name: 'web', image: 'example/web:4' }] },
});
const wide = admissionReviewOf({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'wide-', labels: { 'sfd-sidecar.io/inject': 'true' } },
  spec: { containers: Array.from({ length: 1000 }, (_, i) => ({ name: `c${i}`.padEnd(63, 'x'), image: 'a' })) },
});
const normal = admissionReviewOf({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { generateName: 'ok-', labels: { 'sfd-sidecar.io/inject': 'true' } },
  spec: { containers: [{ name: 'web', image: 'example/web:4' }] },
});

async function main(): Promise<void> {
  const children = superviseChildren((description) => {
    process.stderr.write(`bench:injector-attack failed: ${description}\n`);
    process.exit(1);
  });
  process.on('exit', () => children.stopAll('SIGKILL'));
  const { child: injector, port, ca } = await startShippedInjectorChild(children, ROOT);
  const pid = injector.pid!;
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const sockets: tls.TLSSocket[] = [];
  const open = (body: string, send: number, path = '/mutate'): void => {
    const socket = tls.connect({ host: '127.0.0.1', servername: 'localhost', port, ca });
    socket.on('error', () => undefined);
    socket.pause();
    const length = Buffer.byteLength(body);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` + `Content-Length: ${length}\r\n\r\n`;
    socket.write(head + body.slice(0, send));
    sockets.push(socket);
  };
  const answered = (): Promise<number> =>
    new Promise((resolve) => {
      const request = https.request(
        {
          host: '127.0.0.1',
          servername: 'localhost',
          port,
          path: '/mutate',
          method: 'POST',
          ca,
          agent: false,
          timeout: 30_000,
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', () => resolve(0));
      request.end(normal);
    });
  const waves = [
    {
      name: '12 callers send a 3 MiB review and never read',
      run: () => Array.from({ length: 12 }, () => open(padded, padded.length)),
    },
    {
      name: '60 callers send half of a 3 MiB body',
      run: () => Array.from({ length: 60 }, () => open(padded, padded.length / 2)),
    },
    {
      name: '12 callers with the largest pod accepted (1,000 containers) never read the answer',
      run: () => Array.from({ length: 12 }, () => open(wide, wide.length)),
    },
  ];
  const results: { wave: string; peakRssMib: number; normalReviewStatus: number }[] = [];
  for (const wave of waves) {
    peak = rssMb(pid);
    wave.run();
    await sleep(5000);
    const status = await answered();
    results.push({ wave: wave.name, peakRssMib: Math.round(peak * 10) / 10, normalReviewStatus: status });
    for (const socket of sockets.splice(0)) socket.destroy();
    await sleep(1000);
  }
  clearInterval(sampler);
  const worst = Math.max(...results.map((r) => r.peakRssMib));
  const summary = {
    node: process.version,
    chartLimitMib: CHART_LIMIT_MIB,
    withinLimit: worst < CHART_LIMIT_MIB,
    waves: results,
  };
  for (const r of results)
    process.stdout.write(`${r.wave}: peak RSS ${r.peakRssMib} MiB; a normal review then got ${r.normalReviewStatus}\n`);
  process.stdout.write(`worst ${worst} MiB against the chart's ${CHART_LIMIT_MIB} MiB limit\n`);
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `injector-attack-${new Date().toISOString().replaceAll(':', '-')}.json`),
    JSON.stringify(summary, null, 2),
  );
  children.stopAll('SIGTERM');
  process.exit(summary.withinLimit ? 0 : 1);
}

await main();
