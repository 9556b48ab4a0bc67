// A command's help leads with the settings most used, then the rest by subject, and lists each of its
// settings once: the groups hold every setting exactly once.
import test from 'ava';
import { commandHelp } from '../../../src/cli/help.js';
import { COMMANDS } from '../../../src/cli/commands.js';
import { SETTING_GROUPS } from '../../../src/settings/setting-groups.js';
import { SETTING_LIST, SETTINGS } from '../../../src/settings/all-settings.js';
import { isReadBy } from '../../../src/config/setting-definition.js';

const listedIn = (help: string): string[] =>
  [...help.matchAll(/^ {2}--[a-z0-9-]+, (SFD_[A-Z0-9_]+)$/gm)].map((m) => m[1]!);

test('every setting is in exactly one group', (t) => {
  const grouped = SETTING_GROUPS.flatMap((group) => group.keys.map((key) => SETTINGS[key].env as string));
  t.deepEqual([...grouped].sort(), SETTING_LIST.map((setting) => setting.env as string).sort());
});

test('serve and doctor help lead with the most used settings, the key and the gateway first', (t) => {
  for (const name of ['serve', 'doctor']) {
    const help = commandHelp(COMMANDS.find((command) => command.name === name)!);
    const settings = listedIn(help);
    t.deepEqual(settings.slice(0, 3), ['SFD_UPSTREAM_URL', 'SFD_KEYSTORE_FILE', 'SFD_ACCESS_KEY_ID'], name);
    t.true(help.indexOf('Most used:') < help.indexOf('Callers and limits:'), name);
  }
});

test('each command lists exactly the settings it reads, each once', (t) => {
  for (const command of COMMANDS) {
    const reads = SETTING_LIST.filter((s) => isReadBy(s, command.name)).map((s) => s.env as string);
    t.deepEqual(listedIn(commandHelp(command)).sort(), reads.sort(), command.name);
  }
});
