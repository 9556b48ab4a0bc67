// Parses a key store's text: JSON, or YAML for files named .yaml/.yml. The only module that imports yaml.
// Parser messages quote the source (which may hold a secret), so only a line and column are reported.
import { parse as parseYaml, YAMLParseError } from 'yaml';

export function parseStructuredText(text: string, fileName: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const yaml = /\.ya?ml$/i.test(fileName);
  try {
    return { ok: true, value: yaml ? (parseYaml(text) as unknown) : (JSON.parse(text) as unknown) };
  } catch (error) {
    return { ok: false, problem: `(file): not valid ${yaml ? 'YAML' : 'JSON'}${where(error, text)}` };
  }
}

function where(error: unknown, text: string): string {
  if (error instanceof YAMLParseError && error.linePos) return ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}`;
  const position = /position (\d+)/.exec(String((error as Error).message));
  if (!position) return text.trim() === '' ? ' (the file is empty)' : '';
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  return ` at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}
