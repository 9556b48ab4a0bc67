// The entitlement policy's setting: read by every command that decides an injection.
import { defineSettings, INJECT_COMMANDS, type SettingDefinition } from '../config/setting-definition.js';
import { text } from '../config/setting-kinds.js';

export const POLICY_SETTINGS = defineSettings({
  policyFile: {
    env: 'SFD_POLICY_FILE',
    description:
      'the entitlement policy (YAML): which namespaces and service accounts may use which profiles; a pod ' +
      'outside it is refused; the injector re-reads it when it changes; without one, every profile may be used',
    ...text('a file path'),
    commands: INJECT_COMMANDS,
  } satisfies SettingDefinition<string>,
});
