// A one-replica Deployment of a pod spec, its pods labelled `app: NAME` (and `labels`): what a cluster
// test creates to see what the webhook and the admission policy do to a controller's pods.
export const deploymentOf = (name: string, spec: object, labels: Record<string, string> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name, ...labels } }, spec },
  },
});
