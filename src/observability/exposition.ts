// The registry's exposition in the format the scraper negotiated. The Prometheus text format comes from
// the registry itself; OpenMetrics from a registry made for the one scrape over views of the same
// metrics, because an OpenMetrics registry renames each counter family it holds in place (it drops
// `_total`), which would rename the family in every later text scrape, and because the content type of
// a registry shared by concurrent scrapes cannot change with each.
import type { Metric, OpenMetricsContentType } from 'prom-client';
import { Registry } from './prom-client-parts.js';
import { prefersOpenMetrics } from './exposition-format.js';

export interface Exposition {
  readonly body: string;
  readonly contentType: string;
}

/** What the Registry reads of a metric when it formats one. */
interface Formattable {
  name: string;
  readonly help: string;
  readonly type: string;
  readonly aggregator: string;
  get(): Promise<{ name: string }> | { name: string };
  getForPromString?(): Promise<{ name: string }>;
}

export async function exposition(registry: Registry, accept: string | undefined): Promise<Exposition> {
  if (!prefersOpenMetrics(accept)) return { body: await registry.metrics(), contentType: registry.contentType };
  const openMetrics = new Registry<OpenMetricsContentType>();
  openMetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const metric of registry.getMetricsAsArray())
    openMetrics.registerMetric(viewOf(metric as unknown as Formattable));
  return { body: await openMetrics.metrics(), contentType: openMetrics.contentType };
}

/** The metric as the Registry sees it, under a name of the view's own that the Registry may change. */
function viewOf(metric: Formattable): Metric {
  const { help, type, aggregator } = metric;
  const view: Formattable = {
    name: metric.name,
    help,
    type,
    aggregator,
    get: async () => ({ ...(await metric.get()), name: view.name }),
  };
  const forPromString = metric.getForPromString?.bind(metric);
  if (forPromString) view.getForPromString = async () => ({ ...(await forPromString()), name: view.name });
  return view as unknown as Metric;
}
