// The load generator of the bench's fixed-rate scenario: an open loop that sends requests on a fixed
// schedule, one every 1/rate s, whether or not earlier ones have been answered, and measures each
// latency from the moment its request was issued, its wait for a free connection included (a stalled
// server is not hidden by sending less).
// Written here because the load generators at hand do not space requests evenly: autocannon's `-R` is a quota
// per connection that resets every second (each connection sends its share back to back, then waits
// for the next second), h2load's `--rps` timers of all clients fire together, and wrk has no rate.
// Usage: node dist/bench/steady-load.js URL RATE SECONDS MAX_CONNECTIONS [post BODY]
// Prints one JSON line in the shape of bench/wrk-report.lua.
import http from 'node:http';
import { fileURLToPath } from 'node:url';

export interface SteadyLoadOptions {
  readonly url: string;
  /** Requests per second. */
  readonly rate: number;
  readonly seconds: number;
  /** Keep-alive connections at most; a request due while all are busy waits (and its wait counts). */
  readonly maxConnections: number;
  /** A JSON body to POST; GET without one. */
  readonly postBody?: string;
  /** A request unanswered this long after it was sent is a timeout. */
  readonly timeoutMs?: number;
}

export interface LoadReport {
  /** Requests answered, whatever their status. */
  readonly requests: number;
  readonly durationUs: number;
  readonly socketErrors: number;
  readonly timeouts: number;
  /** Answers with a status above 399 (as wrk counts them). */
  readonly non2xx: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly p999Us: number;
}

export function runSteadyLoad(options: SteadyLoadOptions): Promise<LoadReport> {
  const total = Math.round(options.rate * options.seconds);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxConnections });
  const latenciesUs = new Float64Array(total);
  const body = options.postBody === undefined ? undefined : Buffer.from(options.postBody);
  const headers = body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': body.length };
  let answered = 0;
  let socketErrors = 0;
  let timeouts = 0;
  let non2xx = 0;
  let sent = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const settle = (): void => {
      if (answered + socketErrors + timeouts < total) return;
      agent.destroy();
      const latencies = latenciesUs.subarray(0, answered).sort();
      const percentile = (p: number): number =>
        Math.round(latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)] ?? 0);
      resolve({
        requests: answered,
        durationUs: Math.round((performance.now() - start) * 1000),
        socketErrors,
        timeouts,
        non2xx,
        p50Us: percentile(50),
        p99Us: percentile(99),
        p999Us: percentile(99.9),
      });
    };

    if (total === 0) return settle();

    const send = (): void => {
      const issuedAt = performance.now();
      let finished = false;
      let timedOut = false;
      /** Counts the request once, however many events its end raises. */
      const finish = (outcome: 'answered' | 'failed', status = 0): void => {
        if (finished) return;
        finished = true;
        if (outcome === 'answered') {
          latenciesUs[answered] = (performance.now() - issuedAt) * 1000;
          answered += 1;
          if (status > 399) non2xx += 1;
        } else if (timedOut) timeouts += 1;
        else socketErrors += 1;
        settle();
      };
      const request = http.request(
        options.url,
        { agent, method: body === undefined ? 'GET' : 'POST', headers },
        (response) => {
          response.resume();
          response.on('end', () => finish('answered', response.statusCode));
          response.on('error', () => finish('failed'));
        },
      );
      request.setTimeout(options.timeoutMs ?? 10_000, () => {
        timedOut = true;
        request.destroy();
      });
      request.on('error', () => finish('failed'));
      request.end(body);
    };

    // Every millisecond (Node's finest timer), send every request that has fallen due since the last tick.
    const tick = (): void => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * options.rate) / 1000) + 1);
      while (sent < due) {
        send();
        sent += 1;
      }
      if (sent >= total) clearInterval(timer);
    };
    const timer = setInterval(tick, 1);
    tick();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [url, rate, seconds, maxConnections, mode, postBody] = process.argv.slice(2);
  const numbers = [rate, seconds, maxConnections].map(Number);
  if (url === undefined || !numbers.every((n) => Number.isFinite(n) && n > 0)) {
    process.stderr.write(
      'usage: steady-load.js URL RATE SECONDS MAX_CONNECTIONS [post BODY] (RATE, SECONDS and MAX_CONNECTIONS ' +
        'positive)\n',
    );
    process.exit(2);
  }
  const report = await runSteadyLoad({
    url,
    rate: numbers[0]!,
    seconds: numbers[1]!,
    maxConnections: numbers[2]!,
    postBody: mode === 'post' ? postBody : undefined,
  });
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
