// prom-client's classes and its default collectors, each required from its own file: the package's
// entry also loads its push gateway client, its cluster aggregator and summaries, which the sidecar never
// uses, and its default metrics come only all together, with an event loop monitor that wakes the process
// every 10 ms (event-loop-delay.ts replaces it). The one module that reaches into the package's files; a
// change of those files shows in the tests that pin the metric families.
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';

const require = createRequire(import.meta.url);
const part = <T>(file: string): T => require(`prom-client/lib/${file}`) as T;

export const Registry = part<typeof PromClient.Registry>('registry');
export type Registry<T extends PromClient.RegistryContentType = PromClient.PrometheusContentType> =
  PromClient.Registry<T>;
export const Counter = part<typeof PromClient.Counter>('counter');
export type Counter<T extends string = string> = PromClient.Counter<T>;
export const Gauge = part<typeof PromClient.Gauge>('gauge');
export type Gauge<T extends string = string> = PromClient.Gauge<T>;
export const Histogram = part<typeof PromClient.Histogram>('histogram');
export type Histogram<T extends string = string> = PromClient.Histogram<T>;

/** One of prom-client's default collectors: registers its families, with names under `prefix`. */
export type ProcessCollector = (registry: PromClient.Registry, config: { readonly prefix: string }) => void;

/** prom-client's default collectors in its order, but for the event loop monitor (event-loop-delay.ts). */
export const PROCESS_COLLECTORS: readonly ProcessCollector[] = [
  'metrics/processCpuTotal',
  'metrics/processStartTime',
  'metrics/osMemoryHeap',
  'metrics/processOpenFileDescriptors',
  'metrics/processMaxFileDescriptors',
  'metrics/processResources',
  'metrics/processHandles',
  'metrics/processRequests',
  'metrics/heapSizeAndUsed',
  'metrics/heapSpacesSizeAndUsed',
  'metrics/version',
  'metrics/gc',
].map((file) => part<ProcessCollector>(file));
