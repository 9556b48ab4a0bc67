// Which sidecar image a pod may carry: the injector's own reference exactly, or its repository at a
// version tag no older than the minimum, the oldest release that enforces what the webhook judges (a
// sidecar from before operation limits signs every operation, however the pod's SFD_OPERATIONS reads).
// A digest says nothing of a version, so a digest other than the injector's own is refused: a tag
// beside it could claim any version while the digest runs an older image.

/**
 * A release's version tag: X.Y.Z, or the X.Y tag that follows the newest X.Y.Z. A regular expression's
 * source that JavaScript and CEL's RE2 both read, so that the admission policy admits the same tags.
 */
export const VERSION_TAG_FORM = '[0-9]{1,9}[.][0-9]{1,9}([.][0-9]{1,9})?';
/** VERSION_TAG_FORM anchored, written out so that the pattern checks read it; a test keeps the two equal. */
export const VERSION_TAG = /^[0-9]{1,9}[.][0-9]{1,9}([.][0-9]{1,9})?$/;

export type Version = readonly [major: number, minor: number, patch: number];

/** The version a release tag names, or null when the tag is none (`latest`, `main`, a digest). */
export function versionOfTag(tag: string): Version | null {
  if (!VERSION_TAG.test(tag)) return null;
  const [major, minor, patch] = tag.split('.');
  return [Number(major), Number(minor), Number(patch ?? 0)];
}

export const olderThan = (version: Version, minimum: Version): boolean => {
  for (let part = 0; part < 3; part += 1) if (version[part] !== minimum[part]) return version[part]! < minimum[part]!;
  return false;
};

/** Why the image is not one a carried sidecar may run, or null when it is. */
export function sidecarImageProblem(
  image: unknown,
  expected: { readonly ownImage: string; readonly repository: string; readonly minimumVersion: string },
): string | null {
  if (image === expected.ownImage) return null;
  const prefix = `${expected.repository}:`;
  if (typeof image !== 'string' || (!image.startsWith(prefix) && !image.startsWith(`${expected.repository}@`)))
    return `its image is not from ${expected.repository}`;
  if (image.includes('@'))
    return `its image pins a digest that is not the injector's own (${expected.ownImage}), which tells no version`;
  const tag = image.slice(prefix.length);
  const version = versionOfTag(tag);
  if (version === null) return `its image tag ${tag} is no release version (X.Y.Z)`;
  const minimum = versionOfTag(expected.minimumVersion);
  if (minimum !== null && olderThan(version, minimum))
    return (
      `its image ${tag} is older than ${expected.minimumVersion}, ` + 'the oldest sidecar that enforces what was judged'
    );
  return null;
}
