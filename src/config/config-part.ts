// A feature's own settings, read by the configuration loader beside the core's without the loader
// knowing the feature: the caller names the parts, and every problem, a part's and the core's, is
// reported at once.
import type { Limits } from './limits-config.js';
import type { ListenAddress } from './parsers.js';
import type { SettingDefinition } from './setting-definition.js';
import type { SettingReader } from './setting-reader.js';

/** A listener of the process: its setting, for the message, and its address. */
export type ConfiguredListener = readonly [SettingDefinition<ListenAddress>, ListenAddress];

export interface ConfigPart<T> {
  /** Reads the part's settings; a problem goes to the reader, never thrown, so that all are reported. */
  read(r: SettingReader, core: { readonly limits: Limits }): T;
  /** The listeners the part opens, checked with the core's for a port two of them would share. */
  listeners(value: T): readonly ConfiguredListener[];
}

/** The parts a command loads, by the name its configuration carries each under. */
export type ConfigParts<P> = { readonly [K in keyof P]: ConfigPart<P[K]> };

/** Reads every part, in the order given; returns their values by name and the listeners they open. */
export function readConfigParts<P extends object>(
  r: SettingReader,
  parts: ConfigParts<P>,
  core: { readonly limits: Limits },
): { values: P; listeners: ConfiguredListener[] } {
  const values: Record<string, unknown> = {};
  const listeners: ConfiguredListener[] = [];
  for (const [name, part] of Object.entries<ConfigPart<unknown>>(parts as Record<string, ConfigPart<unknown>>)) {
    const value = part.read(r, core);
    values[name] = value;
    listeners.push(...part.listeners(value));
  }
  return { values: values as P, listeners };
}
