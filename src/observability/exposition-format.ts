// Which exposition a scraper asked for. OpenMetrics alone carries exemplars, and it is served only to a
// scraper whose Accept header names it at least as high as the text format (Prometheus names it first);
// every other scraper (curl, a browser, one that sends no Accept) gets the Prometheus text format.

const OPENMETRICS = 'application/openmetrics-text';
/** The version prom-client writes: a scraper that names only another one is not sent it. */
const OPENMETRICS_VERSION = '1.0.0';
const TEXT_RANGES = new Set(['text/plain', 'text/*', '*/*']);

/** Whether an Accept header prefers OpenMetrics to the Prometheus text format. */
export function prefersOpenMetrics(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  let openMetrics = 0;
  let text = 0;
  for (const range of accept.split(',')) {
    const [mediaType = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    let q = 1;
    let version: string | undefined;
    for (const parameter of parameters) {
      const equals = parameter.indexOf('=');
      if (equals < 0) continue;
      const name = parameter.slice(0, equals).trim();
      const value = parameter
        .slice(equals + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (name === 'q') q = weight(value);
      else if (name === 'version') version = value;
    }
    if (mediaType === OPENMETRICS && (version === undefined || version === OPENMETRICS_VERSION))
      openMetrics = Math.max(openMetrics, q);
    else if (TEXT_RANGES.has(mediaType)) text = Math.max(text, q);
  }
  return openMetrics > 0 && openMetrics >= text;
}

/** A quality value; one that is not a number between 0 and 1 makes its range unacceptable. */
function weight(value: string): number {
  const q = Number(value);
  return value !== '' && q >= 0 && q <= 1 ? q : 0;
}
