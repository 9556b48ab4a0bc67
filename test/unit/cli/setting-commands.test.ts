// The settings name the commands that read them by their names in the command table; a setting every
// command reads lists the table's every command.
import test from 'ava';
import { commandsReading } from '../../../src/cli/commands-reading.js';
import { COMMAND_NAMES } from '../../../src/cli/commands.js';
import { SETTING_LIST, SETTINGS } from '../../../src/settings/all-settings.js';
import { isReadBy } from '../../../src/config/setting-definition.js';

test('every command a setting names is a command of the table', (t) => {
  const known = new Set<string>(COMMAND_NAMES);
  for (const setting of SETTING_LIST) {
    for (const command of commandsReading(setting)) t.true(known.has(command), `${setting.env}: ${command}`);
  }
});

test('a setting every command reads lists every command of the table, in its order', (t) => {
  t.deepEqual(commandsReading(SETTINGS.envFile), COMMAND_NAMES);
  for (const command of COMMAND_NAMES) t.true(isReadBy(SETTINGS.envFile, command), command);
});
