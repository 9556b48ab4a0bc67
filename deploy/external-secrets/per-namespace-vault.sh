#!/bin/sh
# The Vault side of per-namespace.yaml, run by whoever administers Vault, and again whenever the
# entitlements change. For each namespace it writes a policy that reads that namespace's entitled
# profiles and nothing else, and a Kubernetes auth role that gives the policy to the namespace's
# sfd-keys-reader service account alone. Vault enforces both at every login and every read, so no
# SecretStore or ExternalSecret anyone writes in a namespace widens what that namespace gets.
#
# It expects a KV version 2 engine at "sfd", one secret per profile at "profiles/<profile>" whose
# "keystore" field is the <profile>.json file `sfd-sidecar keys split` makes, e.g.
#   vault kv put sfd/profiles/billing keystore=@billing.json
# and the Kubernetes auth method at "kubernetes", configured for the cluster the namespaces live in.
#
# Each policy names its profiles by exact path, never by a glob: "sfd/data/profiles/*" reads every
# tenant's keys. The role checks the token's audience, "vault", so a service account token minted for
# anything else (the API server, another tool) does not log in here. Keep this file, per-namespace.yaml
# and the chart's policy.entitlements in step.
set -eu

# shop: billing
vault policy write sfd-keys-shop - <<'EOF'
path "sfd/data/profiles/billing" {
  capabilities = ["read"]
}
EOF
vault write auth/kubernetes/role/sfd-keys-shop \
  bound_service_account_names=sfd-keys-reader \
  bound_service_account_namespaces=shop \
  audience=vault \
  token_policies=sfd-keys-shop \
  token_ttl=10m

# reporting: reports
vault policy write sfd-keys-reporting - <<'EOF'
path "sfd/data/profiles/reports" {
  capabilities = ["read"]
}
EOF
vault write auth/kubernetes/role/sfd-keys-reporting \
  bound_service_account_names=sfd-keys-reader \
  bound_service_account_namespaces=reporting \
  audience=vault \
  token_policies=sfd-keys-reporting \
  token_ttl=10m
