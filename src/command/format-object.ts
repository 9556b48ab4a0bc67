// The object a command prints with `-o json|yaml`, apart from the choice of format: only the commands
// that print objects load the YAML library, not every command that lists the option.
import { toYaml } from '../text/yaml.js';
import type { OutputFormat } from './output-format.js';

/** The value as one document in the format. */
export function formatObject(value: unknown, format: OutputFormat): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : toYaml(value);
}
