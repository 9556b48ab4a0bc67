#!/usr/bin/env node
// Entry point, and the only module that touches process, environment, ports and signals.
import { existsSync, readFileSync } from 'node:fs';
import { runCli } from './cli.js';

const io = {
  env: process.env,
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
  readFile: (path: string) => readFileSync(path, 'utf8'),
  readFileBytes: (path: string) => readFileSync(path),
  readFileIfExists: (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null),
  now: Date.now,
  production: process.env.NODE_ENV === 'production',
};

try {
  const result = await runCli(process.argv.slice(2), io);
  if ('exitCode' in result) {
    process.exitCode = result.exitCode;
  } else {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      io.stderr(`Received ${signal}; finishing in-flight requests.\n`);
      result.service.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          io.stderr(`Shutdown failed: ${(error as Error).message}\n`);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    process.on('SIGHUP', () => result.service.reload?.());
    process.once('exit', () => result.service.flushLogs?.());
  }
} catch (error) {
  io.stderr(`sfd-sidecar: unexpected failure: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
