// Help text: the commands, and each command's usage, own options and the settings it reads, each with
// what it may be and its default, in plain text that fits 100 columns.
import { COMMANDS, type CommandDefinition } from './commands.js';
import { SETTING_LIST, defaultTextOf, flagFor, type SettingDefinition } from '../config/settings.js';

const WIDTH = 100;
const INDENT = 4;

/** Words wrapped to the width, every line after the first indented. */
function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`);
}

/** A term on its own line, then its description wrapped under it. */
function entry(term: string, description: string): string[] {
  return [`  ${term}`, ...wrap(description, INDENT)];
}

function settingEntry(setting: SettingDefinition): string[] {
  const fallback = defaultTextOf(setting);
  const facts = [`${setting.allowed}`, fallback === undefined ? 'no default' : `default ${fallback}`];
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
    ...COMMANDS.flatMap((c) => wrap(c.summary, width + 5).map((line, i) => (i === 0 ? `  ${c.name.padEnd(width)}   ${line.trimStart()}` : line))),
    '',
    'Every setting is an environment variable SFD_X_Y, a flag --x-y, or a line of the dotenv file; flags',
    'win over the environment, which wins over the dotenv file.',
    '',
    'sfd-sidecar COMMAND --help   the command\'s options and the settings it reads',
    'sfd-sidecar --version        the version',
    '',
  ].join('\n');
}

export function commandHelp(command: CommandDefinition): string {
  const settings = SETTING_LIST.filter((s) => s.commands.includes(command.name));
  return [
    `Usage: sfd-sidecar ${command.name} ${command.usage}`,
    '',
    ...wrap(`${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`, 0),
    ...(command.options.length > 0 ? ['', 'Options:', ...command.options.flatMap((o) => entry(`--${o.name}${o.value ? ` ${o.value}` : ''}`, o.description))] : []),
    ...(settings.length > 0 ? ['', 'Settings (flag, environment variable):', ...settings.flatMap(settingEntry)] : []),
    '',
  ].join('\n');
}
