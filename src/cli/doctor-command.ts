// `sfd-sidecar doctor [--profile NAME] [-o json|yaml]`: prints each check with its verdict and fix; exits 1
// when any check failed.
import type { CommandSettings } from '../command/command-settings.js';
import { runDoctor } from '../doctor/run-doctor.js';
import type { ServeDeps } from '../command/cli-io.js';
import { SETTINGS } from '../config/settings.js';
import { formatObject } from '../command/format-object.js';
import { outputFormatOf } from '../command/output-format.js';
import { SERVE_CONFIG_PARTS } from './serve-config-parts.js';

export async function doctorCommand(
  settings: CommandSettings,
  options: Readonly<Record<string, unknown>>,
  deps: ServeDeps,
): Promise<number> {
  const format = outputFormatOf(options);
  const report = await runDoctor(settings.values, {
    readFile: deps.readFile,
    readFileAsync: deps.readFileAsync,
    production: deps.production,
    now: deps.now,
    sources: settings.sources,
    settingWarnings: settings.warnings,
    parts: SERVE_CONFIG_PARTS,
  });
  if (format === 'json') deps.stdout(`${JSON.stringify(report)}\n`);
  else if (format === 'yaml') deps.stdout(formatObject(report, 'yaml'));
  else {
    const mark = { ok: '[ok]  ', warn: '[warn]', fail: '[FAIL]' } as const;
    const lines = report.checks.map(
      (c) => `${mark[c.verdict]} ${c.check}: ${c.detail}${c.fix ? `\n       fix: ${c.fix}` : ''}`,
    );
    if (report.recommendation) {
      const r = report.recommendation;
      lines.push(
        '',
        `Recommended: ${SETTINGS.signatureVersion.env}=${r.signatureVersion}` +
          (r.signatureVersion === '2' ? ` ${SETTINGS.v2StringShape.env}=${r.v2StringShape}` : '') +
          ` ${SETTINGS.queryPlacement.env}=${r.queryPlacement}`,
      );
    }
    lines.push('', report.ok ? 'All checks passed.' : 'Some checks failed.');
    deps.stdout(`${lines.join('\n')}\n`);
  }
  return report.ok ? 0 : 1;
}
