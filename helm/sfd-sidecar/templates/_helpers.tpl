{{/*
Names and labels.
*/}}
{{- define "sfd-sidecar.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "sfd-sidecar.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
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
{{- end -}}

{{- define "sfd-sidecar.keystoreSecret" -}}
{{- if .Values.keystore.create -}}
{{- printf "%s-keystore" (include "sfd-sidecar.fullname" .) -}}
{{- else -}}
{{- required "keystore.existingSecret is required (or keystore.create=true for a trial)" .Values.keystore.existingSecret -}}
{{- end -}}
{{- end -}}

{{/*
sfd-sidecar.container: the sidecar container, one list item. Other charts include it in their pod
spec (under initContainers for the native form, containers for the classic one):
  initContainers:
    {{- include "sfd-sidecar.container" . | nindent 4 }}
and add the volumes with {{- include "sfd-sidecar.volumes" . | nindent 4 }}.
*/}}
{{- define "sfd-sidecar.container" -}}
- name: sfd-sidecar
  image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  {{- if eq .Values.sidecar.mode "native" }}
  restartPolicy: Always
  {{- end }}
  env:
    - name: SFD_LISTEN
      value: "127.0.0.1:{{ .Values.sidecar.signingPort | int64 }}"
    - name: SFD_ADMIN_LISTEN
      value: ":{{ .Values.sidecar.adminPort | int64 }}"
    {{- with .Values.sidecar.upstreamUrl }}
    - name: SFD_UPSTREAM_URL
      value: {{ . | quote }}
    {{- end }}
    - name: SFD_KEYSTORE_FILE
      value: "{{ .Values.keystore.mountPath }}/{{ .Values.keystore.fileName }}"
    - name: SFD_PROFILE
      value: {{ .Values.sidecar.profile | quote }}
    {{- with .Values.sidecar.profileHeader }}
    - name: SFD_PROFILE_HEADER
      value: {{ . | quote }}
    - name: SFD_ALLOWED_PROFILES
      value: {{ required "sidecar.allowedProfiles is required with sidecar.profileHeader" (join "," $.Values.sidecar.allowedProfiles) | quote }}
    {{- end }}
    - name: SFD_SIGNATURE_VERSION
      value: {{ .Values.sidecar.signing.signatureVersion | quote }}
    - name: SFD_V2_STRING_SHAPE
      value: {{ .Values.sidecar.signing.v2StringShape | quote }}
    - name: SFD_QUERY_PLACEMENT
      value: {{ .Values.sidecar.signing.queryPlacement | quote }}
    - name: SFD_LOG_LEVEL
      value: {{ .Values.sidecar.logLevel | quote }}
    - name: SFD_REQUEST_LOG
      value: {{ .Values.sidecar.requestLog | quote }}
    - name: SFD_MAX_BODY_BYTES
      value: {{ .Values.sidecar.maxBodyBytes | int64 | quote }}
    - name: SFD_UPSTREAM_TIMEOUT_MS
      value: {{ .Values.sidecar.upstreamTimeoutMs | int64 | quote }}
    - name: SFD_SHUTDOWN_DELAY_MS
      value: {{ include "sfd-sidecar.shutdownDelayMs" . | quote }}
    - name: SFD_SHUTDOWN_TIMEOUT_MS
      value: {{ .Values.sidecar.shutdownTimeoutMs | int64 | quote }}
    {{- if .Values.sidecar.upstreamCaSecret }}
    - name: SFD_UPSTREAM_CA_FILE
      value: /etc/sfd-sidecar/ca/ca.crt
    {{- end }}
    {{- with .Values.sidecar.egressProxy }}
    {{- if .secret.name }}
    - name: SFD_UPSTREAM_PROXY
      valueFrom:
        secretKeyRef:
          name: {{ .secret.name }}
          key: {{ .secret.key }}
    {{- else if .url }}
    - name: SFD_UPSTREAM_PROXY
      value: {{ .url | quote }}
    {{- end }}
    {{- with .noProxy }}
    - name: SFD_UPSTREAM_NO_PROXY
      value: {{ . | quote }}
    {{- end }}
    {{- end }}
    {{- if .Values.notify.enabled }}
    - name: SFD_NOTIFY_LISTEN
      value: ":{{ .Values.notify.port | int64 }}"
    - name: SFD_NOTIFY_PATH
      value: {{ .Values.notify.path | quote }}
    - name: SFD_NOTIFY_FORWARD_URL
      value: {{ .Values.notify.forwardUrl | quote }}
    {{- with .Values.notify.allowedCidrs }}
    - name: SFD_NOTIFY_ALLOWED_CIDRS
      value: {{ . | quote }}
    {{- end }}
    {{- if .Values.notify.tokenSecret.name }}
    - name: SFD_NOTIFY_TOKEN
      valueFrom:
        secretKeyRef:
          name: {{ .Values.notify.tokenSecret.name }}
          key: {{ .Values.notify.tokenSecret.key }}
    {{- end }}
    {{- if .Values.notify.deadLetter.enabled }}
    - name: SFD_NOTIFY_DEAD_LETTER_DIR
      value: /var/lib/sfd-sidecar/dead-letter
    - name: SFD_NOTIFY_DEAD_LETTER_MAX_BYTES
      value: {{ .Values.notify.deadLetter.maxBytes | int64 | quote }}
    {{- end }}
    {{- end }}
    {{- with .Values.sidecar.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  ports:
    - name: admin
      containerPort: {{ .Values.sidecar.adminPort | int64 }}
      protocol: TCP
    {{- if .Values.notify.enabled }}
    - name: notify
      containerPort: {{ .Values.notify.port | int64 }}
      protocol: TCP
    {{- end }}
  startupProbe:
    httpGet:
      path: /readyz
      port: admin
    periodSeconds: {{ .Values.sidecar.startupProbe.periodSeconds }}
    failureThreshold: {{ .Values.sidecar.startupProbe.failureThreshold }}
  {{- if eq .Values.sidecar.mode "classic" }}
  {{- /* A classic sidecar gets no head start of its own: the kubelet starts the next container of the pod
  (the application) only once this hook has returned, that is once /readyz answered 200 (or the startup
  probe's window ran out). The distroless image has no shell: the sidecar's own wait-ready command. */}}
  lifecycle:
    postStart:
      exec:
        command:
          - /nodejs/bin/node
          - /app/dist/src/main.js
          - wait-ready
          - --timeout-ms
          - {{ mul .Values.sidecar.startupProbe.periodSeconds .Values.sidecar.startupProbe.failureThreshold 1000 | quote }}
  {{- end }}
  readinessProbe:
    httpGet:
      path: /readyz
      port: admin
    periodSeconds: 5
  livenessProbe:
    httpGet:
      path: /healthz
      port: admin
    periodSeconds: 10
    failureThreshold: 3
  volumeMounts:
    - name: sfd-keystore
      mountPath: {{ .Values.keystore.mountPath }}
      readOnly: true
    {{- if .Values.sidecar.upstreamCaSecret }}
    - name: sfd-upstream-ca
      mountPath: /etc/sfd-sidecar/ca
      readOnly: true
    {{- end }}
    {{- if and .Values.notify.enabled .Values.notify.deadLetter.enabled }}
    - name: sfd-dead-letter
      mountPath: /var/lib/sfd-sidecar/dead-letter
    {{- end }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  resources:
    {{- toYaml .Values.sidecar.resources | nindent 4 }}
{{- end -}}

{{/*
sfd-sidecar.volumes: the volumes the sidecar container mounts, list items.
*/}}
{{- define "sfd-sidecar.volumes" -}}
- name: sfd-keystore
  secret:
    secretName: {{ include "sfd-sidecar.keystoreSecret" . }}
    defaultMode: 0440
{{- if .Values.sidecar.upstreamCaSecret }}
- name: sfd-upstream-ca
  secret:
    secretName: {{ .Values.sidecar.upstreamCaSecret }}
{{- end }}
{{- if and .Values.notify.enabled .Values.notify.deadLetter.enabled }}
- name: sfd-dead-letter
  {{- toYaml .Values.notify.deadLetter.volume | nindent 2 }}
{{- end }}
{{- end -}}

{{/*
Time the sidecar serves after SIGTERM before it drains: the value when set; otherwise 5000 in classic
mode, where the application is stopped at the same moment and may still call out, and 0 in native mode,
where Kubernetes stops the sidecar after the application.
*/}}
{{- define "sfd-sidecar.shutdownDelayMs" -}}
{{- if kindIs "invalid" .Values.sidecar.shutdownDelayMs -}}
{{- if eq .Values.sidecar.mode "classic" }}5000{{ else }}0{{ end -}}
{{- else -}}
{{- .Values.sidecar.shutdownDelayMs | int64 -}}
{{- end -}}
{{- end -}}
