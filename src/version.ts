// The version of this build, from package.json (the one source: npm, the image label and the chart's
// appVersion are checked against it).
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
  repository: { url: string };
};

export const VERSION: string = packageJson.version;

/** The project's home on GitHub, `owner/name`, from package.json's repository (its one record). */
export const HOME_REPOSITORY: string = /github\.com\/([^/]+\/[^/.]+)/.exec(packageJson.repository.url)![1]!;

/** The image the release workflow publishes: GitHub's registry under the project's home. */
export const IMAGE_REPOSITORY = `ghcr.io/${HOME_REPOSITORY}`;
