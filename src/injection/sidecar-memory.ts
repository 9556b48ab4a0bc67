// The sidecar's memory: the heap cap its image runs it with, and the least limit a pod may give it.
/**
 * The sidecar's heap cap in MiB: the --max-old-space-size of the image's NODE_OPTIONS and of `npm start`,
 * which cannot import it (a test holds them to this value).
 */
export const SIDECAR_HEAP_MIB = 128;
/** What the runtime takes beside the heap: code, stacks, buffers, the young generation. */
const RUNTIME_MIB = 64;
/** The least memory limit the sidecar runs in: its heap cap and the runtime's share. */
export const MIN_MEMORY_LIMIT = `${SIDECAR_HEAP_MIB + RUNTIME_MIB}Mi`;
export const MIN_MEMORY_LIMIT_BYTES = (SIDECAR_HEAP_MIB + RUNTIME_MIB) * 2 ** 20;
