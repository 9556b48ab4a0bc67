// The commands that read a setting, by their names in the command table, in the order the setting
// gives them; a setting every command reads names every command of the table, in the table's order.
import { EVERY_COMMAND, type SettingDefinition } from '../config/setting-definition.js';
import { COMMAND_NAMES } from './commands.js';

export const commandsReading = (setting: Pick<SettingDefinition, 'commands'>): readonly string[] =>
  setting.commands === EVERY_COMMAND ? COMMAND_NAMES : setting.commands;
