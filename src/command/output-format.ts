// `-o json|yaml` (kubectl's spelling) for the commands that print objects: one document of the stable
// shape docs/command-line.md describes, on stdout, with the exit code the text output has. `--json`
// stays the same as `-o json`.
import { ConfigError } from '../config/config-error.js';

export const OUTPUT_FORMATS = ['json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The format asked for (`-o`, or `--json`), or null for text; a format not known is a usage error. */
export function outputFormatOf(options: Readonly<Record<string, unknown>>): OutputFormat | null {
  const asked = options.output;
  if (asked === undefined) return options.json === true ? 'json' : null;
  if (OUTPUT_FORMATS.includes(asked as OutputFormat)) {
    if (options.json === true && asked !== 'json')
      throw new ConfigError([`--json and -o ${asked as string}: give one of them`]);
    return asked as OutputFormat;
  }
  throw new ConfigError([`-o ${JSON.stringify(asked)}: must be ${OUTPUT_FORMATS.join(' or ')}`]);
}
