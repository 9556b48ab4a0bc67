// Help text: the commands, and each command's usage, own options and the settings it reads, each with
// what it may be and its default, in plain text that fits 100 columns.
import type { CommandDescription } from './command-definition.js';
import { COMMANDS } from './commands.js';
import { defaultTextOf, flagFor, isReadBy, type SettingDefinition } from '../config/setting-definition.js';
import { SETTINGS } from '../settings/all-settings.js';
import { SETTING_GROUPS } from '../settings/setting-groups.js';
import { wrapWords } from '../text/wrap-words.js';

const WIDTH = 100;
const INDENT = 4;

/** Words wrapped to the width, every line indented. */
const wrap = (text: string, indent: number, width = WIDTH): string[] => wrapWords(text, indent, width);

/** A term on its own line, then its description wrapped under it. */
function entry(term: string, description: string): string[] {
  return [`  ${term}`, ...wrap(description, INDENT)];
}

function settingEntry(setting: SettingDefinition): string[] {
  const fallback = defaultTextOf(setting);
  // A default that is a plain word but not one of the listed values is quoted, so that a profile
  // named default reads `default "default"`.
  const listed = setting.allowed.split(/,\s*|\s+or\s+/).includes(fallback ?? '');
  const shown = fallback !== undefined && !listed && /^[a-z]+$/i.test(fallback) ? `"${fallback}"` : fallback;
  const facts = [`${setting.allowed}`, shown === undefined ? 'no default' : `default ${shown}`];
  return entry(`${flagFor(setting.env)}, ${setting.env}`, `${setting.description}. Allowed: ${facts.join('; ')}.`);
}

export function mainHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `sfd-sidecar ${version}: an outbound signing proxy for the SFD API, run as a Kubernetes sidecar.`,
    '',
    'Usage: sfd-sidecar [COMMAND] [options] [settings]',
    '',
    'Commands (serve when none is given):',
    ...COMMANDS.flatMap((c) =>
      wrap(c.summary, width + 5).map((line, i) => (i === 0 ? `  ${c.name.padEnd(width)}   ${line.trimStart()}` : line)),
    ),
    '',
    'Every setting is an environment variable SFD_X_Y, a flag --x-y, or a line of the dotenv file; flags',
    'win over the environment, which wins over the dotenv file.',
    '',
    "sfd-sidecar COMMAND --help   the command's options and the settings it reads",
    'sfd-sidecar --version        the version',
    '',
  ].join('\n');
}

/** The usage line, wrapped under its own start when it is longer than the width. */
function usageLines(command: CommandDescription): string[] {
  const prefix = `Usage: sfd-sidecar ${command.name} `;
  // An option in brackets, or a quoted value, stays whole on one line.
  const parts = command.usage.match(/\[[^\]]*\](?:\.\.\.)?|"[^"]*"|\S+/g) ?? [];
  const lines = [prefix.trimEnd()];
  for (const part of parts) {
    const last = lines.length - 1;
    if (lines[last]!.length + 1 + part.length > WIDTH) lines.push(`${' '.repeat(prefix.length - 1)} ${part}`);
    else lines[last] = `${lines[last]} ${part}`;
  }
  return lines;
}

/** The settings a command reads, most used first, then by subject, each group under its title. */
function settingSections(command: CommandDescription): string[] {
  return SETTING_GROUPS.flatMap((group) => {
    const settings = group.keys
      .map((key): SettingDefinition => SETTINGS[key])
      .filter((setting) => isReadBy(setting, command.name));
    return settings.length === 0 ? [] : ['', `${group.title}:`, ...settings.flatMap(settingEntry)];
  });
}

export function commandHelp(command: CommandDescription): string {
  const sections = settingSections(command);
  return [
    ...usageLines(command),
    '',
    ...wrap(`${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`, 0),
    ...(command.options.length > 0
      ? [
          '',
          'Options:',
          ...command.options.flatMap((o) =>
            entry(`${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`, o.description),
          ),
        ]
      : []),
    ...(sections.length > 0 ? ['', 'Settings (flag, environment variable):', ...sections] : []),
    '',
    'Examples:',
    ...command.examples.flatMap(([line, what]) => [`  # ${what}`, ...shellLines(line)]),
    '',
  ].join('\n');
}

/** A command line within the width: broken between words, each line but the last ending in ` \\`. */
function shellLines(line: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const indent = lines.length === 0 ? 2 : 6;
    if (current !== '' && indent + current.length + 1 + word.length + 2 > WIDTH) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  lines.push(current);
  return lines.map(
    (text, index) => `${' '.repeat(index === 0 ? 2 : 6)}${text}${index < lines.length - 1 ? ' \\' : ''}`,
  );
}
