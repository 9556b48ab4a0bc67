#!/usr/bin/env node
// Entry point, and the only module that touches process, environment, ports and signals.
import { runCli } from './cli.js';
import { readRegularFile, readRegularFileSync } from './files/regular-file.js';
import { readStream } from './files/read-stream.js';
import { makePrivateDirectory, writePrivateFile } from './files/write-private.js';

// Creating process.stdout puts a pipe or socket stdout (a container runtime's log pipe) in non-blocking
// mode, as in every Node program that prints. The log writer writes to fd 1 synchronously and relies on
// it: a log collector that stops reading then costs log lines (up to 16 MiB wait, then new ones are
// dropped and counted), never the event loop. With the pipe left blocking, a full pipe stopped every
// request and /healthz with them. A file or a terminal is not affected.
void process.stdout;

/** The signals a service handles: SIGTERM and SIGINT stop it, SIGHUP reloads its key store. */
const SERVICE_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
const held: NodeJS.Signals[] = [];
const hold = (signal: NodeJS.Signals): void => void held.push(signal);
/** Stops holding signals; returns those that came while held, in order. */
const releaseSignals = (): NodeJS.Signals[] => {
  for (const signal of SERVICE_SIGNALS) process.off(signal, hold);
  return held.splice(0);
};

const io = {
  env: process.env,
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
  readFile: (path: string, maxBytes: number) => readRegularFileSync(path, maxBytes).toString('utf8'),
  readFileAsync: readRegularFile,
  readFileBytes: readRegularFileSync,
  readFileIfExists: (path: string, maxBytes: number) => {
    try {
      return readRegularFileSync(path, maxBytes).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  },
  readStdin: (maxBytes: number) => readStream(process.stdin, maxBytes),
  writePrivateFile,
  makePrivateDirectory,
  now: Date.now,
  production: process.env.NODE_ENV === 'production',
  holdSignals: () => {
    for (const signal of SERVICE_SIGNALS) process.on(signal, hold);
  },
};

try {
  let heldWhileStarting: NodeJS.Signals[] = [];
  const result = await runCli(process.argv.slice(2), io).finally(() => (heldWhileStarting = releaseSignals()));
  if ('exitCode' in result) {
    process.exitCode = result.exitCode;
  } else {
    const fatal = (message: string, error: unknown): void => {
      if (result.service.logFatal) result.service.logFatal(message, error);
      else io.stderr(`sfd-sidecar: ${message}: ${(error as Error).message}\n`);
    };
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      result.service.stop(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          fatal('shutdown failed', error);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    process.on('SIGHUP', () => result.service.reload?.());
    process.once('exit', () => result.service.flushLogs?.());
    for (const signal of heldWhileStarting) {
      if (signal === 'SIGHUP') result.service.reload?.();
      else stop(signal);
    }
    // A bug that escapes every handler leaves the process in an unknown state: log it as one line a log
    // pipeline can alert on, keep Node's stack on stderr, and exit 1 so that the pod restarts it.
    process.once('uncaughtException', (error) => {
      result.service.logFatal?.('crashed', error);
      io.stderr(`sfd-sidecar: crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
  }
} catch (error) {
  io.stderr(`sfd-sidecar: unexpected failure: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
