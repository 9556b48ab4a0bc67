// The version of this build, from package.json (the one source: npm, the image label and the chart's
// appVersion are checked against it).
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const VERSION: string = packageJson.version;
