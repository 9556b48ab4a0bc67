// The admin listener's paths: the admin app serves them, and the sidecar injection writes is probed,
// waited on (`wait-ready`) and scraped at them, so a path renamed in one place is renamed in all.
export const ADMIN_PATHS = Object.freeze({ health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const);
