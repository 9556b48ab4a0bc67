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
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "sfd-sidecar.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
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

{{/* The injector's image. */}}
{{- define "sfd-sidecar.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* The image of the sidecar added to pods: by digest when one is given, else by tag. */}}
{{- define "sfd-sidecar.sidecarImage" -}}
{{- $image := .Values.sidecar.image -}}
{{- if $image.digest -}}
{{- printf "%s@%s" $image.repository $image.digest -}}
{{- else -}}
{{- printf "%s:%s" $image.repository ($image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* The webhook's Service name, and the names its certificate must hold. */}}
{{- define "sfd-sidecar.serviceName" -}}
{{- include "sfd-sidecar.fullname" . -}}
{{- end -}}

{{- define "sfd-sidecar.tlsSecret" -}}
{{- printf "%s-tls" (include "sfd-sidecar.fullname" .) -}}
{{- end -}}

{{- /* Who issues the webhook's certificate: certManager, injector or chart (auto resolved). */}}
{{- define "sfd-sidecar.issuer" -}}
{{- $issuer := .Values.certificates.issuer }}
{{- if eq $issuer "auto" }}
{{- ternary "certManager" "injector" (.Capabilities.APIVersions.Has "cert-manager.io/v1") }}
{{- else }}
{{- $issuer }}
{{- end }}
{{- end -}}

{{/* "true" when cert-manager issues the webhook's certificate. */}}
{{- define "sfd-sidecar.certManager" -}}
{{- if eq (include "sfd-sidecar.issuer" .) "certManager" -}}
true
{{- end -}}
{{- end -}}

{{/* The repository of the sidecar added to pods: what the key store admission policy admits. */}}
{{- define "sfd-sidecar.sidecarRepository" -}}
{{- .Values.sidecar.image.repository -}}
{{- end -}}

{{/*
The namespaces the webhook never sees, as a JSON list: kube-system, the release's own and those
configured. The webhook's selectors and the key store admission policy both read this one list.
*/}}
{{- define "sfd-sidecar.excludedNamespaces" -}}
{{- concat (list "kube-system" .Release.Namespace) .Values.webhook.excludeNamespaces | toJson -}}
{{- end -}}

{{/* What injection adds, as src/injection/contract.ts defines it (generated: files/injection-contract.json). */}}
{{- define "sfd-sidecar.contract" -}}
{{- .Files.Get "files/injection-contract.json" -}}
{{- end -}}
