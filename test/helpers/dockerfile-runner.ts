// Assembles what a Dockerfile's stages would contain, without a Docker engine: each stage is a
// directory, WORKDIR/COPY/COPY --from/ENV/CMD are applied as written, and RUN executes the same command
// (npm and npx, or the image's node in exec form) in the stage's working directory. The base image's own
// files are not reproduced; the runtime stage's node is this machine's, and an ENV path under the stage's
// working directory names that path in the assembled stage. COPY --chown is not reproduced.
import { execFileSync, execSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** The runtime image's node, which RUN in exec form may call. */
const IMAGE_NODE = '/nodejs/bin/node';

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
        const raw = text.slice(equals + 1);
        const value = /^".*"$/.test(raw) ? raw.slice(1, -1) : raw;
        const inWorkdir = stage!.workdir !== '/' && value.startsWith(`${stage!.workdir}/`);
        stage!.env[text.slice(0, equals)] = inWorkdir ? join(stage!.root, value) : value;
        break;
      }
      case 'COPY': {
        const parts = text.split(/\s+/);
        let fromFlag: string | null = null;
        while (parts[0]?.startsWith('--')) {
          const flag = parts.shift()!;
          if (flag.startsWith('--from=')) fromFlag = flag.slice('--from='.length);
        }
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
      case 'RUN': {
        const cwd = join(stage!.root, stage!.workdir);
        const env = { ...runEnv, ...stage!.env };
        if (text.startsWith('[')) {
          const [command, ...commandArgs] = JSON.parse(text) as string[];
          if (command !== IMAGE_NODE)
            throw new Error(`the image test runs only ${IMAGE_NODE} in exec form, not: ${text}`);
          execFileSync(process.execPath, commandArgs, { cwd, stdio: 'pipe', env });
        } else if (/^(npm|npx) /.test(text)) execSync(text, { cwd, stdio: 'pipe', env });
        else if (/^mkdir [\w./-]+$/.test(text)) mkdirSync(join(cwd, text.slice('mkdir '.length)));
        else throw new Error(`the image test runs only npm/npx, mkdir and the image's node, not: ${text}`);
        break;
      }
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
