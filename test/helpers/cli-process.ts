// Runs the built `sfd-sidecar` executable as a real process, with a clean environment.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../../src/main.js', import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /** Written to the process's standard input, which is then closed (at once when omitted). */
  readonly input?: string;
}

const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' });

/** Runs a Node script to its end, with a clean environment: its exit code and what it printed. */
export function runNodeScript(script: string, args: readonly string[], options: CliRunOptions = {}): Promise<Finished> {
  return runProcess(process.execPath, [script, ...args], options);
}

/** Runs any program to its end, with a clean environment: its exit code and what it printed. */
export function runProcess(command: string, args: readonly string[], options: CliRunOptions = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...baseEnv(), ...options.env },
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A process that exits before reading its input closes the pipe; that is its answer, not a test failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

export function runCli(args: readonly string[], options: CliRunOptions = {}): Promise<Finished> {
  return runNodeScript(MAIN, args, options);
}

export interface LongRunning {
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts a long-running command and resolves once stderr or stdout matches `ready`, or at once when
 * `ready` is null (a command that may print nothing, such as `serve` at log level warn).
 */
export function startCli(
  args: readonly string[],
  ready: RegExp | null,
  options: CliRunOptions = {},
): Promise<LongRunning> {
  return startProcess(process.execPath, [MAIN, ...args], ready, options);
}

/** Starts any long-running program with a clean environment; resolves once its output matches `ready`. */
export function startProcess(
  command: string,
  args: readonly string[],
  ready: RegExp | null,
  options: CliRunOptions = {},
): Promise<LongRunning> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...baseEnv(), ...options.env },
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const handle: LongRunning = { child, stderr: () => err, stdout: () => out, exited };
    const check = (): void => {
      if (ready === null || ready.test(err) || ready.test(out)) resolve(handle);
    };
    check();
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      check();
    });
    void exited.then((code) => reject(new Error(`exited ${code} before ready: ${err}${out}`)));
  });
}
