// Assembles what a Dockerfile's stages would contain, without a Docker engine: each stage is a
// directory, WORKDIR/COPY/COPY --from/ENV/CMD are applied as written, and RUN executes the same command
// (npm and npx only) in the stage's working directory. The base image's own files are not reproduced;
// the runtime stage's node is this machine's.
import { execSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export interface Stage {
  readonly name: string;
  readonly from: string;
  /** The stage's filesystem root on this machine. */
  readonly root: string;
  workdir: string;
  readonly env: Record<string, string>;
  cmd: string[];
  user: string | null;
}

export function readInstructions(dockerfile: string): { keyword: string; args: string }[] {
  const joined = dockerfile.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

export function assembleStages(
  contextDir: string,
  dockerfilePath: string,
  runEnv: NodeJS.ProcessEnv = process.env,
): Stage[] {
  const stages: Stage[] = [];
  const base = mkdtempSync(join(tmpdir(), 'sfd-image-'));
  const args: Record<string, string> = {};
  const expand = (text: string): string =>
    text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => args[a ?? b ?? ''] ?? '');
  for (const { keyword, args: raw } of readInstructions(readFileSync(dockerfilePath, 'utf8'))) {
    const text = expand(raw);
    const stage = stages.at(-1);
    switch (keyword) {
      case 'ARG': {
        const [name = '', value = ''] = text.split('=');
        if (!(name in args)) args[name] = value;
        break;
      }
      case 'FROM': {
        // Flags (--platform=...) choose where the stage runs, which this assembly does not reproduce.
        const words = text.split(/\s+/).filter((word) => !word.startsWith('--'));
        const [from = '', , name = `stage${stages.length}`] = words;
        const root = join(base, name);
        mkdirSync(root, { recursive: true });
        stages.push({ name, from, root, workdir: '/', env: {}, cmd: [], user: null });
        break;
      }
      case 'WORKDIR':
        stage!.workdir = text.startsWith('/') ? text : join(stage!.workdir, text);
        mkdirSync(join(stage!.root, stage!.workdir), { recursive: true });
        break;
      case 'ENV': {
        const equals = text.indexOf('=');
        const value = text.slice(equals + 1);
        stage!.env[text.slice(0, equals)] = /^".*"$/.test(value) ? value.slice(1, -1) : value;
        break;
      }
      case 'COPY': {
        const parts = text.split(/\s+/);
        const fromFlag = parts[0]?.startsWith('--from=') ? parts.shift()!.slice('--from='.length) : null;
        const dest = parts.pop()!;
        const sourceRoot = fromFlag ? stages.find((s) => s.name === fromFlag)!.root : contextDir;
        const destPath = join(stage!.root, dest.startsWith('/') ? dest : join(stage!.workdir, dest));
        for (const source of parts) {
          const from = fromFlag ? join(sourceRoot, source) : join(sourceRoot, source);
          const target = parts.length > 1 || dest.endsWith('/') ? join(destPath, basename(source)) : destPath;
          cpSync(from, target, {
            recursive: true,
            dereference: false,
            filter: (path) => !path.includes(`${contextDir}/node_modules`) || fromFlag !== null,
          });
        }
        break;
      }
      case 'RUN':
        if (!/^(npm|npx) /.test(text)) throw new Error(`the image test runs only npm/npx commands, not: ${text}`);
        execSync(text, { cwd: join(stage!.root, stage!.workdir), stdio: 'pipe', env: { ...runEnv, ...stage!.env } });
        break;
      case 'CMD':
        stage!.cmd = JSON.parse(text) as string[];
        break;
      case 'USER':
        stage!.user = text;
        break;
      default:
        break; // LABEL, EXPOSE: metadata only
    }
  }
  return stages;
}
