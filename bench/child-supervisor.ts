// The servers a bench or soak run starts (upstream, emulator, proxies): each gets a name, an exit
// before the run stops them is reported as "NAME exited (CAUSE)", and all are stopped together.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfSignedCertificate } from '../test/helpers/tls-server.js';
import { DEMO_ACCESS_KEY_ID, DEMO_ACCESS_KEY_SECRET } from '../src/emulator/seed-data.js';
import { freePort, waitForPort } from './net-utils.js';
import { shippedSidecarLaunch } from './shipped-node-options.js';

export interface ChildSupervisor {
  /** Watches a started child under a name for the reports; returns it. */
  watch(name: string, child: ChildProcess): ChildProcess;
  /** Stops every child; exits from here on are expected and not reported. */
  stopAll(signal: NodeJS.Signals): void;
}

export function superviseChildren(onUnexpectedExit: (description: string) => void): ChildSupervisor {
  const children: ChildProcess[] = [];
  let stopping = false;
  return {
    watch(name, child) {
      children.push(child);
      child.on('exit', (code, signal) => {
        if (!stopping) onUnexpectedExit(`${name} exited (${signal ?? `code ${code}`})`);
      });
      return child;
    },
    stopAll(signal) {
      stopping = true;
      for (const child of children) child.kill(signal);
    },
  };
}

/** Starts the built emulator (under `root`'s dist) as a watched child; resolves with its port once it listens. */
export async function startEmulatorChild(children: ChildSupervisor, root: string): Promise<number> {
  const port = await freePort();
  const main = join(root, 'dist/src/main.js');
  children.watch(
    'the emulator',
    spawn(process.execPath, [main, 'emulator', '--listen', `127.0.0.1:${port}`], { stdio: 'ignore' }),
  );
  await waitForPort(port);
  return port;
}

/** Starts the sidecar as the image runs it, signing with the demo key for the emulator on `emulatorPort`. */
export async function startShippedSidecarChild(
  children: ChildSupervisor,
  root: string,
  emulatorPort: number,
  listen: { signingPort: number; adminListen: string },
): Promise<ChildProcess> {
  const shipped = shippedSidecarLaunch(root);
  const sidecar = children.watch(
    'the sidecar',
    spawn(process.execPath, shipped.args, {
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        ...shipped.env,
        SFD_UPSTREAM_URL: `http://127.0.0.1:${emulatorPort}`,
        SFD_ACCESS_KEY_ID: DEMO_ACCESS_KEY_ID,
        SFD_ACCESS_KEY_SECRET: DEMO_ACCESS_KEY_SECRET,
        SFD_LISTEN: `127.0.0.1:${listen.signingPort}`,
        SFD_ADMIN_LISTEN: listen.adminListen,
      },
    }),
  );
  await waitForPort(listen.signingPort);
  return sidecar;
}

/** Starts the injector as the image runs it, with a self-signed certificate; resolves once it listens. */
export async function startShippedInjectorChild(
  children: ChildSupervisor,
  root: string,
): Promise<{ child: ChildProcess; port: number; ca: Buffer }> {
  const { certFile, keyFile } = await selfSignedCertificate('localhost');
  const [port, adminPort] = [await freePort(), await freePort()];
  const shipped = shippedSidecarLaunch(root);
  const child = children.watch(
    'the injector',
    spawn(process.execPath, [...shipped.args.slice(0, -1), 'injector'], {
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        ...shipped.env,
        SFD_INJECTOR_LISTEN: `127.0.0.1:${port}`,
        SFD_ADMIN_LISTEN: `127.0.0.1:${adminPort}`,
        SFD_TLS_CERT_FILE: certFile,
        SFD_TLS_KEY_FILE: keyFile,
        SFD_KEYSTORE_SECRET: 'sfd-keys',
        SFD_LOG_LEVEL: 'warn',
      },
    }),
  );
  await waitForPort(port);
  return { child, port, ca: readFileSync(certFile) };
}
