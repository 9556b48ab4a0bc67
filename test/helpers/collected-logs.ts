// Log lines wrapped as a log collector on the node writes them (test/fixtures/collected-logs): each record
// is one of the collector's own, filled in with the line a container printed and who printed it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './tools.js';

export const COLLECTORS = ['fluent-bit', 'vector', 'filebeat'] as const;
export type Collector = (typeof COLLECTORS)[number];

export interface Writer {
  readonly container: string;
  readonly namespace: string;
  readonly pod?: string;
  readonly image?: string;
}

const FIXTURES = join(REPO_ROOT, 'test/fixtures/collected-logs');
const template = (collector: Collector): unknown =>
  JSON.parse(readFileSync(join(FIXTURES, `${collector}.json`), 'utf8')) as unknown;

/** One record of the collector: the line, and the writer in the collector's own fields. */
export function collected(collector: Collector, line: string, writer: Writer): string {
  const values: Record<string, string> = {
    LINE: line,
    CONTAINER: writer.container,
    NAMESPACE: writer.namespace,
    POD: writer.pod ?? 'checkout-5c6b7d8f9-abcde',
    IMAGE: writer.image ?? 'example/checkout:1',
  };
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(/\{\{([A-Z]+)\}\}/g, (_, name: string) => values[name]!);
    if (Array.isArray(value)) return value.map(fill);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, fill(member)]));
    return value;
  };
  return JSON.stringify(fill(template(collector)));
}

/** Every non-empty line of a log, each wrapped by the collector as the writer's. */
export function collectedLines(collector: Collector, log: string, writer: Writer): string[] {
  return log
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => collected(collector, line, writer));
}
