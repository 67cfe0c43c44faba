{{/* Names and labels. */}}
{{- define "trove.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "trove.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "trove.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "trove.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "trove.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "trove.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: trove
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "gateway"). */}}
{{- define "trove.selectorLabels" -}}
app.kubernetes.io/name: {{ include "trove.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "trove.componentName" -}}
{{- printf "%s-%s" (include "trove.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The Secret holding every generated secret (or the user's own). */}}
{{- define "trove.secretName" -}}
{{- default (printf "%s-secrets" (include "trove.fullname" .)) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "trove.image" -}}
{{- $image := index .root.Values.images .kind -}}
{{- printf "%s:%s" $image.repository (default .root.Chart.AppVersion (default .root.Values.imageTag $image.tag)) -}}
{{- end -}}

{{/*
What each Trove process is: the image it runs from, its command, its HTTP port and health paths, the stores it
uses and the secrets it reads. Fixed by the code, not by values. The docs site is static (nginx): no metrics.
*/}}
{{- define "trove.components" -}}
gateway: {image: service, command: ["node", "services/gateway/dist/main.js"], port: 5001, portEnv: TROVE_GATEWAY_PORT, ready: /health/ready, live: /health/live, docstore: false, blobstore: true, nats: true, metrics: true, secrets: {TROVE_ADMIN_PASSWORD: admin-password, TROVE_JWT_SECRET: jwt-secret, TROVE_URL_SIGNING_SECRET: url-signing-secret, TROVE_PROXY_SECRET: proxy-secret}}
auth: {image: service, command: ["node", "services/auth/dist/main.js"], docstore: true, blobstore: false, nats: true, metrics: true, secrets: {TROVE_JWT_SECRET: jwt-secret}}
media: {image: service, command: ["node", "services/media/dist/main.js"], docstore: true, blobstore: true, nats: true, metrics: true, secrets: {}}
library: {image: service, command: ["node", "services/library/dist/main.js"], docstore: true, blobstore: false, nats: true, metrics: true, secrets: {}}
explore: {image: service, command: ["node", "services/explore/dist/main.js"], docstore: true, blobstore: false, nats: true, metrics: true, secrets: {}}
jobs: {image: service, command: ["node", "services/jobs/dist/main.js"], docstore: false, blobstore: false, nats: true, metrics: true, secrets: {}}
worker: {image: worker, command: ["node", "services/worker/dist/main.js"], docstore: false, blobstore: true, nats: true, metrics: true, secrets: {}}
web: {image: web, command: ["node", "web/server.mjs"], port: 3000, portEnv: TROVE_WEB_PORT, ready: /healthz, live: /healthz, docstore: false, blobstore: false, nats: false, metrics: true, secrets: {TROVE_SESSION_SECRET: session-secret, TROVE_PROXY_SECRET: proxy-secret}}
docs: {image: docs, port: 8080, ready: /, live: /, docstore: false, blobstore: false, nats: false, metrics: false, secrets: {}}
{{- end -}}

{{/* The services that keep documents (docstore: true), as a JSON array: each has its own MongoDB user and database. */}}
{{- define "trove.docstoreServices" -}}
{{- $names := list }}
{{- range $component, $spec := fromYaml (include "trove.components" .) }}
{{- if $spec.docstore }}{{ $names = append $names $component }}{{ end }}
{{- end }}
{{- toJson $names -}}
{{- end -}}

{{/*
A service's TROVE_MONGODB_URL: with the bundled MongoDB its own user's URL (mongodb-<service>-url); else the
external URL, from the Secret or externalMongodb.existingSecret. (dict "root" $ "component" "auth").
*/}}
{{- define "trove.mongodbEnv" -}}
{{- $root := .root -}}
{{- $secret := include "trove.secretName" $root -}}
{{- if $root.Values.mongodb.enabled -}}
{{ include "trove.secretEnv" (dict "name" "TROVE_MONGODB_URL" "secret" $secret "key" (printf "mongodb-%s-url" .component)) }}
{{- else -}}
{{ include "trove.secretEnv" (dict "name" "TROVE_MONGODB_URL" "secret" (default $secret $root.Values.externalMongodb.existingSecret) "key" (ternary $root.Values.externalMongodb.existingSecretKey "mongodb-url" (not (empty $root.Values.externalMongodb.existingSecret)))) }}
{{- end -}}
{{- end -}}

{{/* The NATS URL the services use. */}}
{{- define "trove.natsUrl" -}}
{{- if .Values.nats.enabled -}}
{{- printf "%s://%s-nats:4222" (ternary "tls" "nats" .Values.nats.tls.enabled) (include "trove.fullname" .) -}}
{{- else -}}
{{- required "externalNats.url is required when nats.enabled is false" .Values.externalNats.url -}}
{{- end -}}
{{- end -}}

{{/* A secretKeyRef env entry: (dict "name" "VAR" "secret" "x" "key" "y"). */}}
{{- define "trove.secretEnv" -}}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
{{- end -}}

{{/* The restricted security context every container runs with ((dict "readOnly" false) only for skaffold's file sync). */}}
{{- define "trove.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: {{ ternary true .readOnly (kindIs "invalid" .readOnly) }}
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "trove.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The Secret with the CA that clients trust for NATS over TLS ("" when none). */}}
{{- define "trove.natsCaSecret" -}}
{{- if .Values.nats.enabled -}}
{{- if .Values.nats.tls.enabled -}}{{ required "nats.tls.secretName is required when nats.tls.enabled" .Values.nats.tls.secretName }}{{- end -}}
{{- else -}}
{{- .Values.externalNats.tlsCaSecret -}}
{{- end -}}
{{- end -}}

{{/* Each service's NATS allow-lists, as JSON: {"worker": {"publish": [...], "subscribe": [...]}, ...}. */}}
{{- define "trove.natsPermissions" -}}
{{- .Files.Get "files/nats-permissions.json" -}}
{{- end -}}

{{/* The variable nats-server reads a service's password from: NATS_PASSWORD_WORKER (not a Trove variable: nats-server's own environment). */}}
{{- define "trove.natsPasswordVar" -}}
{{- printf "NATS_PASSWORD_%s" (upper .) -}}
{{- end -}}

{{/*
NATS address, credentials (never in a URL, never logged) and TLS trust for a Trove process:
(dict "root" $ "component" "worker"). With the bundled nats-server in password mode each service is
its own user (its name, its password nats-<service>-password); with an external server, the one user given.
*/}}
{{- define "trove.natsEnv" -}}
{{- $root := .root -}}
{{- $secret := include "trove.secretName" $root -}}
{{- $mode := ternary $root.Values.nats.auth.mode $root.Values.externalNats.authMode $root.Values.nats.enabled -}}
- { name: TROVE_NATS_URL, value: {{ include "trove.natsUrl" $root | quote }} }
{{- if and (eq $mode "password") $root.Values.nats.enabled }}
- { name: TROVE_NATS_USER, value: {{ .component | quote }} }
{{ include "trove.secretEnv" (dict "name" "TROVE_NATS_PASSWORD" "secret" $secret "key" (printf "nats-%s-password" .component)) }}
{{- else if eq $mode "password" }}
- { name: TROVE_NATS_USER, value: {{ $root.Values.externalNats.user | quote }} }
{{ include "trove.secretEnv" (dict "name" "TROVE_NATS_PASSWORD" "secret" $secret "key" "nats-password") }}
{{- else if eq $mode "token" }}
{{ include "trove.secretEnv" (dict "name" "TROVE_NATS_TOKEN" "secret" $secret "key" "nats-token") }}
{{- end }}
{{- if include "trove.natsCaSecret" $root }}
- { name: TROVE_NATS_TLS_CA_FILE, value: /etc/trove/nats-ca/ca.crt }
{{- end }}
{{- end -}}

{{/* The blob store: the bundled MinIO or an external S3. */}}
{{- define "trove.s3Env" -}}
{{- $secret := default (include "trove.secretName" .) (ternary "" .Values.externalS3.existingSecret .Values.minio.enabled) -}}
{{- if .Values.minio.enabled }}
- { name: TROVE_S3_BUCKET, value: {{ .Values.minio.bucket | quote }} }
- { name: TROVE_S3_ENDPOINT, value: {{ printf "http://%s-minio:9000" (include "trove.fullname" .) | quote }} }
- { name: TROVE_S3_REGION, value: us-east-1 }
- { name: TROVE_S3_FORCE_PATH_STYLE, value: "true" }
{{- else }}
- { name: TROVE_S3_BUCKET, value: {{ required "externalS3.bucket is required when minio.enabled is false" .Values.externalS3.bucket | quote }} }
{{- with .Values.externalS3.endpoint }}
- { name: TROVE_S3_ENDPOINT, value: {{ . | quote }} }
{{- end }}
- { name: TROVE_S3_REGION, value: {{ .Values.externalS3.region | quote }} }
- { name: TROVE_S3_FORCE_PATH_STYLE, value: {{ .Values.externalS3.forcePathStyle | quote }} }
- { name: TROVE_S3_QUOTA_BYTES, value: {{ int64 .Values.externalS3.quotaBytes | quote }} }
{{- end }}
{{ include "trove.secretEnv" (dict "name" "TROVE_S3_ACCESS_KEY_ID" "secret" $secret "key" "s3-access-key-id") }}
{{ include "trove.secretEnv" (dict "name" "TROVE_S3_SECRET_ACCESS_KEY" "secret" $secret "key" "s3-secret-access-key") }}
{{- end -}}
