// The settings a command runs with: the merged values, where each came from, and the warnings about
// them (variables that are no setting, unread dotenv lines).
import type { MergedSettings } from '../config/setting-sources.js';
import { SettingReader, type FileReader } from '../config/setting-reader.js';

export interface CommandSettings extends MergedSettings {
  readonly warnings: readonly string[];
}

/** A reader of these settings, whose problems say where each value came from. */
export function readerOf(settings: CommandSettings, files: FileReader): SettingReader {
  return new SettingReader(settings.values, files, settings.sources);
}
