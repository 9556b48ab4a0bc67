// The options each command takes besides the settings, kept apart from the commands themselves so
// that parsing the command line does not load every command's modules.
import type { OptionSpec } from './parse-command-line.js';

export const SIGN_OPTIONS: OptionSpec = {
  method: { type: 'string' },
  url: { type: 'string' },
  date: { type: 'string' },
  nonce: { type: 'string' },
  header: { type: 'string', multiple: true },
  body: { type: 'string' },
  'body-file': { type: 'string' },
  json: { type: 'boolean' },
};

export const EMULATOR_OPTIONS: OptionSpec = { listen: { type: 'string' } };

export const KEYS_OPTIONS: OptionSpec = { json: { type: 'boolean' } };

export const NOTIFY_OPTIONS: OptionSpec = {
  url: { type: 'string' },
  status: { type: 'string' },
  'recording-id': { type: 'string' },
  'stream-id': { type: 'string' },
  type: { type: 'string' },
};

export const DOCTOR_OPTIONS: OptionSpec = { json: { type: 'boolean' } };

export const WAIT_READY_OPTIONS: OptionSpec = { 'timeout-ms': { type: 'string' } };
