// The event loop's delay, as prom-client's default metrics name it (`nodejs_eventloop_lag_*`), sampled
// only while there is work. Node's monitor samples with a timer of its own, which wakes the process every
// `SAMPLE_MS` whether or not anything happens: in an idle pod that timer was nearly all the process did.
// Here the monitor runs from the first request after an idle spell until a spell of `IDLE_SPELL_MS` passes
// without one, so an idle sidecar is never woken for it. The lag gauge itself is measured at each scrape, as
// prom-client measures it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import { Gauge } from './prom-client-parts.js';

const SAMPLE_MS = 10;
const IDLE_SPELL_MS = 10_000;
const SPELL_S = IDLE_SPELL_MS / 1000;

export interface EventLoopDelay {
  /** A request came: sampling starts, or goes on for another spell. */
  noteRequest(): void;
  /** Stops sampling (the process is stopping). */
  stop(): void;
}

/** How the monitor is driven: by requests (`noteRequest`), or all the time (a process with few, slow requests). */
export type SamplingMode = 'while-requests-come' | 'always';

const SAMPLED = {
  'while-requests-come': `sampled every ${SAMPLE_MS} ms from a request until ${SPELL_S} s pass without one`,
  always: `sampled every ${SAMPLE_MS} ms`,
} as const;

const STATISTICS = [
  ['min', 'The minimum', (h) => h.min],
  ['max', 'The maximum', (h) => h.max],
  ['mean', 'The mean', (h) => h.mean],
  ['stddev', 'The standard deviation', (h) => h.stddev],
  ['p50', 'The 50th percentile', (h) => h.percentile(50)],
  ['p90', 'The 90th percentile', (h) => h.percentile(90)],
  ['p99', 'The 99th percentile', (h) => h.percentile(99)],
] as const satisfies readonly (readonly [string, string, (h: Histogram) => number])[];

type Histogram = ReturnType<typeof monitorEventLoopDelay>;

export function createEventLoopDelay(registry: Registry, prefix: string, mode: SamplingMode): EventLoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  let sampling = false;
  let requests = 0;
  let requestsAtCheck = 0;
  let check: NodeJS.Timeout | undefined;

  const start = (): void => {
    sampling = true;
    histogram.enable();
    if (mode === 'always') return;
    requestsAtCheck = requests;
    check = setInterval(() => {
      if (requests === requestsAtCheck) stop();
      requestsAtCheck = requests;
    }, IDLE_SPELL_MS);
    check.unref();
  };
  const stop = (): void => {
    sampling = false;
    histogram.disable();
    clearInterval(check);
  };
  if (mode === 'always') start();

  // Registered first: the registry reads families in order, and this one's collect sets the others.
  const gauges: (readonly [InstanceType<typeof Gauge>, (h: Histogram) => number])[] = [];
  const lag = new Gauge({
    name: `${prefix}nodejs_eventloop_lag_seconds`,
    help: 'Lag of event loop in seconds, measured at the scrape before this one.',
    registers: [registry],
    collect() {
      const started = performance.now();
      setImmediate(() => lag.set((performance.now() - started) / 1000));
      const sampled = histogram.count > 0;
      for (const [gauge, read] of gauges) gauge.set(sampled ? read(histogram) / 1e9 : 0);
      histogram.reset();
    },
  });

  gauges.push(
    ...STATISTICS.map(
      ([suffix, what, read]) =>
        [
          new Gauge({
            name: `${prefix}nodejs_eventloop_lag_${suffix}_seconds`,
            help: `${what} of the event loop delays ${SAMPLED[mode]}, since the last scrape; 0 when none was sampled.`,
            registers: [registry],
          }),
          read,
        ] as const,
    ),
  );
  return {
    noteRequest() {
      requests += 1;
      if (!sampling) start();
    },
    stop,
  };
}
