# ruff: noqa: E501
"""Labels for codex-helm-quaypost-chart, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "quaypost Helm chart: helm lint + kubeconform for Kubernetes 1.29, kind install through CrashLoopBackOff and readiness failures, a migration hook that blocks helm upgrade",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the round-4 held-out split (heldout4b)",
    "voice": "Italian-flavoured English (Allora, Perfetto, Scusa), decisions with \"So:\", questions as constraints, chit-chat about calls and a broken coffee machine",
    "toolchain": "Helm 3.14, kubeconform 0.6 (Kubernetes 1.29 schemas), kind 0.22 (kindest/node v1.29.2), kubectl describe/logs/events, metrics-server, pluto, docker",
}
COMPACTIONS = [
    ("The install failed in the pre-install hook", 3000),
    ("Sorry to hear about the coffee. The release is up", 3000),
    ("Committed 6f2d9a4 on the new branch", 3000),
]
FACTS = [
    f("h01", "request", "must", "I need that it passes `helm lint` and `kubeconform` for 1.29", "The chart must pass helm lint and kubeconform (strict) for Kubernetes 1.29, then be tried on a kind cluster (done).", [r"kubeconform|helm lint", r"1\.29"], "done"),
    f("h02", "constraint", "must", "values-prod.yaml you do not touch", "Never edit values-prod.yaml: it is synced from the platform team's Helmfile.", [r"values-prod", r"\bnot\b|never|don.?t|untouched|platform|leave"]),
    f("h03", "error", "must", "Summary: 6 resources found parsing stdin - Valid: 5, Invalid: 0, Errors: 1", "kubeconform 1.29: no schema for the HorizontalPodAutoscaler, because templates/hpa.yaml used autoscaling/v2beta2 (removed in 1.26).", [r"v2beta2|HorizontalPodAutoscaler|HPA", r"schema|removed|deprecat"], "fixed"),
    f("h04", "decision", "must", "So: we fix the HPA to autoscaling/v2, and we add readiness probe", "So: HPA moves to autoscaling/v2 (target.type Utilization, averageUtilization 70) and a readiness probe is added.", [r"autoscaling/v2(?!beta)|HPA.{0,40}\bv2\b", r"HPA|HorizontalPodAutoscaler|readiness"]),
    f("h05", "constraint", "must", "The latest tag, can we avoid it also in the default values?", "No `latest` image tag, also in the default values: an empty tag defaults to the chart's appVersion.", [r"latest", r"avoid|\bno\b|\bnot\b|instead|appVersion|default"]),
    f("h06", "fix", "should", "- `image.tag` defaults to empty and the templates use", "image.tag defaults to empty and templates use `.Values.image.tag | default .Chart.AppVersion` (quaypost:2.4.1); pullPolicy IfNotPresent.", [r"appVersion|2\.4\.1", r"\btag"]),
    f("h07", "value", "should", "All clean from zero.", "kubeconform 1.29.0 strict: Valid 6/6 default, 5/5 kind (no HPA), 7/7 prod; helm lint clean for all three values files.", [r"6/6|7/7|5/5", r"valid|kubeconform"]),
    f("h08", "constraint", "should", "The image you have to build local from ../quaypost and kind load it", "On kind, build the image locally from ../quaypost and `kind load` it: there is no pull secret for the registry.", [r"kind load|build", r"pull secret|local|registry"]),
    f("h09", "value", "should", 'Set kubectl context to "kind-quaypost-dev"', "kind cluster quaypost-dev runs kindest/node v1.29.2 (context kind-quaypost-dev).", [r"quaypost-dev", r"v?1\.29\.2|kind"]),
    f("h10", "error", "must", "kubelet            Error: couldn't find key url", "Install failed in the pre-install migrate hook: CreateContainerConfigError, `couldn't find key url in Secret quaypost/quaypost-db` (the secret's key is database-url).", [r"\burl\b|database-url|secret", r"couldn.?t find|key|mismatch|CreateContainerConfigError"], "fixed"),
    f("h11", "decision", "must", "So: change the default in values.yaml to database-url", "So: default db.secretKey in values.yaml is database-url (prod's external-secrets secret uses database-url too).", [r"database-url", r"secretKey|secret|key|default"]),
    f("h12", "request", "should", "make a values-kind.yaml for the kind things", "values-kind.yaml for kind: 1 replica, no HPA (done).", [r"values-kind", r"replica|HPA|autoscal"], "done"),
    f("h13", "error", "must", 'msg="cannot create spool directory"', "CrashLoopBackOff (exit 78): `cannot create spool directory /var/lib/quaypost/spool: mkdir /var/lib/quaypost: permission denied` (distroless nonroot image).", [r"spool|/var/lib/quaypost", r"permission denied|cannot create|CrashLoop"], "fixed"),
    f("h14", "fix", "must", "Fix I propose: an `emptyDir` volume mounted", "Fix: an emptyDir volume for the spool dir (values spool.dir /var/lib/quaypost/spool, sizeLimit 256Mi; QUAYPOST_SPOOL_DIR in the ConfigMap).", [r"emptyDir", r"spool"]),
    f("h15", "constraint", "should", "please not hardcode the path in two places, put it in values", "Don't hardcode the spool path in two places; it lives in values.", [r"hard-?cod|two places|in values|values\.yaml|spool\.dir", r"spool|path"]),
    f("h16", "finding", "nice", "the spool is only a buffer for the mails", "The spool is only a buffer for outgoing mail; no persistence needed.", [r"spool", r"buffer|persist"]),
    f("h17", "error", "must", "DeletionGracePeriodSeconds:(*int64)(nil)", "Open: helm upgrade fails in the pre-upgrade hook: Job qp-quaypost-migrate spec.template is immutable (hook has no hook-delete-policy). Workaround: delete the Job by hand before each upgrade.", [r"immutable|hook-delete-policy", r"migrate|hook|Job|upgrade"], "open"),
    f("h18", "constraint", "must", "The hooks I don't want to change without Marco", "Don't change the helm hooks without Marco (he wrote the migrations); delete the Job by hand meanwhile.", [r"Marco", r"hook"]),
    f("h19", "error", "should", "Readiness probe failed: HTTP probe failed with statuscode: 503", "Pod never Ready: readiness on /healthz returns 503 because /healthz also checks SMTP, unreachable in kind.", [r"readiness|503", r"probe|healthz|SMTP"], "fixed"),
    f("h20", "fix", "must", "Running now, but never Ready", "Fix: liveness on /livez, readiness on /readyz (values probes.livenessPath / probes.readinessPath replace probes.path); /healthz is deprecated since 2.3.", [r"/readyz|/livez|readinessPath|livenessPath", r"readiness|liveness|probe"]),
    f("h21", "value", "should", "Sorry to hear about the coffee. The release is up", "Release up on kind: revision 4, pod 1/1 Running; /readyz and /livez 200, /healthz 503.", [r"revision 4|1/1|200", r"readyz|livez|running"]),
    f("h22", "finding", "should", "All four ConfigMap keys are read.", "QUAYPOST_RETENTION_DAYS is deprecated since 2.3.0 (QUAYPOST_RETENTION duration, 720h) but still read; left as is.", [r"RETENTION", r"deprecat|left|leave"]),
    f("h23", "value", "nice", "The autoscaling/v2 HPA works on 1.29", "HPA test on kind went 1 -> 3 replicas (cpu 131% of 70%); back to values-kind (revision 6); metrics-server v0.7.1 stays installed.", [r"HPA|replicas|metrics-server", r"131|1 to 3|1 ?-> ?3|v0\.7\.1"]),
    f("h24", "finding", "must", "No: the CI image has kubeconform v0.6.4", "CI image helm-tools:3.14 has kubeconform v0.6.4 and offline schemas only for master/1.25/1.27, so `make validate` with 1.29.0 fails in CI; needs a change in portlogic/ci-images.", [r"\bCI\b|helm-tools", r"schema", r"1\.29|1\.27|1\.25"]),
    f("h25", "decision", "should", "Ok, this I ask to Davide from CI, not for you.", "The CI image schemas are Davide's (CI) job, not the agent's.", [r"Davide", r"\bCI\b|schema|image|ask"]),
    f("h26", "finding", "should", "Important for prod: the checksum change", "The prod render diff has only the intended changes, but the config checksum changes, so every pod restarts on the first prod deploy.", [r"checksum", r"restart"]),
    f("h27", "decision", "should", "So 0.8.0 is right", "Chart version bumped 0.7.3 -> 0.8.0 (minor: the probes values key was renamed).", [r"0\.8\.0", r"minor|bump|version|chart"]),
    f("h28", "finding", "must", "platform-infra's helmfile sets `probes.path: /healthz`", "platform-infra's helmfile sets probes.path: /healthz for quaypost and pins ~0.7.0; platform must drop probes.path when moving to 0.8.", [r"platform|helmfile", r"probes\.path"]),
    f("h29", "request", "should", "add a NOTES.txt with the port-forward command", "NOTES.txt with the port-forward command (done).", [r"NOTES"], "done"),
    f("h30", "fix", "should", "Fixed: new helper `quaypost.serviceAccountName`", "Bug fixed: serviceAccount.name was never read; new helper quaypost.serviceAccountName used by Deployment and ServiceAccount.", [r"serviceAccount(\.name|Name)", r"helper|fix|read|used"]),
    f("h31", "decision", "should", "The ingressClassName leave, in prod they use the default class.", "No ingressClassName on the Ingress: prod uses the default IngressClass.", [r"ingressClass", r"default|leave|left|\bnot?\b"]),
    f("h32", "value", "must", "Committed 6f2d9a4 on the new branch", "Committed 6f2d9a4 on new branch chart-1.29, not pushed; the user opens the MR.", [r"6f2d9a4|chart-1\.29", r"commit|branch"]),
    f("h33", "constraint", "should", "Ok commit on a branch chart-1.29, I open the MR myself", "Commit on branch chart-1.29; the user opens the MR herself (commit message in English).", [r"\bMR\b|merge request", r"myself|user|hersel|themsel|\byou\b|not push"]),
    f("h34", "state", "must", "Marco answered: he wants to think about the hook", "Still open: the migrate hook; Marco is deciding (delete policy, or moving migrations to an initContainer).", [r"initContainer|Marco", r"hook|migrat"], "open"),
    f("h35", "request", "should", "later we need a ServiceMonitor for prometheus", "Later, not today: a ServiceMonitor for Prometheus (not started).", [r"ServiceMonitor", r"later|not (today|yet|started)|open|prometheus"], "open"),
    f("h36", "request", "should", "can you write in the README how to do the kind setup", "README section on the kind setup (done, with the known upgrade issue).", [r"README", r"kind"], "done"),
    f("h37", "value", "should", "README has a \"Local cluster (kind)\" section", "README kind section committed as b13e7c0 on chart-1.29.", [r"b13e7c0"]),
    f("h38", "value", "should", "Confirmed, for Marco:", "Confirmed for Marco: the upgrade without deleting the Job fails with `field is immutable`; revision 7 (chart 0.8.0) failed, revision 6 keeps running.", [r"revision 7|revision 6|immutable", r"fail|running|Marco"]),
    f("h39", "value", "nice", "What I found, nothing changed yet:", "Starting point: chart 0.7.3, appVersion 2.4.1; helm v3.14.4, kubeconform v0.6.7, kind v0.22.0.", [r"0\.7\.3|2\.4\.1|v3\.14\.4|v0\.6\.7", r"chart|appVersion|helm|kubeconform"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
