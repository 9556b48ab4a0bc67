// prom-client's classes and its default collectors, each required from its own file: the package's
// entry also loads its push gateway client, its cluster aggregator and summaries, which the sidecar never
// uses, and its default metrics come only all together, with an event loop monitor that wakes the process
// every 10 ms (event-loop-delay.ts replaces it). The one module that reaches into the package's files; a
// change of those files shows in the tests that pin the metric families.
import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';

// Each path written out, so that the dependency checks see which package the sidecar loads.
const require = createRequire(import.meta.url);

export const Registry = require('prom-client/lib/registry') as typeof PromClient.Registry;
export type Registry<T extends PromClient.RegistryContentType = PromClient.PrometheusContentType> =
  PromClient.Registry<T>;
export const Counter = require('prom-client/lib/counter') as typeof PromClient.Counter;
export type Counter<T extends string = string> = PromClient.Counter<T>;
export const Gauge = require('prom-client/lib/gauge') as typeof PromClient.Gauge;
export type Gauge<T extends string = string> = PromClient.Gauge<T>;
export const Histogram = require('prom-client/lib/histogram') as typeof PromClient.Histogram;
export type Histogram<T extends string = string> = PromClient.Histogram<T>;

/** One of prom-client's default collectors: registers its families, with names under `prefix`. */
export type ProcessCollector = (registry: PromClient.Registry, config: { readonly prefix: string }) => void;

/** prom-client's default collectors in its order, but for the event loop monitor (event-loop-delay.ts). */
export const PROCESS_COLLECTORS: readonly ProcessCollector[] = [
  require('prom-client/lib/metrics/processCpuTotal'),
  require('prom-client/lib/metrics/processStartTime'),
  require('prom-client/lib/metrics/osMemoryHeap'),
  require('prom-client/lib/metrics/processOpenFileDescriptors'),
  require('prom-client/lib/metrics/processMaxFileDescriptors'),
  require('prom-client/lib/metrics/processResources'),
  require('prom-client/lib/metrics/processHandles'),
  require('prom-client/lib/metrics/processRequests'),
  require('prom-client/lib/metrics/heapSizeAndUsed'),
  require('prom-client/lib/metrics/heapSpacesSizeAndUsed'),
  require('prom-client/lib/metrics/version'),
  require('prom-client/lib/metrics/gc'),
] as ProcessCollector[];
