# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for a held-out split.

An Italian developer ("Allora", "So: ...", chit-chat about trains and coffee) has Codex get the
`quaypost` Helm chart through helm lint and kubeconform (Kubernetes 1.29), then install it on a
kind cluster, where the pod goes into CrashLoopBackOff (a secret key mismatch, salient line in the
middle of the logs) and then fails readiness (wrong probe path). A migration hook Job that breaks
`helm upgrade` is still open at the end. Most calls are routine reads, greps and re-renders.
Run: python make_session.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/giulia/work/quaypost-deploy"
r = Rollout(CWD, "2026-02-17T09:05:12", seed="quaypost-helm", repo_url="git@gitlab.com:portlogic/quaypost-deploy.git")
C = "charts/quaypost"

CHART = """apiVersion: v2
name: quaypost
description: Port-call notifications for harbour agents
type: application
version: 0.7.3
appVersion: "2.4.1"
maintainers:
  - name: platform
    email: platform@portlogic.example
"""
VALUES = """replicaCount: 2

image:
  repository: registry.portlogic.example/quaypost
  tag: latest
  pullPolicy: Always

serviceAccount:
  create: true
  name: ""

service:
  type: ClusterIP
  port: 8080

ingress:
  enabled: false
  host: quaypost.local

db:
  existingSecret: quaypost-db
  secretKey: url

config:
  logLevel: info
  smtpHost: smtp.portlogic.example
  retentionDays: 30

probes:
  path: /healthz

autoscaling:
  enabled: true
  minReplicas: 2
  maxReplicas: 6
  targetCPUUtilizationPercentage: 70

migrations:
  enabled: true

resources:
  requests:
    cpu: 100m
    memory: 192Mi
  limits:
    memory: 384Mi
"""
VALUES_PROD = """# Managed by the platform team (Helmfile in platform-infra). Do not edit here.
replicaCount: 4
image:
  tag: "2.4.1"
  pullPolicy: IfNotPresent
ingress:
  enabled: true
  host: quaypost.portlogic.example
autoscaling:
  minReplicas: 4
  maxReplicas: 12
resources:
  requests:
    cpu: 250m
    memory: 256Mi
  limits:
    memory: 512Mi
"""
HELPERS = """{{- define "quaypost.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "quaypost.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "quaypost.labels" -}}
app.kubernetes.io/name: {{ include "quaypost.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end }}

{{- define "quaypost.selectorLabels" -}}
app.kubernetes.io/name: {{ include "quaypost.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
"""
DEPLOY = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "quaypost.fullname" . }}
  labels:
    {{- include "quaypost.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "quaypost.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "quaypost.selectorLabels" . | nindent 8 }}
      annotations:
        checksum/config: {{ include (print $.Template.BasePath "/configmap.yaml") . | sha256sum }}
    spec:
      serviceAccountName: {{ include "quaypost.fullname" . }}
      containers:
        - name: quaypost
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          ports:
            - name: http
              containerPort: 8080
          envFrom:
            - configMapRef:
                name: {{ include "quaypost.fullname" . }}
          env:
            - name: QUAYPOST_DB_URL
              valueFrom:
                secretKeyRef:
                  name: {{ .Values.db.existingSecret }}
                  key: {{ .Values.db.secretKey }}
          livenessProbe:
            httpGet:
              path: {{ .Values.probes.path }}
              port: http
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
"""
HPA = """{{- if .Values.autoscaling.enabled }}
apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "quaypost.fullname" . }}
  labels:
    {{- include "quaypost.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "quaypost.fullname" . }}
  minReplicas: {{ .Values.autoscaling.minReplicas }}
  maxReplicas: {{ .Values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        targetAverageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
"""
SVC = """apiVersion: v1
kind: Service
metadata:
  name: {{ include "quaypost.fullname" . }}
  labels:
    {{- include "quaypost.labels" . | nindent 4 }}
spec:
  type: {{ .Values.service.type }}
  ports:
    - port: {{ .Values.service.port }}
      targetPort: http
      name: http
  selector:
    {{- include "quaypost.selectorLabels" . | nindent 4 }}
"""
CM = """apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "quaypost.fullname" . }}
  labels:
    {{- include "quaypost.labels" . | nindent 4 }}
data:
  QUAYPOST_LOG_LEVEL: {{ .Values.config.logLevel | quote }}
  QUAYPOST_SMTP_HOST: {{ .Values.config.smtpHost | quote }}
  QUAYPOST_RETENTION_DAYS: {{ .Values.config.retentionDays | quote }}
"""
JOB = """{{- if .Values.migrations.enabled }}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "quaypost.fullname" . }}-migrate
  labels:
    {{- include "quaypost.labels" . | nindent 4 }}
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-weight": "-5"
spec:
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: migrate
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          args: ["migrate", "up"]
          env:
            - name: QUAYPOST_DB_URL
              valueFrom:
                secretKeyRef:
                  name: {{ .Values.db.existingSecret }}
                  key: {{ .Values.db.secretKey }}
{{- end }}
"""
SA = """{{- if .Values.serviceAccount.create }}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "quaypost.fullname" . }}
  labels:
    {{- include "quaypost.labels" . | nindent 4 }}
{{- end }}
"""
ING = """{{- if .Values.ingress.enabled }}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "quaypost.fullname" . }}
spec:
  rules:
    - host: {{ .Values.ingress.host }}
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service:
                name: {{ include "quaypost.fullname" . }}
                port:
                  name: http
{{- end }}
"""
r.files.update({
    f"{C}/Chart.yaml": CHART, f"{C}/values.yaml": VALUES, f"{C}/values-prod.yaml": VALUES_PROD,
    f"{C}/templates/_helpers.tpl": HELPERS, f"{C}/templates/deployment.yaml": DEPLOY, f"{C}/templates/hpa.yaml": HPA,
    f"{C}/templates/service.yaml": SVC, f"{C}/templates/configmap.yaml": CM, f"{C}/templates/job-migrate.yaml": JOB,
    f"{C}/templates/serviceaccount.yaml": SA, f"{C}/templates/ingress.yaml": ING,
    "Makefile": "CHART := charts/quaypost\nK8S := 1.29.0\n\nlint:\n\thelm lint $(CHART)\n\nvalidate:\n\thelm template qp $(CHART) | kubeconform -strict -summary -kubernetes-version $(K8S)\n",
    "README.md": "# quaypost-deploy\n\nHelm chart for quaypost. Prod values live in platform-infra (Helmfile); `values-prod.yaml` here is a copy they sync.\n",
    ".gitlab-ci.yml": "stages: [validate]\nvalidate:\n  image: registry.portlogic.example/ci/helm-tools:3.14\n  script:\n    - make lint\n    - make validate\n",
})


def rg(pattern: str, where: str = C) -> None:
    rx = re.compile(pattern)
    hits = []
    for path in sorted(r.files):
        if not path.startswith(where):
            continue
        for n, line in enumerate(r.files[path].splitlines(), 1):
            if rx.search(line):
                hits.append(f"{path}:{n}:{line}")
    r.run(f"rg -n '{pattern}' {where}", "\n".join(hits) + ("\n" if hits else ""), code=0 if hits else 1)


def ls(d: str) -> None:
    names = sorted({p[len(d) + 1:].split("/")[0] for p in r.files if p.startswith(d + "/")})
    r.run(f"ls {d}", "\n".join(names) + "\n")


def render(values: dict[str, str] | None = None, hpa_v2: bool = False, autoscale: bool = True, key: str = "url", probe: str = "/healthz", readiness: bool = False, tag: str = "latest", replicas: int = 2) -> str:
    """A hand-written `helm template qp charts/quaypost` output for the state of the chart."""
    labels = ('    app.kubernetes.io/name: quaypost\n    app.kubernetes.io/instance: qp\n'
              '    app.kubernetes.io/version: "2.4.1"\n    helm.sh/chart: quaypost-0.7.3\n')
    out = "---\n# Source: quaypost/templates/serviceaccount.yaml\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: qp-quaypost\n  labels:\n" + labels
    out += ("---\n# Source: quaypost/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: qp-quaypost\n  labels:\n" + labels +
            'data:\n  QUAYPOST_LOG_LEVEL: "info"\n  QUAYPOST_SMTP_HOST: "smtp.portlogic.example"\n  QUAYPOST_RETENTION_DAYS: "30"\n')
    out += ("---\n# Source: quaypost/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: qp-quaypost\n  labels:\n" + labels +
            "spec:\n  type: ClusterIP\n  ports:\n    - port: 8080\n      targetPort: http\n      name: http\n  selector:\n    app.kubernetes.io/name: quaypost\n    app.kubernetes.io/instance: qp\n")
    out += ("---\n# Source: quaypost/templates/deployment.yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: qp-quaypost\n  labels:\n" + labels +
            "spec:\n" + ("" if autoscale else f"  replicas: {replicas}\n") +
            "  selector:\n    matchLabels:\n      app.kubernetes.io/name: quaypost\n      app.kubernetes.io/instance: qp\n"
            "  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: quaypost\n        app.kubernetes.io/instance: qp\n"
            "      annotations:\n        checksum/config: 5f0e3c9a7d21b84e6c0f1a93d2b7e8c4a1f06d5b3e9c27a8f4d1b0e6c3a9f725\n"
            "    spec:\n      serviceAccountName: qp-quaypost\n      containers:\n        - name: quaypost\n"
            f'          image: "registry.portlogic.example/quaypost:{tag}"\n          imagePullPolicy: {"Always" if tag == "latest" else "IfNotPresent"}\n'
            "          ports:\n            - name: http\n              containerPort: 8080\n          envFrom:\n            - configMapRef:\n                name: qp-quaypost\n"
            f"          env:\n            - name: QUAYPOST_DB_URL\n              valueFrom:\n                secretKeyRef:\n                  name: quaypost-db\n                  key: {key}\n"
            f"          livenessProbe:\n            httpGet:\n              path: /healthz\n              port: http\n"
            + (f"          readinessProbe:\n            httpGet:\n              path: {probe}\n              port: http\n            periodSeconds: 5\n" if readiness else "")
            + "          resources:\n            limits:\n              memory: 384Mi\n            requests:\n              cpu: 100m\n              memory: 192Mi\n")
    if autoscale:
        out += ("---\n# Source: quaypost/templates/hpa.yaml\n" + f"apiVersion: autoscaling/{'v2' if hpa_v2 else 'v2beta2'}\n" + "kind: HorizontalPodAutoscaler\nmetadata:\n  name: qp-quaypost\n  labels:\n" + labels +
                "spec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: qp-quaypost\n  minReplicas: 2\n  maxReplicas: 6\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n"
                + ("        target:\n          type: Utilization\n          averageUtilization: 70\n" if hpa_v2 else "        targetAverageUtilization: 70\n"))
    out += ("---\n# Source: quaypost/templates/job-migrate.yaml\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: qp-quaypost-migrate\n  labels:\n" + labels +
            '  annotations:\n    "helm.sh/hook": pre-install,pre-upgrade\n    "helm.sh/hook-weight": "-5"\nspec:\n  backoffLimit: 1\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: migrate\n'
            f'          image: "registry.portlogic.example/quaypost:{tag}"\n          args: ["migrate", "up"]\n          env:\n            - name: QUAYPOST_DB_URL\n              valueFrom:\n                secretKeyRef:\n                  name: quaypost-db\n                  key: {key}\n')
    return out


# ============================================================================================ turn 1
r.user(
    "Buongiorno! Allora, we have the chart quaypost in charts/quaypost and next week it goes on the new cluster with Kubernetes 1.29. "
    "I need that it passes `helm lint` and `kubeconform` for 1.29 (strict), and after we try it for real on a kind cluster. "
    "Important: values-prod.yaml you do not touch, it is synced from the platform team Helmfile. "
    "Start to look and tell me what you find, don't change yet.",
    pause=0,
)
r.say("I'll look at the chart layout, the templates and the Makefile first.", reasoning="**Surveying the chart**")
ls(C)
ls(f"{C}/templates")
r.cat(f"{C}/Chart.yaml")
r.cat(f"{C}/values.yaml")
r.cat(f"{C}/values-prod.yaml")
r.cat("Makefile")
r.cat(".gitlab-ci.yml")
r.cat(f"{C}/templates/deployment.yaml")
r.cat(f"{C}/templates/hpa.yaml")
r.cat(f"{C}/templates/job-migrate.yaml")
r.cat(f"{C}/templates/_helpers.tpl")
r.run("helm version --short && kubeconform -v && kind version", "v3.14.4+g81c902a\nv0.6.7\nkind v0.22.0 go1.21.7 linux/amd64\n")
r.run("helm lint charts/quaypost", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n[WARNING] templates/hpa.yaml: autoscaling/v2beta2 HorizontalPodAutoscaler is deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler\n\n1 chart(s) linted, 0 chart(s) failed\n")
r.run("helm template qp charts/quaypost > /tmp/qp.yaml && wc -l /tmp/qp.yaml", f" {len(render().splitlines())} /tmp/qp.yaml\n")
r.run("cat /tmp/qp.yaml", render())
KC1 = (
    "stdin - ServiceAccount qp-quaypost is valid\n"
    "stdin - ConfigMap qp-quaypost is valid\n"
    "stdin - Service qp-quaypost is valid\n"
    "stdin - Deployment qp-quaypost is valid\n"
    "stdin - HorizontalPodAutoscaler qp-quaypost failed validation: could not find schema for HorizontalPodAutoscaler\n"
    "stdin - Job qp-quaypost-migrate is valid\n"
    "Summary: 6 resources found parsing stdin - Valid: 5, Invalid: 0, Errors: 1, Skipped: 0\n"
)
r.run("helm template qp charts/quaypost | kubeconform -strict -summary -verbose -kubernetes-version 1.29.0", KC1, code=1)
r.run("helm template qp charts/quaypost -f charts/quaypost/values-prod.yaml | kubeconform -strict -summary -kubernetes-version 1.29.0", "stdin - HorizontalPodAutoscaler qp-quaypost failed validation: could not find schema for HorizontalPodAutoscaler\nSummary: 7 resources found parsing stdin - Valid: 6, Invalid: 0, Errors: 1, Skipped: 0\n", code=1)
r.run("git log --oneline -6", "4b1e0d2 (HEAD -> main) bump appVersion 2.4.1\n9ac31f7 configmap: retention days\n27d5e88 migrate job as pre-upgrade hook\n0f6b2a1 hpa\nd41c8e3 service account\n3a9e7b0 initial chart\n")
r.say(
    "What I found, nothing changed yet:\n\n"
    "1. `templates/hpa.yaml` uses `autoscaling/v2beta2`. It was removed in Kubernetes 1.26, so on 1.29 kubeconform has no schema for it (the one error: `Summary: 6 resources found ... Valid: 5, Errors: 1`), and `helm lint` warns about it. The fix is `autoscaling/v2`, where `targetAverageUtilization` becomes `target: {type: Utilization, averageUtilization: ...}`.\n"
    "2. `values.yaml` has `image.tag: latest` with `pullPolicy: Always`; on kind that will try to pull from registry.portlogic.example.\n"
    "3. No readinessProbe, only a livenessProbe on `/healthz`.\n"
    "4. The migrate Job is a `pre-install,pre-upgrade` hook without a `hook-delete-policy`.\n"
    "5. Chart version 0.7.3, appVersion 2.4.1; tools: helm v3.14.4, kubeconform v0.6.7, kind v0.22.0."
)

# ============================================================================================ turn 2
r.user("Sorry, I was in a call. So: we fix the HPA to autoscaling/v2, and we add readiness probe. The latest tag, can we avoid it also in the default values? Put the appVersion as default when tag is empty, like the helm create does.")
r.patch([("update", f"{C}/templates/hpa.yaml", [("apiVersion: autoscaling/v2beta2", "apiVersion: autoscaling/v2"),
         ("        targetAverageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}", "        target:\n          type: Utilization\n          averageUtilization: {{ .Values.autoscaling.targetCPUUtilizationPercentage }}")])],
        reasoning="**Moving the HPA to autoscaling/v2**")
r.patch([("update", f"{C}/values.yaml", [("  tag: latest\n  pullPolicy: Always", '  # empty: the chart\'s appVersion\n  tag: ""\n  pullPolicy: IfNotPresent')]),
         ("update", f"{C}/templates/deployment.yaml", [('          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"', '          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"'),
                                                      ("              port: http\n          resources:", "              port: http\n          readinessProbe:\n            httpGet:\n              path: {{ .Values.probes.path }}\n              port: http\n            periodSeconds: 5\n          resources:")]),
         ("update", f"{C}/templates/job-migrate.yaml", [('          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"', '          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"')])])
rg("image.tag")
r.run("helm lint charts/quaypost", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\n")
r.run("helm template qp charts/quaypost | kubeconform -strict -summary -kubernetes-version 1.29.0", "Summary: 6 resources found parsing stdin - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0\n")
r.run("helm template qp charts/quaypost -f charts/quaypost/values-prod.yaml | kubeconform -strict -summary -kubernetes-version 1.29.0", "Summary: 7 resources found parsing stdin - Valid: 7, Invalid: 0, Errors: 0, Skipped: 0\n")
r.run("helm template qp charts/quaypost | grep -n 'image:'", '47:          image: "registry.portlogic.example/quaypost:2.4.1"\n124:          image: "registry.portlogic.example/quaypost:2.4.1"\n')
r.run("git diff --stat", " charts/quaypost/templates/deployment.yaml  | 7 ++++++-\n charts/quaypost/templates/hpa.yaml         | 6 ++++--\n charts/quaypost/templates/job-migrate.yaml | 2 +-\n charts/quaypost/values.yaml                | 5 +++--\n 4 files changed, 15 insertions(+), 5 deletions(-)\n")
r.say(
    "Done:\n\n- HPA is `autoscaling/v2` with `target.type: Utilization`, `averageUtilization: 70`.\n"
    "- `image.tag` defaults to empty and the templates use `.Values.image.tag | default .Chart.AppVersion`, so the default image is `quaypost:2.4.1`; `pullPolicy` is `IfNotPresent`.\n"
    "- readinessProbe added on the same `probes.path` (`/healthz`), period 5s.\n\n"
    "`helm lint` is clean (only the icon info) and kubeconform for 1.29.0 strict: Valid 6/6 with default values, 7/7 with values-prod.yaml (file not touched)."
)

# ============================================================================================ turn 2b: CI image (filler)
r.user("Scusa, another question before kind: the CI image helm-tools:3.14, does it have kubeconform and the schemas for 1.29? The runners have no internet.")
r.run("docker run --rm registry.portlogic.example/ci/helm-tools:3.14 sh -c 'helm version --short; kubeconform -v; ls /schemas | head'", "v3.14.4+g81c902a\nv0.6.4\nmaster-standalone-strict\nv1.25.0-standalone-strict\nv1.27.0-standalone-strict\n", secs=6.2)
r.run("docker run --rm registry.portlogic.example/ci/helm-tools:3.14 sh -c 'ls /schemas/v1.27.0-standalone-strict | wc -l; cat /etc/kubeconform.env 2>/dev/null'", "1186\nKUBECONFORM_SCHEMA_LOCATION=/schemas/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json\n", secs=2.1)
r.run("docker run --rm -v $PWD:/w -w /w registry.portlogic.example/ci/helm-tools:3.14 make validate", "helm template qp charts/quaypost | kubeconform -strict -summary -kubernetes-version 1.29.0\nstdin - ServiceAccount qp-quaypost failed validation: could not find schema for ServiceAccount\nstdin - ConfigMap qp-quaypost failed validation: could not find schema for ConfigMap\nstdin - Service qp-quaypost failed validation: could not find schema for Service\nstdin - Deployment qp-quaypost failed validation: could not find schema for Deployment\nstdin - HorizontalPodAutoscaler qp-quaypost failed validation: could not find schema for HorizontalPodAutoscaler\nstdin - Job qp-quaypost-migrate failed validation: could not find schema for Job\nSummary: 6 resources found parsing stdin - Valid: 0, Invalid: 0, Errors: 6, Skipped: 0\nmake: *** [Makefile:8: validate] Error 1\n", code=2, secs=3.4)
r.run("docker image inspect registry.portlogic.example/ci/helm-tools:3.14 --format '{{ index .Config.Labels \"org.opencontainers.image.source\" }}'", "https://gitlab.com/portlogic/ci-images/-/tree/main/helm-tools\n")
r.say(
    "No: the CI image has kubeconform v0.6.4 and offline schemas only for master, v1.25.0 and v1.27.0 (`/schemas`). With `-kubernetes-version 1.29.0` every resource fails with `could not find schema` (Valid 0, Errors 6), so `make validate` (which already says `K8S := 1.29.0`) fails in CI whatever the chart contains. "
    "The image comes from portlogic/ci-images (helm-tools). It needs v1.29.0-standalone-strict schemas added there; I can't do that from this repo."
)
r.user("Ok, this I ask to Davide from CI, not for you.")
r.say("Understood, I leave the CI image alone. Ready for the kind part when you are.")

# ============================================================================================ turn 3: kind
r.user("Perfetto. Now kind. Make a cluster quaypost-dev, same version 1.29, and install. For the DB there is a postgres manifest in hack/postgres.yaml I think. The image you have to build local from ../quaypost and kind load it, we have no pull secret for the registry.")
r.files["hack/postgres.yaml"] = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: quaypost-db\nstringData:\n  database-url: postgres://quaypost:quaypost@postgres:5432/quaypost?sslmode=disable\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: postgres\nspec:\n  serviceName: postgres\n  replicas: 1\n  selector:\n    matchLabels: {app: postgres}\n  template:\n    metadata:\n      labels: {app: postgres}\n    spec:\n      containers:\n        - name: postgres\n          image: postgres:16-alpine\n          env:\n            - {name: POSTGRES_USER, value: quaypost}\n            - {name: POSTGRES_PASSWORD, value: quaypost}\n            - {name: POSTGRES_DB, value: quaypost}\n          ports: [{containerPort: 5432}]\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: postgres\nspec:\n  selector: {app: postgres}\n  ports: [{port: 5432}]\n"
ls("hack")
r.cat("hack/postgres.yaml")
r.run("kind create cluster --name quaypost-dev --image kindest/node:v1.29.2 --wait 60s",
      "Creating cluster \"quaypost-dev\" ...\n ✓ Ensuring node image (kindest/node:v1.29.2) 🖼\n ✓ Preparing nodes 📦\n ✓ Writing configuration 📜\n ✓ Starting control-plane 🕹️\n ✓ Installing CNI 🔌\n ✓ Installing StorageClass 💾\n ✓ Waiting ≤ 1m0s for control-plane = Ready ⏳\n • Ready after 17s 💚\nSet kubectl context to \"kind-quaypost-dev\"\n", secs=41.2)
r.run("kubectl get nodes -o wide", "NAME                         STATUS   ROLES           AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION      CONTAINER-RUNTIME\nquaypost-dev-control-plane   Ready    control-plane   31s   v1.29.2   172.19.0.2    <none>        Debian GNU/Linux 12 (bookworm)   6.8.0-51-generic    containerd://1.7.13\n")
r.run("cd ../quaypost && git log --oneline -1 && docker build -q -t registry.portlogic.example/quaypost:2.4.1 .", "8d2e4f1 (tag: v2.4.1) release 2.4.1\nsha256:3c71f0a9be2d58c6e1a4f07d93b8e2c5d6a0f1b7e4c9d28a3f5b6e0c7d1a2b94\n", secs=63.0)
r.run("kind load docker-image registry.portlogic.example/quaypost:2.4.1 --name quaypost-dev", "Image: \"registry.portlogic.example/quaypost:2.4.1\" with ID \"sha256:3c71f0a9be2d58c6e1a4f07d93b8e2c5d6a0f1b7e4c9d28a3f5b6e0c7d1a2b94\" not yet present on node \"quaypost-dev-control-plane\", loading...\n", secs=9.8)
r.run("kubectl create namespace quaypost && kubectl -n quaypost apply -f hack/postgres.yaml", "namespace/quaypost created\nsecret/quaypost-db created\nstatefulset.apps/postgres created\nservice/postgres created\n")
r.run("kubectl -n quaypost rollout status statefulset/postgres --timeout=90s", "Waiting for 1 pods to be ready...\npartitioned roll out complete: 1 new pods updated...\n", secs=22.0)
r.run("helm install qp charts/quaypost -n quaypost --wait --timeout 3m",
      "Error: INSTALLATION FAILED: failed pre-install: 1 error occurred:\n\t* job qp-quaypost-migrate failed: BackoffLimitExceeded\n", code=1, secs=95.3)
r.run("kubectl -n quaypost get pods", "NAME                        READY   STATUS                       RESTARTS   AGE\npostgres-0                  1/1     Running                      0          2m4s\nqp-quaypost-migrate-7xk2p   0/1     CreateContainerConfigError   0          97s\nqp-quaypost-migrate-q9w4c   0/1     CreateContainerConfigError   0          61s\n")
DESCRIBE_JOB = (
    "Name:             qp-quaypost-migrate-7xk2p\nNamespace:        quaypost\nPriority:         0\nService Account:  default\nNode:             quaypost-dev-control-plane/172.19.0.2\n"
    "Start Time:       Tue, 17 Feb 2026 09:48:02 +0100\nLabels:           batch.kubernetes.io/controller-uid=1b7c2e9a-40d3-4f1e-9a8b-3e5c7d2f0a61\n                  batch.kubernetes.io/job-name=qp-quaypost-migrate\n                  controller-uid=1b7c2e9a-40d3-4f1e-9a8b-3e5c7d2f0a61\n                  job-name=qp-quaypost-migrate\n"
    "Annotations:      <none>\nStatus:           Pending\nIP:               10.244.0.7\nControlled By:  Job/qp-quaypost-migrate\n"
    "Containers:\n  migrate:\n    Container ID:\n    Image:         registry.portlogic.example/quaypost:2.4.1\n    Image ID:\n    Port:          <none>\n    Host Port:     <none>\n    Args:\n      migrate\n      up\n"
    "    State:          Waiting\n      Reason:       CreateContainerConfigError\n    Ready:          False\n    Restart Count:  0\n"
    "    Environment:\n      QUAYPOST_DB_URL:  <set to the key 'url' in secret 'quaypost-db'>  Optional: false\n"
    "    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-p2x8d (ro)\n"
    "Conditions:\n  Type                        Status\n  PodReadyToStartContainers   True\n  Initialized                 True\n  Ready                       False\n  ContainersReady             False\n  PodScheduled                True\n"
    "Volumes:\n  kube-api-access-p2x8d:\n    Type:                    Projected (a volume that contains injected data from multiple sources)\n    TokenExpirationSeconds:  3607\n    ConfigMapName:           kube-root-ca.crt\n"
    "QoS Class:                   BestEffort\nNode-Selectors:              <none>\nTolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n"
    "Events:\n  Type     Reason     Age                From               Message\n  ----     ------     ----               ----               -------\n"
    "  Normal   Scheduled  98s                default-scheduler  Successfully assigned quaypost/qp-quaypost-migrate-7xk2p to quaypost-dev-control-plane\n"
    "  Warning  Failed     12s (x9 over 97s)  kubelet            Error: couldn't find key url in Secret quaypost/quaypost-db\n"
    "  Normal   Pulled     12s (x9 over 97s)  kubelet            Container image \"registry.portlogic.example/quaypost:2.4.1\" already present on machine\n"
)
r.run("kubectl -n quaypost describe pod qp-quaypost-migrate-7xk2p", DESCRIBE_JOB)
r.say(
    "The install failed in the pre-install hook: the migrate pods sit in `CreateContainerConfigError` with `Error: couldn't find key url in Secret quaypost/quaypost-db`. "
    "The chart's default is `db.secretKey: url`, but hack/postgres.yaml creates the secret with the key `database-url`.\n\n"
    "Two ways: change the default `db.secretKey` in values.yaml to `database-url`, or make a `values-kind.yaml` that sets it for kind only. I don't know what key the prod secret uses; values-prod.yaml doesn't set `db.secretKey`, so prod gets the default too. Which do you prefer?"
)

# ============================================================================================ turn 4
r.user("Ah, good question. The prod secret is made by external-secrets and the key is `database-url` also there, I checked now in platform-infra. So: change the default in values.yaml to database-url. And yes, make a values-kind.yaml for the kind things (1 replica, no HPA).")
r.patch([("update", f"{C}/values.yaml", [("  secretKey: url", "  secretKey: database-url")]),
         ("add", f"{C}/values-kind.yaml", "# Local kind cluster (quaypost-dev): one replica, no autoscaling.\nreplicaCount: 1\nautoscaling:\n  enabled: false\nresources:\n  requests:\n    cpu: 50m\n    memory: 128Mi\n")])
r.run("helm uninstall qp -n quaypost; kubectl -n quaypost delete job qp-quaypost-migrate --ignore-not-found", "release \"qp\" uninstalled\njob.batch \"qp-quaypost-migrate\" deleted\n")
r.run("helm install qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait --timeout 3m",
      "Error: INSTALLATION FAILED: context deadline exceeded\n", code=1, secs=181.0)
for age, st, rs in [("41s", "Error", "1 (12s ago)"), ("1m20s", "CrashLoopBackOff", "2 (18s ago)"), ("2m2s", "CrashLoopBackOff", "3 (25s ago)")]:
    r.run("kubectl -n quaypost get pods -l app.kubernetes.io/instance=qp", f"NAME                           READY   STATUS    RESTARTS      AGE\nqp-quaypost-6d9c7b8f54-hx2lq   0/1     {st}   {rs}   {age}\n")
r.run("kubectl -n quaypost get pods", "NAME                           READY   STATUS             RESTARTS      AGE\npostgres-0                     1/1     Running            0             9m12s\nqp-quaypost-6d9c7b8f54-hx2lq   0/1     CrashLoopBackOff   5 (38s ago)   3m4s\n")
DESCRIBE_POD = (
    "Name:             qp-quaypost-6d9c7b8f54-hx2lq\nNamespace:        quaypost\nPriority:         0\nService Account:  qp-quaypost\nNode:             quaypost-dev-control-plane/172.19.0.2\n"
    "Start Time:       Tue, 17 Feb 2026 09:57:40 +0100\nLabels:           app.kubernetes.io/instance=qp\n                  app.kubernetes.io/name=quaypost\n                  pod-template-hash=6d9c7b8f54\n"
    "Annotations:      checksum/config: 5f0e3c9a7d21b84e6c0f1a93d2b7e8c4a1f06d5b3e9c27a8f4d1b0e6c3a9f725\nStatus:           Running\nIP:               10.244.0.11\nControlled By:  ReplicaSet/qp-quaypost-6d9c7b8f54\n"
    "Containers:\n  quaypost:\n    Container ID:   containerd://e0b4c7f1a92d3e58b6c0a1f7d4e29b83c5a60f1e7d2b9c4a8e3f0d6b1c7a2e59\n    Image:          registry.portlogic.example/quaypost:2.4.1\n    Port:           8080/TCP\n"
    "    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    78\n      Started:      Tue, 17 Feb 2026 10:00:06 +0100\n      Finished:     Tue, 17 Feb 2026 10:00:07 +0100\n"
    "    Ready:          False\n    Restart Count:  5\n    Limits:\n      memory:  384Mi\n    Requests:\n      cpu:     50m\n      memory:  128Mi\n"
    "    Liveness:     http-get http://:http/healthz delay=0s timeout=1s period=10s #success=1 #failure=3\n    Readiness:    http-get http://:http/healthz delay=0s timeout=1s period=5s #success=1 #failure=3\n"
    "    Environment Variables from:\n      qp-quaypost  ConfigMap  Optional: false\n    Environment:\n      QUAYPOST_DB_URL:  <set to the key 'database-url' in secret 'quaypost-db'>  Optional: false\n"
    "Conditions:\n  Type                        Status\n  PodReadyToStartContainers   True\n  Initialized                 True\n  Ready                       False\n  ContainersReady             False\n  PodScheduled                True\n"
    "Events:\n  Type     Reason     Age                  From               Message\n  ----     ------     ----                 ----               -------\n"
    "  Normal   Scheduled  3m5s                 default-scheduler  Successfully assigned quaypost/qp-quaypost-6d9c7b8f54-hx2lq to quaypost-dev-control-plane\n"
    "  Normal   Pulled     84s (x5 over 3m4s)   kubelet            Container image \"registry.portlogic.example/quaypost:2.4.1\" already present on machine\n"
    "  Normal   Created    84s (x5 over 3m4s)   kubelet            Created container quaypost\n  Normal   Started    84s (x5 over 3m4s)   kubelet            Started container quaypost\n"
    "  Warning  BackOff    12s (x14 over 2m58s) kubelet            Back-off restarting failed container quaypost in pod qp-quaypost-6d9c7b8f54-hx2lq_quaypost(7c3f1e2a-9b0d-4e6f-a1c8-5d2b7e9f0a34)\n"
)
r.run("kubectl -n quaypost describe pod qp-quaypost-6d9c7b8f54-hx2lq", DESCRIBE_POD)
LOGS = (
    "time=2026-02-17T09:00:06.912Z level=INFO msg=\"quaypost starting\" version=2.4.1 commit=8d2e4f1\n"
    "time=2026-02-17T09:00:06.913Z level=INFO msg=\"config loaded\" log_level=info retention_days=30 smtp_host=smtp.portlogic.example\n"
    "time=2026-02-17T09:00:06.913Z level=INFO msg=\"connecting to database\" host=postgres port=5432 db=quaypost\n"
    "time=2026-02-17T09:00:06.925Z level=INFO msg=\"database connected\" pool_size=10\n"
    "time=2026-02-17T09:00:06.927Z level=INFO msg=\"schema check\" expected=41 found=41\n"
    "time=2026-02-17T09:00:06.931Z level=ERROR msg=\"cannot create spool directory\" path=/var/lib/quaypost/spool err=\"mkdir /var/lib/quaypost: permission denied\"\n"
    "time=2026-02-17T09:00:06.931Z level=INFO msg=\"shutting down\" reason=\"startup failed\"\n"
    "time=2026-02-17T09:00:06.932Z level=INFO msg=\"database pool closed\"\n"
    "time=2026-02-17T09:00:06.932Z level=INFO msg=\"bye\" exit_code=78\n"
)
r.run("kubectl -n quaypost logs qp-quaypost-6d9c7b8f54-hx2lq --previous", LOGS)
r.run("kubectl -n quaypost logs job/qp-quaypost-migrate", "time=2026-02-17T08:57:31.402Z level=INFO msg=\"migrations\" applied=41 pending=0\n")
r.run("cd ../quaypost && rg -n 'spool' --type go | head", "internal/spool/spool.go:22:const DefaultDir = \"/var/lib/quaypost/spool\"\ninternal/spool/spool.go:31:\tdir := env.Get(\"QUAYPOST_SPOOL_DIR\", DefaultDir)\ninternal/config/config.go:58:\tSpoolDir string `env:\"QUAYPOST_SPOOL_DIR\"`\n")
r.run("cd ../quaypost && sed -n '1,30p' Dockerfile", "FROM golang:1.22-alpine AS build\nWORKDIR /src\nCOPY . .\nRUN CGO_ENABLED=0 go build -o /out/quaypost ./cmd/quaypost\n\nFROM gcr.io/distroless/static-debian12:nonroot\nCOPY --from=build /out/quaypost /quaypost\nUSER nonroot:nonroot\nEXPOSE 8080\nENTRYPOINT [\"/quaypost\"]\nCMD [\"serve\"]\n")
r.say(
    "The secret key is fixed (migrations ran: `applied=41 pending=0`), but now the app pod is in CrashLoopBackOff, exit code 78. In the logs, between the normal start lines, the cause: "
    "`cannot create spool directory path=/var/lib/quaypost/spool err=\"mkdir /var/lib/quaypost: permission denied\"`. "
    "The image is distroless `nonroot` and has no writable /var/lib/quaypost; the app takes the directory from `QUAYPOST_SPOOL_DIR`.\n\n"
    "Fix I propose: an `emptyDir` volume mounted at `/var/lib/quaypost/spool` in the Deployment. In prod the old cluster probably had a hostPath or the image was different; I don't see it in this chart."
)

# ============================================================================================ turn 5
r.user("Yes emptyDir is ok, the spool is only a buffer for the mails, we don't need persistence. But please not hardcode the path in two places, put it in values.")
r.patch([("update", f"{C}/values.yaml", [("migrations:\n  enabled: true", "migrations:\n  enabled: true\n\nspool:\n  # emptyDir; only a buffer for outgoing mail\n  dir: /var/lib/quaypost/spool\n  sizeLimit: 256Mi")]),
         ("update", f"{C}/templates/configmap.yaml", [("  QUAYPOST_RETENTION_DAYS: {{ .Values.config.retentionDays | quote }}", "  QUAYPOST_RETENTION_DAYS: {{ .Values.config.retentionDays | quote }}\n  QUAYPOST_SPOOL_DIR: {{ .Values.spool.dir | quote }}")]),
         ("update", f"{C}/templates/deployment.yaml", [("          resources:\n            {{- toYaml .Values.resources | nindent 12 }}", "          volumeMounts:\n            - name: spool\n              mountPath: {{ .Values.spool.dir }}\n          resources:\n            {{- toYaml .Values.resources | nindent 12 }}\n      volumes:\n        - name: spool\n          emptyDir:\n            sizeLimit: {{ .Values.spool.sizeLimit }}")])])
r.run("helm lint charts/quaypost -f charts/quaypost/values-kind.yaml", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\n")
r.run("helm template qp charts/quaypost -f charts/quaypost/values-kind.yaml | kubeconform -strict -summary -kubernetes-version 1.29.0", "Summary: 5 resources found parsing stdin - Valid: 5, Invalid: 0, Errors: 0, Skipped: 0\n")
r.run("helm upgrade qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait --timeout 3m",
      "Error: UPGRADE FAILED: pre-upgrade hooks failed: 1 error occurred:\n\t* Job.batch \"qp-quaypost-migrate\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{ObjectMeta:v1.ObjectMeta{Name:\"\", GenerateName:\"\", Namespace:\"\", SelfLink:\"\", UID:\"\", ResourceVersion:\"\", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{\"batch.kubernetes.io/controller-uid\":\"1b7c2e9a-40d3-4f1e-9a8b-3e5c7d2f0a61\", \"batch.kubernetes.io/job-name\":\"qp-quaypost-migrate\"}, ...}: field is immutable\n",
      code=1, secs=3.1)
r.say(
    "The upgrade fails before touching the Deployment: the pre-upgrade hook tries to update the existing `qp-quaypost-migrate` Job, and a Job's `spec.template` is immutable. "
    "The hook has no `helm.sh/hook-delete-policy`, so the Job from the install stays and blocks every upgrade. The usual fix is `\"helm.sh/hook-delete-policy\": before-hook-creation,hook-succeeded`. Shall I add it?"
)

# ============================================================================================ turn 6
r.user("Mmm no, wait. The hooks I don't want to change without Marco, he wrote the migration part and he has opinions. Leave the hook, delete the job by hand for now and continue. I write to him.")
r.run("kubectl -n quaypost delete job qp-quaypost-migrate", "job.batch \"qp-quaypost-migrate\" deleted\n")
r.run("helm upgrade qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait --timeout 3m",
      "Error: UPGRADE FAILED: context deadline exceeded\n", code=1, secs=180.4)
r.run("kubectl -n quaypost get pods", "NAME                           READY   STATUS    RESTARTS   AGE\npostgres-0                     1/1     Running   0          21m\nqp-quaypost-5b8f6c4d97-m2vtn   0/1     Running   0          3m2s\n")
EVENTS = (
    "LAST SEEN   TYPE      REASON              OBJECT                              MESSAGE\n"
    "3m4s        Normal    SuccessfulCreate    job/qp-quaypost-migrate             Created pod: qp-quaypost-migrate-l8d3k\n"
    "2m58s       Normal    Completed           job/qp-quaypost-migrate             Job completed\n"
    "2m57s       Normal    ScalingReplicaSet   deployment/qp-quaypost              Scaled up replica set qp-quaypost-5b8f6c4d97 to 1\n"
    "2m57s       Normal    Scheduled           pod/qp-quaypost-5b8f6c4d97-m2vtn    Successfully assigned quaypost/qp-quaypost-5b8f6c4d97-m2vtn to quaypost-dev-control-plane\n"
    "2m56s       Normal    Pulled              pod/qp-quaypost-5b8f6c4d97-m2vtn    Container image \"registry.portlogic.example/quaypost:2.4.1\" already present on machine\n"
    "2m56s       Normal    Created             pod/qp-quaypost-5b8f6c4d97-m2vtn    Created container quaypost\n"
    "2m56s       Normal    Started             pod/qp-quaypost-5b8f6c4d97-m2vtn    Started container quaypost\n"
    "2m1s        Warning   Unhealthy           pod/qp-quaypost-5b8f6c4d97-m2vtn    Readiness probe failed: HTTP probe failed with statuscode: 503\n"
    "7s          Warning   Unhealthy           pod/qp-quaypost-5b8f6c4d97-m2vtn    Readiness probe failed: HTTP probe failed with statuscode: 503\n"
)
r.run("kubectl -n quaypost get events --sort-by=.lastTimestamp | tail -10", EVENTS)
r.run("kubectl -n quaypost logs deploy/qp-quaypost | tail -8",
      "time=2026-02-17T09:14:51.204Z level=INFO msg=\"spool ready\" dir=/var/lib/quaypost/spool\n"
      "time=2026-02-17T09:14:51.205Z level=INFO msg=\"http listening\" addr=:8080\n"
      "time=2026-02-17T09:14:51.206Z level=WARN msg=\"smtp not reachable\" host=smtp.portlogic.example err=\"dial tcp: lookup smtp.portlogic.example on 10.96.0.10:53: no such host\"\n"
      "time=2026-02-17T09:14:56.207Z level=INFO msg=\"GET /healthz\" status=503 reason=\"smtp down\"\n"
      "time=2026-02-17T09:15:01.208Z level=INFO msg=\"GET /healthz\" status=503 reason=\"smtp down\"\n"
      "time=2026-02-17T09:15:06.209Z level=INFO msg=\"GET /healthz\" status=503 reason=\"smtp down\"\n")
r.run("cd ../quaypost && rg -n 'HandleFunc\\(\"/(healthz|readyz|livez)' internal/http", "internal/http/routes.go:18:\tmux.HandleFunc(\"/livez\", s.live)\ninternal/http/routes.go:19:\tmux.HandleFunc(\"/readyz\", s.ready)\ninternal/http/routes.go:20:\tmux.HandleFunc(\"/healthz\", s.health) // deprecated: full check incl. smtp\n")
r.run("cd ../quaypost && sed -n '30,52p' internal/http/health.go",
      "// live: the process is up (no dependencies).\nfunc (s *Server) live(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }\n\n"
      "// ready: database reachable. SMTP is not needed to accept requests; mail is spooled.\nfunc (s *Server) ready(w http.ResponseWriter, r *http.Request) {\n\tif err := s.db.PingContext(r.Context()); err != nil {\n\t\thttp.Error(w, \"db down\", http.StatusServiceUnavailable)\n\t\treturn\n\t}\n\tw.WriteHeader(http.StatusOK)\n}\n\n"
      "// health: deprecated since 2.3; everything, including SMTP.\nfunc (s *Server) health(w http.ResponseWriter, r *http.Request) {\n\tif err := s.checkAll(r.Context()); err != nil {\n\t\thttp.Error(w, err.Error(), http.StatusServiceUnavailable)\n\t\treturn\n\t}\n\tw.WriteHeader(http.StatusOK)\n}\n")
r.say(
    "Running now, but never Ready: the readiness probe on `/healthz` gets 503 because `/healthz` also checks SMTP, and smtp.portlogic.example doesn't resolve inside kind. "
    "Since 2.3 the app has `/livez` (process only) and `/readyz` (database only, mail is spooled), and `/healthz` is deprecated. "
    "Proposal: liveness on `/livez`, readiness on `/readyz`, as two values (`probes.livenessPath`, `probes.readinessPath`). With liveness on `/healthz` the pod would even be restarted whenever SMTP is down."
)

# ============================================================================================ turn 7
r.user("Yes do it. Oh, and the coffee machine on our floor is broken since Monday, so if I write strange it's the reason 😅")
r.patch([("update", f"{C}/values.yaml", [("probes:\n  path: /healthz", "probes:\n  livenessPath: /livez\n  readinessPath: /readyz")]),
         ("update", f"{C}/templates/deployment.yaml", [("          livenessProbe:\n            httpGet:\n              path: {{ .Values.probes.path }}", "          livenessProbe:\n            httpGet:\n              path: {{ .Values.probes.livenessPath }}"),
                                                      ("          readinessProbe:\n            httpGet:\n              path: {{ .Values.probes.path }}", "          readinessProbe:\n            httpGet:\n              path: {{ .Values.probes.readinessPath }}")])],
        reasoning="**Splitting liveness and readiness paths**")
rg("probes\\.")
r.run("kubectl -n quaypost delete job qp-quaypost-migrate --ignore-not-found && helm upgrade qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait --timeout 3m",
      "job.batch \"qp-quaypost-migrate\" deleted\nRelease \"qp\" has been upgraded. Happy Helming!\nNAME: qp\nLAST DEPLOYED: Tue Feb 17 10:21:40 2026\nNAMESPACE: quaypost\nSTATUS: deployed\nREVISION: 4\nTEST SUITE: None\n", secs=24.0)
r.run("kubectl -n quaypost get pods,svc", "NAME                               READY   STATUS    RESTARTS   AGE\npod/postgres-0                     1/1     Running   0          29m\npod/qp-quaypost-7f4d9b6c85-r8kzq   1/1     Running   0          21s\n\nNAME               TYPE        CLUSTER-IP      EXTERNAL-IP   PORT(S)    AGE\nservice/postgres   ClusterIP   10.96.41.200    <none>        5432/TCP   29m\nservice/qp-quaypost ClusterIP  10.96.118.37    <none>        8080/TCP   16m\n")
r.run("kubectl -n quaypost port-forward svc/qp-quaypost 18080:8080 >/tmp/pf.log 2>&1 & sleep 2; curl -s -o /dev/null -w '%{http_code}\\n' localhost:18080/readyz; curl -s -o /dev/null -w '%{http_code}\\n' localhost:18080/livez; curl -s -o /dev/null -w '%{http_code}\\n' localhost:18080/healthz", "200\n200\n503\n")
r.say(
    "Sorry to hear about the coffee. The release is up: revision 4, pod `1/1 Running`, 0 restarts. Through a port-forward `/readyz` and `/livez` answer 200, `/healthz` still 503 (SMTP unreachable in kind, expected). "
    "Note: I had to delete the migrate Job by hand again before the upgrade (the hook problem is still there, waiting for Marco)."
)

# ============================================================================================ turn 7b: env keys (filler)
r.user("While we are there: the ConfigMap keys, are they all really read by the app? I remember QUAYPOST_RETENTION_DAYS was renamed once.")
for key in ["QUAYPOST_LOG_LEVEL", "QUAYPOST_SMTP_HOST", "QUAYPOST_RETENTION_DAYS", "QUAYPOST_SPOOL_DIR", "QUAYPOST_DB_URL"]:
    r.run(f"cd ../quaypost && rg -n '{key}' internal cmd | head -5", {
        "QUAYPOST_LOG_LEVEL": "internal/config/config.go:41:\tLogLevel string `env:\"QUAYPOST_LOG_LEVEL\" default:\"info\"`\n",
        "QUAYPOST_SMTP_HOST": "internal/config/config.go:44:\tSMTPHost string `env:\"QUAYPOST_SMTP_HOST\"`\n",
        "QUAYPOST_RETENTION_DAYS": "internal/config/config.go:52:\t// Deprecated: QUAYPOST_RETENTION_DAYS, use QUAYPOST_RETENTION (a duration). Still read in 2.x.\ninternal/config/config.go:53:\tRetentionDays int `env:\"QUAYPOST_RETENTION_DAYS\"`\n",
        "QUAYPOST_SPOOL_DIR": "internal/config/config.go:58:\tSpoolDir string `env:\"QUAYPOST_SPOOL_DIR\"`\n",
        "QUAYPOST_DB_URL": "internal/config/config.go:38:\tDBURL string `env:\"QUAYPOST_DB_URL,required\"`\n",
    }[key])
r.run("cd ../quaypost && sed -n '36,62p' internal/config/config.go", "type Config struct {\n\t// required\n\tDBURL string `env:\"QUAYPOST_DB_URL,required\"`\n\n\t// logging\n\tLogLevel string `env:\"QUAYPOST_LOG_LEVEL\" default:\"info\"`\n\n\t// mail\n\tSMTPHost string `env:\"QUAYPOST_SMTP_HOST\"`\n\tSMTPPort int    `env:\"QUAYPOST_SMTP_PORT\" default:\"587\"`\n\n\t// retention\n\tRetention time.Duration `env:\"QUAYPOST_RETENTION\" default:\"720h\"`\n\t// Deprecated: QUAYPOST_RETENTION_DAYS, use QUAYPOST_RETENTION (a duration). Still read in 2.x.\n\tRetentionDays int `env:\"QUAYPOST_RETENTION_DAYS\"`\n\n\t// spool\n\tSpoolDir string `env:\"QUAYPOST_SPOOL_DIR\"`\n}\n")
r.run("cd ../quaypost && git log --oneline -S'QUAYPOST_RETENTION\\b' | tail -2", "51c0e2a config: QUAYPOST_RETENTION as duration, RETENTION_DAYS deprecated\n")
r.run("cd ../quaypost && git describe --contains 51c0e2a", "v2.3.0~4\n")
r.run("kubectl -n quaypost exec deploy/qp-quaypost -- /quaypost config print 2>/dev/null | grep -i retention", "retention: 720h0m0s (from QUAYPOST_RETENTION_DAYS=30)\n")
r.say(
    "All four ConfigMap keys are read. `QUAYPOST_RETENTION_DAYS` is deprecated since 2.3.0 in favour of `QUAYPOST_RETENTION` (a Go duration, default 720h) but still read in 2.x; the running pod reports `retention: 720h0m0s (from QUAYPOST_RETENTION_DAYS=30)`. "
    "I left it as it is; switching it is a values change for prod too."
)

# ============================================================================================ turn 7c: HPA in kind (filler)
r.user("Ok leave it. Can we see the HPA working in kind? Only as a test, values-kind stays without HPA.")
r.run("kubectl top pods -n quaypost", "error: Metrics API not available\n", code=1)
r.run("kubectl apply -f https://github.com/kubernetes-sigs/metrics-server/releases/download/v0.7.1/components.yaml", "serviceaccount/metrics-server created\nclusterrole.rbac.authorization.k8s.io/system:aggregated-metrics-reader created\nclusterrole.rbac.authorization.k8s.io/system:metrics-server created\nrolebinding.rbac.authorization.k8s.io/metrics-server-auth-reader created\nclusterrolebinding.rbac.authorization.k8s.io/metrics-server:system:auth-delegator created\nclusterrolebinding.rbac.authorization.k8s.io/system:metrics-server created\nservice/metrics-server created\ndeployment.apps/metrics-server created\napiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io created\n")
r.run("kubectl -n kube-system patch deploy metrics-server --type=json -p '[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/0/args/-\",\"value\":\"--kubelet-insecure-tls\"}]'", "deployment.apps/metrics-server patched\n")
r.run("kubectl -n kube-system rollout status deploy/metrics-server --timeout=90s", "deployment \"metrics-server\" successfully rolled out\n", secs=31.0)
for i in range(3):
    r.run("kubectl top pods -n quaypost", "NAME                           CPU(cores)   MEMORY(bytes)\npostgres-0                     3m           41Mi\nqp-quaypost-7f4d9b6c85-r8kzq   2m           23Mi\n" if i else "error: metrics not available yet\n", code=0 if i else 1)
r.run("kubectl -n quaypost delete job qp-quaypost-migrate --ignore-not-found && helm upgrade qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --set autoscaling.enabled=true --set autoscaling.minReplicas=1 --set autoscaling.maxReplicas=3 --wait --timeout 3m", "job.batch \"qp-quaypost-migrate\" deleted\nRelease \"qp\" has been upgraded. Happy Helming!\nREVISION: 5\nSTATUS: deployed\n", secs=14.0)
r.run("kubectl -n quaypost run load --image=busybox:1.36 --restart=Never -- /bin/sh -c 'while true; do wget -q -O- http://qp-quaypost:8080/readyz >/dev/null; done'", "pod/load created\n")
for i, (cpu, rep) in enumerate([("2%/70%", 1), ("88%/70%", 1), ("131%/70%", 2), ("74%/70%", 2), ("69%/70%", 3)]):
    r.run("kubectl -n quaypost get hpa qp-quaypost", f"NAME          REFERENCE                TARGETS         MINPODS   MAXPODS   REPLICAS   AGE\nqp-quaypost   Deployment/qp-quaypost   cpu: {cpu}   1         3         {rep}          {40 + 30 * i}s\n")
r.run("kubectl -n quaypost delete pod load", "pod \"load\" deleted\n")
r.run("kubectl -n quaypost delete job qp-quaypost-migrate --ignore-not-found && helm upgrade qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait --timeout 3m", "job.batch \"qp-quaypost-migrate\" deleted\nRelease \"qp\" has been upgraded. Happy Helming!\nREVISION: 6\nSTATUS: deployed\n", secs=12.0)
r.run("kubectl -n quaypost get hpa,deploy", "NAME                          READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/qp-quaypost   1/1     1            1           47m\n")
r.say(
    "The autoscaling/v2 HPA works on 1.29: with a busybox loop on `/readyz` it went from 1 to 3 replicas (cpu peaked at 131% of the 70% target). "
    "Then I removed the load pod and upgraded back to plain values-kind.yaml (revision 6): no HPA, 1 replica. metrics-server v0.7.1 stays installed in kind (with `--kubelet-insecure-tls`)."
)

# ============================================================================================ turn 8: routine checks
r.user("Good. Now run everything again from zero please, lint and kubeconform with the three values files, and check that prod render is the same as before except the things we wanted")
r.run("git stash -q && helm template qp charts/quaypost -f charts/quaypost/values-prod.yaml > /tmp/prod-before.yaml; git stash pop -q && helm template qp charts/quaypost -f charts/quaypost/values-prod.yaml > /tmp/prod-after.yaml; diff -u /tmp/prod-before.yaml /tmp/prod-after.yaml",
      "--- /tmp/prod-before.yaml\n+++ /tmp/prod-after.yaml\n@@ -16,6 +16,7 @@\n   QUAYPOST_LOG_LEVEL: \"info\"\n   QUAYPOST_SMTP_HOST: \"smtp.portlogic.example\"\n   QUAYPOST_RETENTION_DAYS: \"30\"\n+  QUAYPOST_SPOOL_DIR: \"/var/lib/quaypost/spool\"\n"
      "@@ -79,7 +80,7 @@\n       annotations:\n-        checksum/config: 5f0e3c9a7d21b84e6c0f1a93d2b7e8c4a1f06d5b3e9c27a8f4d1b0e6c3a9f725\n+        checksum/config: a84c1e07f3b29d56e0c7a1f4b8d3e92c5f60a7b1d4e8c93f2a6b0d5e7c1f3a48\n"
      "@@ -99,15 +100,27 @@\n           env:\n             - name: QUAYPOST_DB_URL\n               valueFrom:\n                 secretKeyRef:\n                   name: quaypost-db\n-                  key: url\n+                  key: database-url\n           livenessProbe:\n             httpGet:\n-              path: /healthz\n+              path: /livez\n               port: http\n+          readinessProbe:\n+            httpGet:\n+              path: /readyz\n+              port: http\n+            periodSeconds: 5\n+          volumeMounts:\n+            - name: spool\n+              mountPath: /var/lib/quaypost/spool\n           resources:\n             limits:\n               memory: 512Mi\n             requests:\n               cpu: 250m\n               memory: 256Mi\n+      volumes:\n+        - name: spool\n+          emptyDir:\n+            sizeLimit: 256Mi\n"
      "@@ -130,7 +143,7 @@\n-apiVersion: autoscaling/v2beta2\n+apiVersion: autoscaling/v2\n kind: HorizontalPodAutoscaler\n@@ -150,4 +163,6 @@\n         name: cpu\n-        targetAverageUtilization: 70\n+        target:\n+          type: Utilization\n+          averageUtilization: 70\n", code=1)
for vf in ["", " -f charts/quaypost/values-kind.yaml", " -f charts/quaypost/values-prod.yaml"]:
    r.run(f"helm lint charts/quaypost{vf}", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\n")
    n = {"": 6, " -f charts/quaypost/values-kind.yaml": 5, " -f charts/quaypost/values-prod.yaml": 7}[vf]
    r.run(f"helm template qp charts/quaypost{vf} | kubeconform -strict -summary -kubernetes-version 1.29.0", f"Summary: {n} resources found parsing stdin - Valid: {n}, Invalid: 0, Errors: 0, Skipped: 0\n")
r.run("git diff --quiet -- charts/quaypost/values-prod.yaml && echo untouched", "untouched\n")
r.say(
    "All clean from zero. `helm lint` passes for default, kind and prod values, and kubeconform 1.29.0 strict gives Valid 6/6 (default), 5/5 (kind: no HPA) and 7/7 (prod). values-prod.yaml untouched.\n\n"
    "The prod render diff contains only what we wanted: `QUAYPOST_SPOOL_DIR` in the ConfigMap (so the config checksum changes), secret key `database-url`, liveness `/livez`, new readiness `/readyz`, the spool emptyDir (256Mi), and the HPA on `autoscaling/v2`. "
    "Important for prod: the checksum change means every pod restarts on the first deploy."
)

# ============================================================================================ turn 9: NOTES and chart bump
r.user("Allora: add a NOTES.txt with the port-forward command, and bump the chart version. Minor or patch? we changed the values keys for probes, so...")
r.say("A renamed values key (`probes.path` → `probes.livenessPath`/`probes.readinessPath`) breaks anyone who sets `probes.path`, so by the chart's semver that's at least a minor bump in 0.x: 0.7.3 → 0.8.0. Checking whether anyone sets it.")
r.run("rg -n 'probes' charts/quaypost/values-prod.yaml ../platform-infra/helmfile.d/ 2>/dev/null", "../platform-infra/helmfile.d/quaypost.yaml:14:      probes:\n../platform-infra/helmfile.d/quaypost.yaml:15:        path: /healthz\n", code=0)
r.run("sed -n '1,30p' ../platform-infra/helmfile.d/quaypost.yaml", "releases:\n  - name: quaypost\n    namespace: quaypost\n    chart: portlogic/quaypost\n    version: ~0.7.0\n    values:\n      - values-prod.yaml\n      - replicaCount: 4\n    set:\n      - name: image.tag\n        value: \"2.4.1\"\n    valuesTemplate:\n      - podAnnotations: {}\n      probes:\n        path: /healthz\n")
r.say(
    "platform-infra's helmfile sets `probes.path: /healthz` for quaypost (helmfile.d/quaypost.yaml line 15). With the rename that value would be silently ignored in prod (and `/livez`/`/readyz` used instead, which is what we want anyway), but they pin `version: ~0.7.0`, so they only get it when they move to 0.8. "
    "So 0.8.0 is right, and platform should drop `probes.path` when they bump."
)
r.patch([("update", f"{C}/Chart.yaml", [("version: 0.7.3", "version: 0.8.0")]),
         ("add", f"{C}/templates/NOTES.txt", "quaypost {{ .Chart.AppVersion }} is installed as {{ include \"quaypost.fullname\" . }} in {{ .Release.Namespace }}.\n\nTry it:\n  kubectl -n {{ .Release.Namespace }} port-forward svc/{{ include \"quaypost.fullname\" . }} 18080:{{ .Values.service.port }}\n  curl localhost:18080/readyz\n")])
r.run("helm lint charts/quaypost && helm template qp charts/quaypost | kubeconform -strict -summary -kubernetes-version 1.29.0", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\nSummary: 6 resources found parsing stdin - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0\n")
r.say("Chart version 0.8.0 and NOTES.txt with the port-forward and curl lines. Lint and kubeconform still clean.")

# ============================================================================================ turn 10: filler review
r.user("Can you do a last review of all the templates, I want to be sure nothing else is deprecated for 1.29 or strange.")
for t in ["_helpers.tpl", "deployment.yaml", "hpa.yaml", "service.yaml", "configmap.yaml", "job-migrate.yaml", "serviceaccount.yaml", "ingress.yaml", "NOTES.txt"]:
    r.cat(f"{C}/templates/{t}")
for pat in ["apiVersion:", "extensions/|v1beta1|v2beta", "\\.Values\\.[a-zA-Z.]+", "nindent|indent", "toYaml", "tpl ", "lookup"]:
    rg(pat, f"{C}/templates")
r.run("helm template qp charts/quaypost --set ingress.enabled=true | kubeconform -strict -summary -kubernetes-version 1.29.0", "Summary: 7 resources found parsing stdin - Valid: 7, Invalid: 0, Errors: 0, Skipped: 0\n")
r.run("helm template qp charts/quaypost --api-versions networking.k8s.io/v1/Ingress --set ingress.enabled=true | grep -A3 'kind: Ingress'", "kind: Ingress\nmetadata:\n  name: qp-quaypost\nspec:\n")
r.cat(f"{C}/values.yaml")
r.cat(f"{C}/values-kind.yaml")
r.cat(f"{C}/Chart.yaml")
r.run("helm lint --strict charts/quaypost", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\n")
r.run("helm lint --strict charts/quaypost -f charts/quaypost/values-prod.yaml", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\n")
r.run("helm package charts/quaypost -d /tmp && tar tzf /tmp/quaypost-0.8.0.tgz", "Successfully packaged chart and saved it to: /tmp/quaypost-0.8.0.tgz\nquaypost/Chart.yaml\nquaypost/values.yaml\nquaypost/templates/NOTES.txt\nquaypost/templates/_helpers.tpl\nquaypost/templates/configmap.yaml\nquaypost/templates/deployment.yaml\nquaypost/templates/hpa.yaml\nquaypost/templates/ingress.yaml\nquaypost/templates/job-migrate.yaml\nquaypost/templates/service.yaml\nquaypost/templates/serviceaccount.yaml\nquaypost/values-kind.yaml\nquaypost/values-prod.yaml\n")
r.run("ls -a charts/quaypost", ".\n..\nChart.yaml\ntemplates\nvalues-kind.yaml\nvalues-prod.yaml\nvalues.yaml\n")
r.run("helm template qp charts/quaypost --set migrations.enabled=false | grep -c '^kind:'", "5\n")
r.run("helm template qp charts/quaypost --set resources=null 2>&1 | grep -A2 'resources:'", "          resources:\n            null\n      volumes:\n")
r.run("helm template qp charts/quaypost --show-only templates/hpa.yaml --set autoscaling.enabled=false 2>&1", "Error: could not find template templates/hpa.yaml in chart\n", code=1)
r.run("pluto detect-helm -o wide 2>/dev/null || pluto detect - < <(helm template qp charts/quaypost -f charts/quaypost/values-prod.yaml)", "There were no resources found with known deprecated apiVersions.\n")
r.say(
    "Review done, nothing else deprecated for 1.29: all apiVersions are v1, apps/v1, batch/v1, networking.k8s.io/v1 and autoscaling/v2, and pluto finds nothing. Two small things I noticed but did not change:\n\n"
    "- The ServiceAccount template honours `serviceAccount.create` but the Deployment always uses the fullname; `serviceAccount.name` in values is never read.\n"
    "- The Ingress has no `ingressClassName`; on the new cluster that only works if there is a default IngressClass."
)

# ============================================================================================ turn 11
r.user("The serviceAccount.name, fix it please, it's a bug. The ingressClassName leave, in prod they use the default class.")
r.patch([("update", f"{C}/templates/_helpers.tpl", [('{{- define "quaypost.selectorLabels" -}}', '{{- define "quaypost.serviceAccountName" -}}\n{{- if .Values.serviceAccount.create }}\n{{- default (include "quaypost.fullname" .) .Values.serviceAccount.name }}\n{{- else }}\n{{- default "default" .Values.serviceAccount.name }}\n{{- end }}\n{{- end }}\n\n{{- define "quaypost.selectorLabels" -}}')]),
         ("update", f"{C}/templates/deployment.yaml", [('      serviceAccountName: {{ include "quaypost.fullname" . }}', '      serviceAccountName: {{ include "quaypost.serviceAccountName" . }}')]),
         ("update", f"{C}/templates/serviceaccount.yaml", [('  name: {{ include "quaypost.fullname" . }}', '  name: {{ include "quaypost.serviceAccountName" . }}')])])
for sets, want in [("", "qp-quaypost"), (" --set serviceAccount.name=qp-sender", "qp-sender"), (" --set serviceAccount.create=false", "default"), (" --set serviceAccount.create=false --set serviceAccount.name=shared", "shared")]:
    r.run(f"helm template qp charts/quaypost{sets} | grep -E '^  name:|serviceAccountName' | sort -u", f"  name: qp-quaypost\n      serviceAccountName: {want}\n" + (f"  name: {want}\n" if want not in ("qp-quaypost", "default", "shared") else ""))
r.run("helm lint charts/quaypost && helm template qp charts/quaypost | kubeconform -strict -summary -kubernetes-version 1.29.0", "==> Linting charts/quaypost\n[INFO] Chart.yaml: icon is recommended\n\n1 chart(s) linted, 0 chart(s) failed\nSummary: 6 resources found parsing stdin - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0\n")
r.say("Fixed: new helper `quaypost.serviceAccountName` (fullname or `serviceAccount.name` when creating; `serviceAccount.name` or `default` when not), used by the Deployment and the ServiceAccount. The four combinations render as expected. Ingress class left alone.")

# ============================================================================================ turn 12: commit
r.user("Ok commit on a branch chart-1.29, I open the MR myself. Message in english please.")
r.run("git status --short", " M charts/quaypost/Chart.yaml\n M charts/quaypost/templates/_helpers.tpl\n M charts/quaypost/templates/configmap.yaml\n M charts/quaypost/templates/deployment.yaml\n M charts/quaypost/templates/hpa.yaml\n M charts/quaypost/templates/job-migrate.yaml\n M charts/quaypost/templates/serviceaccount.yaml\n M charts/quaypost/values.yaml\n?? charts/quaypost/templates/NOTES.txt\n?? charts/quaypost/values-kind.yaml\n")
r.run("git branch --show-current && git fetch -q origin && git log --oneline -1 origin/main", "main\n4b1e0d2 bump appVersion 2.4.1\n")
r.run("git switch -c chart-1.29 && git add -A charts/quaypost && git commit -qm 'quaypost chart 0.8.0: autoscaling/v2, probes on /livez and /readyz, spool emptyDir, secret key database-url, values-kind.yaml' && git log --oneline -1",
      "Switched to a new branch 'chart-1.29'\n6f2d9a4 (HEAD -> chart-1.29) quaypost chart 0.8.0: autoscaling/v2, probes on /livez and /readyz, spool emptyDir, secret key database-url, values-kind.yaml\n")
r.run("git show --stat HEAD | tail -11", " charts/quaypost/Chart.yaml                    |  2 +-\n charts/quaypost/templates/NOTES.txt           |  5 +++++\n charts/quaypost/templates/_helpers.tpl        |  8 ++++++++\n charts/quaypost/templates/configmap.yaml      |  1 +\n charts/quaypost/templates/deployment.yaml     | 22 ++++++++++++++++++----\n charts/quaypost/templates/hpa.yaml            |  6 ++++--\n charts/quaypost/templates/job-migrate.yaml    |  2 +-\n charts/quaypost/templates/serviceaccount.yaml |  2 +-\n charts/quaypost/values-kind.yaml              |  8 ++++++++\n charts/quaypost/values.yaml                   | 16 +++++++++++-----\n 10 files changed, 59 insertions(+), 14 deletions(-)\n")
r.say("Committed 6f2d9a4 on the new branch `chart-1.29`, not pushed; the MR is yours.")

# ============================================================================================ turn 13: Marco
r.user("Marco answered: he wants to think about the hook, maybe he moves migrations to an initContainer. So it stays open. Meanwhile can you write in the README how to do the kind setup? And later we need a ServiceMonitor for prometheus, but not today.")
r.cat("README.md")
r.patch([("update", "README.md", [("is a copy they sync.\n", "is a copy they sync.\n\n## Local cluster (kind)\n\n```sh\nkind create cluster --name quaypost-dev --image kindest/node:v1.29.2\n(cd ../quaypost && docker build -t registry.portlogic.example/quaypost:2.4.1 .)\nkind load docker-image registry.portlogic.example/quaypost:2.4.1 --name quaypost-dev\nkubectl create namespace quaypost\nkubectl -n quaypost apply -f hack/postgres.yaml\nhelm install qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait\n```\n\nKnown issue: `helm upgrade` fails on the migrate hook Job (`field is immutable`) until the hook gets a delete policy; delete it first with `kubectl -n quaypost delete job qp-quaypost-migrate`.\n")])])
r.run("git add README.md && git commit -qm 'README: kind setup' && git log --oneline -2", "b13e7c0 (HEAD -> chart-1.29) README: kind setup\n6f2d9a4 quaypost chart 0.8.0: autoscaling/v2, probes on /livez and /readyz, spool emptyDir, secret key database-url, values-kind.yaml\n")
r.say(
    "README has a \"Local cluster (kind)\" section with the six commands and the known upgrade issue; committed b13e7c0 on chart-1.29.\n\n"
    "Open: the migrate hook (Marco decides: delete policy or initContainer) and, later, a ServiceMonitor for Prometheus (not started)."
)

# ============================================================================================ turn 14: a last upgrade check (filler + open error confirmed)
r.user("Last thing: try one more helm upgrade without deleting the job, only to confirm the error for Marco, copy me the exact message.")
r.run("helm upgrade qp charts/quaypost -n quaypost -f charts/quaypost/values-kind.yaml --wait --timeout 3m 2>&1 | head -3",
      "Error: UPGRADE FAILED: pre-upgrade hooks failed: 1 error occurred:\n\t* Job.batch \"qp-quaypost-migrate\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable\n", code=1)
r.run("helm history qp -n quaypost", "REVISION\tUPDATED                 \tSTATUS  \tCHART         \tAPP VERSION\tDESCRIPTION\n1       \tTue Feb 17 09:57:38 2026\tfailed  \tquaypost-0.7.3\t2.4.1      \tInstallation failed: context deadline exceeded\n2       \tTue Feb 17 10:06:12 2026\tfailed  \tquaypost-0.7.3\t2.4.1      \tUpgrade \"qp\" failed: pre-upgrade hooks failed\n3       \tTue Feb 17 10:11:47 2026\tfailed  \tquaypost-0.7.3\t2.4.1      \tUpgrade \"qp\" failed: context deadline exceeded\n4       \tTue Feb 17 10:21:40 2026\tsuperseded\tquaypost-0.7.3\t2.4.1      \tUpgrade complete\n5       \tTue Feb 17 10:38:02 2026\tsuperseded\tquaypost-0.7.3\t2.4.1      \tUpgrade complete\n6       \tTue Feb 17 10:44:51 2026\tdeployed\tquaypost-0.7.3\t2.4.1      \tUpgrade complete\n7       \tTue Feb 17 11:02:19 2026\tfailed  \tquaypost-0.8.0\t2.4.1      \tUpgrade \"qp\" failed: pre-upgrade hooks failed\n")
r.run("kubectl -n quaypost get pods", "NAME                           READY   STATUS    RESTARTS   AGE\npostgres-0                     1/1     Running   0          74m\nqp-quaypost-7f4d9b6c85-r8kzq   1/1     Running   0          41m\n")
r.say(
    "Confirmed, for Marco:\n\n"
    "`Error: UPGRADE FAILED: pre-upgrade hooks failed: 1 error occurred: * Job.batch \"qp-quaypost-migrate\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable`\n\n"
    "Revision 7 (chart 0.8.0) is marked failed; revision 6 (chart 0.7.3, values-kind) keeps running (pod 1/1, no restarts). The kind cluster quaypost-dev is still up if he wants to try."
)

r.save(HERE / "session.jsonl")
print(f"{len(r.lines)} lines, {r.calls} tool calls")
