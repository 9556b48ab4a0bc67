{{/*
Names and labels.
*/}}
{{- define "sfd-sidecar.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sfd-sidecar.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "sfd-sidecar.labels" -}}
{{- include "sfd-sidecar.labelsWith" (dict "context" . "labels" dict) -}}
{{- end -}}

{{/*
The labels of an object: the chart's own, then the object's (labels), then commonLabels. The first one
to name a key wins, so a value adds labels and never changes those that selectors and tools read.
*/}}
{{- define "sfd-sidecar.labelsWith" -}}
{{- $context := .context -}}
{{- $labels := include "sfd-sidecar.selectorLabels" $context | fromYaml -}}
{{- $_ := set $labels "helm.sh/chart" (printf "%s-%s" $context.Chart.Name $context.Chart.Version | replace "+" "_") -}}
{{- $_ = set $labels "app.kubernetes.io/version" (toString $context.Chart.AppVersion) -}}
{{- $_ = set $labels "app.kubernetes.io/managed-by" $context.Release.Service -}}
{{- toYaml (merge $labels (.labels | default dict) ($context.Values.commonLabels | default dict)) -}}
{{- end -}}

{{/*
The annotations of an object: its own (annotations) over commonAnnotations; empty when there are none,
so that the caller writes no annotations key.
*/}}
{{- define "sfd-sidecar.annotations" -}}
{{- $all := merge dict (.annotations | default dict) (.context.Values.commonAnnotations | default dict) -}}
{{- if $all -}}
{{- toYaml $all -}}
{{- end -}}
{{- end -}}

{{- define "sfd-sidecar.selectorLabels" -}}
app.kubernetes.io/name: {{ include "sfd-sidecar.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: injector
{{- end -}}

{{/* The injector's service account. */}}
{{- define "sfd-sidecar.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "sfd-sidecar.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/*
An image's repository as it is pulled, given a dict of image (registry, repository) and global: the
image's registry, else global.imageRegistry, stands in place of the registry the repository names (its
first part when that holds a dot or a colon or is localhost, as container runtimes read it), so that a
mirror serves the same path; neither set, the repository as written.
*/}}
{{- define "sfd-sidecar.imageRepository" -}}
{{- $registry := .image.registry | default (dig "imageRegistry" "" (.global | default dict)) | trimSuffix "/" -}}
{{- $repository := .image.repository -}}
{{- if $registry -}}
{{- $parts := splitList "/" $repository -}}
{{- $first := first $parts -}}
{{- if and (gt (len $parts) 1) (or (contains "." $first) (contains ":" $first) (eq $first "localhost")) -}}
{{- $repository = rest $parts | join "/" -}}
{{- end -}}
{{- printf "%s/%s" $registry $repository -}}
{{- else -}}
{{- $repository -}}
{{- end -}}
{{- end -}}

{{/*
An image reference, given a dict of image (registry, repository, tag, digest), global and appVersion.
A tag someone set wins: the digest is used only with an empty tag, the appVersion's tag, so that a
digest the release wrote for its own version never pins another tag to it. A tag may carry its own
digest (TAG@sha256:...).
*/}}
{{- define "sfd-sidecar.imageReference" -}}
{{- $repository := include "sfd-sidecar.imageRepository" . -}}
{{- $tag := toString (.image.tag | default "") -}}
{{- if and (not $tag) .image.digest -}}
{{- printf "%s:%s@%s" $repository .appVersion .image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository ($tag | default .appVersion) -}}
{{- end -}}
{{- end -}}

{{/* The injector's image. */}}
{{- define "sfd-sidecar.image" -}}
{{- include "sfd-sidecar.imageReference"
  (dict "image" .Values.image "global" .Values.global "appVersion" .Chart.AppVersion) -}}
{{- end -}}

{{/* The Secrets for pulling the injector's image, global.imagePullSecrets first, each once; names or {name}. */}}
{{- define "sfd-sidecar.imagePullSecrets" -}}
{{- $names := list -}}
{{- range concat (dig "imagePullSecrets" list (.Values.global | default dict)) .Values.imagePullSecrets -}}
{{- $names = append $names (kindIs "string" . | ternary . (dig "name" "" (kindIs "map" . | ternary . dict))) -}}
{{- end -}}
{{- range $names | compact | uniq }}
- name: {{ . | quote }}
{{- end -}}
{{- end -}}

{{/* The webhook's Service name, and the names its certificate must hold. */}}
{{- define "sfd-sidecar.serviceName" -}}
{{- include "sfd-sidecar.fullname" . -}}
{{- end -}}

{{- define "sfd-sidecar.tlsSecret" -}}
{{- if eq (include "sfd-sidecar.issuer" .) "existingSecret" -}}
{{- .Values.certificates.existingSecret -}}
{{- else -}}
{{- printf "%s-tls" (include "sfd-sidecar.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- /*
Who issues the webhook's certificate: existingSecret, certManager, injector or chart. auto takes a
Secret or a cert-manager issuer when one is named, else cert-manager when the cluster serves its API,
else the injector.
*/}}
{{- define "sfd-sidecar.issuer" -}}
{{- $certificates := .Values.certificates }}
{{- $issuer := $certificates.issuer }}
{{- if ne $issuer "auto" }}
{{- $issuer }}
{{- else if $certificates.existingSecret }}
{{- "existingSecret" }}
{{- else if $certificates.certManager.issuerRef.name }}
{{- "certManager" }}
{{- else }}
{{- ternary "certManager" "injector" (.Capabilities.APIVersions.Has "cert-manager.io/v1") }}
{{- end }}
{{- end -}}

{{/* certificates.caBundle as the webhook configuration holds it: base64 of the PEM, given either way. */}}
{{- define "sfd-sidecar.caBundle" -}}
{{- $bundle := .Values.certificates.caBundle -}}
{{- if contains "-----BEGIN" $bundle -}}
{{- $bundle | b64enc -}}
{{- else -}}
{{- $bundle | nospace -}}
{{- end -}}
{{- end -}}

{{/* "true" when cert-manager issues the webhook's certificate. */}}
{{- define "sfd-sidecar.certManager" -}}
{{- if eq (include "sfd-sidecar.issuer" .) "certManager" -}}
true
{{- end -}}
{{- end -}}

{{/*
What the injector, its webhook and the key store admission policy must agree on, as JSON:
- image: the sidecar image the injector adds (SFD_IMAGE), from sidecar.image and global.imageRegistry;
- repository: that image's repository, the only one the policy admits a key store reader from;
- minimumVersion: the oldest sidecar version a pod may carry (sidecar.minimumVersion, else appVersion);
- excludedNamespaces: kube-system, the release's own and webhook.excludeNamespaces, never judged;
- namespaceSelectorTerms and objectSelectorTerms: webhook.*SelectorExtra, which both webhooks add to
  their selectors and the policy requires of a pod with the sidecar.
The deployment, the webhook configuration and the policy each read this one helper: were one of them
to read the values apart, a registry, digest or selector set at install could make the policy refuse
every pod the injector made.
*/}}
{{- define "sfd-sidecar.injection" -}}
{{- $c := include "sfd-sidecar.contract" . | fromJson -}}
{{- $image := dict "image" .Values.sidecar.image "global" .Values.global "appVersion" .Chart.AppVersion -}}
{{- $webhook := .Values.webhook -}}
{{- toJson (dict
  "image" (include "sfd-sidecar.imageReference" $image)
  "repository" (include "sfd-sidecar.imageRepository" $image)
  "minimumVersion" (.Values.sidecar.minimumVersion | default .Chart.AppVersion)
  "excludedNamespaces" (concat (list $c.systemNamespace .Release.Namespace) $webhook.excludeNamespaces)
  "namespaceSelectorTerms" ($webhook.namespaceSelectorExtra | default list)
  "objectSelectorTerms" ($webhook.objectSelectorExtra | default list)) -}}
{{- end -}}

{{/*
A CEL expression true when the labels at .labels (a field of the object the policy sees, which may be
absent) meet every one of .requirements (matchExpressions items), as the API server evaluates a label
selector: the admission policy admits only pods the webhook's selectors match.
*/}}
{{- define "sfd-sidecar.celRequirements" -}}
{{- $terms := list -}}
{{- range .requirements -}}
{{- $present := printf "(has(%s) && %s in %s)" $.labels (toJson .key) $.labels -}}
{{- $value := printf "%s[%s]" $.labels (toJson .key) -}}
{{- if eq .operator "In" -}}
{{- $terms = append $terms (printf "(%s && %s in %s)" $present $value (toJson .values)) -}}
{{- else if eq .operator "NotIn" -}}
{{- $terms = append $terms (printf "(!%s || !(%s in %s))" $present $value (toJson .values)) -}}
{{- else if eq .operator "Exists" -}}
{{- $terms = append $terms $present -}}
{{- else -}}
{{- $terms = append $terms (printf "!%s" $present) -}}
{{- end -}}
{{- end -}}
{{- $terms | join " && " | default "true" -}}
{{- end -}}

{{/* What injection adds, as the code's tables define it (generated: files/injection-contract.json). */}}
{{- define "sfd-sidecar.contract" -}}
{{- .Files.Get "files/injection-contract.json" -}}
{{- end -}}

{{/* A list of strings (one of the contract's) as a CEL list literal: ['a', 'b']. */}}
{{- define "sfd-sidecar.celList" -}}
{{- $items := list -}}
{{- range . }}{{ $items = append $items (squote .) }}{{ end -}}
[{{ join ", " $items }}]
{{- end -}}

{{/*
The entitlement policy's grants as a CEL map literal, written into the admission policy: one key per
namespace (an entry naming no service accounts) and per namespace.serviceaccount (a namespace holds no
dot, so the first dot parts the two), each the profiles it grants between commas (`,billing,payroll,`),
so that the API server asks whether `,NAME,` is in it. Keys and values are JSON strings, which CEL reads
as the same strings whatever they hold. Rendered only with entitlements: an empty map has no type.
*/}}
{{- define "sfd-sidecar.celGrants" -}}
{{- $data := dict -}}
{{- range .Values.policy.entitlements -}}
{{- $entry := . -}}
{{- $keys := list .namespace -}}
{{- if .serviceAccounts -}}
{{- $keys = list -}}
{{- range .serviceAccounts -}}
{{- $keys = append $keys (printf "%s.%s" $entry.namespace .) -}}
{{- end -}}
{{- end -}}
{{- range $keys -}}
{{- $_ := set $data . (concat (get $data . | default list) $entry.profiles | uniq) -}}
{{- end -}}
{{- end -}}
{{- $entries := list -}}
{{- range $key, $profiles := $data -}}
{{- $granted := printf ",%s," (sortAlpha $profiles | join ",") -}}
{{- $entries = append $entries (printf "%s: %s" (toJson $key) (toJson $granted)) -}}
{{- end -}}
{{- printf "{%s}" (join ", " $entries) -}}
{{- end -}}


{{/*
A CEL expression of the profiles a key store reader (the container .c; .contract the injection
contract) signs with, as `,own,picked,...,`: its one SFD_PROFILE (blank or absent: the default profile)
and each of its one SFD_ALLOWED_PROFILES, trimmed, as the sidecar reads them. The policy admits each
of those variables once only, so the first entry is the one the kubelet gives.
*/}}
{{- define "sfd-sidecar.celProfiles" -}}
{{- $env := printf "%s.env" .c -}}
{{- $entry := printf "%s.filter(e, e.name == '%s')[0]" $env .contract.profileEnv -}}
{{- $set := "has(e.value) && e.value.trim() != ''" -}}
{{- $given := printf "%s.exists(e, e.name == '%s' && %s)" $env .contract.profileEnv $set -}}
{{- $own := printf "(has(%s) && %s ? %s.value.trim() : '%s')" $env $given $entry .contract.defaultProfile -}}
{{- $list := printf "%s.filter(e, e.name == '%s')[0]" $env .contract.allowedProfilesEnv -}}
{{- $listed := printf "%s.exists(e, e.name == '%s' && has(e.value))" $env .contract.allowedProfilesEnv -}}
{{- $names := printf "%s.value.split(',').map(n, n.trim()).join(',')" $list -}}
{{- $picked := printf "(has(%s) && %s ? %s : '')" $env $listed $names -}}
{{- printf "(',' + %s + ',' + %s + ',')" $own $picked -}}
{{- end -}}
