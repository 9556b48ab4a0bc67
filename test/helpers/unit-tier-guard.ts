// Loaded by the unit tier (ava.unit.config.js) before each of its test files: a test that runs a
// program or opens a socket fails at that call, naming it, whatever code it reaches the call through.
// test/unit/unit-tier-stays-pure.test.ts sees imports only, and in both tiers; this sees every call.
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const PROGRAM_RUNNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;

function refusal(call: string): () => never {
  return () => {
    throw new Error(
      `${call} in the unit tier: a test that runs a program or opens a socket belongs outside test/unit ` +
        '(docs/testing.md)',
    );
  };
}

export default function guardUnitTier(): void {
  const runners = childProcess as unknown as Record<string, unknown>;
  for (const name of PROGRAM_RUNNERS) runners[name] = refusal(`child_process.${name}`);
  net.Server.prototype.listen = refusal('listening on a socket');
  net.Socket.prototype.connect = refusal('connecting a socket');
  (dgram as { createSocket: unknown }).createSocket = refusal('dgram.createSocket');
  // ES modules see a built-in's named exports as they were until told they changed.
  syncBuiltinESMExports();
}
