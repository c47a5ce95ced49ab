# ruff: noqa: E501
"""Labels for pi-kustomize-rookery, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "rookery-deploy (Kustomize, game match-server fleet): prod-ap Singapore overlay, commonLabels/patchesStrategicMerge migration, PDB + matchmaker HPA component, staging configMap fix, validate.sh with k8s 1.30 for ap, anti-affinity; 150 tool calls",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6b test split",
    "voice": "senior platform engineer, terse imperative lower-case lines without punctuation, \"never mind\" to own replica count",
    "toolchain": "kustomize 5.4.3, kubeconform 0.6.7 (-strict, k8s 1.29.0 / 1.30.0), kubectl against kind and GKE staging, metrics-server on kind, crane, GitHub Actions",
}
COMPACTIONS = [
    ("Migration done, no deprecation warnings left:", 1500),
    ("kind: staging overlay applied to `kind-rookery`", 1500),
    ("Staging applied (context `gke_rookery-stg_europe-west4_stg-1`)", 1500),
]
FACTS = [
    f("k01", "request", "must", "add overlay prod-ap singapore copy of prod-eu", "Add a new overlay overlays/prod-ap for Singapore, copied from prod-eu.", [r"prod-ap", r"singapore|overlay|prod-eu"], "done"),
    f("k02", "constraint", "should", "kustomize 5.4.3 only thats what ci has", "Use kustomize 5.4.3 only (the version CI pins).", [r"5\.4\.3", r"kustomize|CI"]),
    f("k03", "constraint", "must", "never kubectl apply against prod contexts", "Never kubectl apply against a prod context (prod-eu-1, prod-us-1, prod-ap-1); applies only to kind-rookery or staging.", [r"apply", r"prod", r"never|not|only|kind|staging"]),
    f("k04", "constraint", "must", "prod overlays pin images by digest no tags", "Prod overlays pin images by digest, never by tag.", [r"digest", r"tags?|pin|prod"]),
    f("k05", "finding", "should", "Read-only look done (only `get` against the ap cluster", "The ap cluster has no match-c2 node pool: its match pool is match-n2d (4 nodes, same dedicated=match NoSchedule taint); namespace rookery-prod did not exist there.", [r"match-n2d", r"match-c2|pool|taint|ap"]),
    f("k06", "value", "nice", "CURRENT   NAME", "kubectl contexts: prod gke_rookery-prod_{europe-west4_prod-eu-1, us-central1_prod-us-1, asia-southeast1_prod-ap-1}, staging gke_rookery-stg_europe-west4_stg-1 (current, ns rookery-staging), kind-rookery.", [r"stg-1|kind-rookery|asia-southeast1", r"context|gke_|kind"]),
    f("k07", "value", "should", "images by digest (server `sha256:7d1c0e9a", "Current prod digests (eu and us): rookery-server sha256:7d1c0e9a..., rookery-matchmaker sha256:2e4a6c8e...", [r"7d1c0e9a|2e4a6c8e", r"digest|sha256|server|matchmaker"]),
    f("k08", "decision", "must", "ap1 yes nodepool match-n2d", "prod-ap: REGION_CODE=ap1, node pool match-n2d (with the dedicated=match toleration), 2 matchmakers, same digests as eu for now, Namespace rookery-prod created by the overlay (namespace.yaml).", [r"ap1|REGION_CODE|match-n2d", r"ap|pool|namespace"]),
    f("k09", "decision", "should", "6 match servers 2 matchmakers", "First: 6 match-servers in prod-ap (later reduced to 4).", [r"\b6\b|six", r"match[- ]?servers?|replicas"], "reversed"),
    f("k10", "path", "should", "overlays/prod-ap is in place: kustomization.yaml", "overlays/prod-ap holds kustomization.yaml (region ap, REGION_CODE=ap1), replicas.yaml, nodepool.yaml (match-n2d + toleration) and namespace.yaml.", [r"prod-ap", r"namespace\.yaml|nodepool\.yaml|replicas\.yaml|kustomization"]),
    f("k11", "constraint", "must", "commonLabels is a problem. it also goes into selectors", "Migrate all overlays off commonLabels and patchesStrategicMerge (commonLabels goes into immutable selectors); rendered output must stay byte for byte the same; the region label only on metadata, not selectors.", [r"commonLabels|patchesStrategicMerge", r"labels|patches|migrat|byte|selector"], "done"),
    f("k12", "finding", "should", "Two of your requirements conflict", "Conflict found: today's rendered selectors (Service selectors, matchLabels) carry every commonLabel incl. the region label; removing it from deployed eu/us Deployments would be an immutable spec.selector change.", [r"selectors?", r"immutable|conflict|region"]),
    f("k13", "decision", "must", "B. eu us staging byte identical. ap region label metadata only", "Option B: staging/eu/us keep identical renders (labels with includeSelectors: true); only the new prod-ap puts region: ap in a second labels entry with includeSelectors: false (metadata only).", [r"includeSelectors|byte[- ]identical|metadata only", r"prod-ap|\bap\b|region"]),
    f("k14", "error", "should", "`kustomize edit fix` rewrote the files but **dropped the comment**", "kustomize edit fix drops YAML comments: the '# DO NOT bump without a change ticket in #rookery-ops' comment on images was lost and restored by hand in prod-eu and prod-ap.", [r"edit fix|comment", r"drop|lost|restor|DO NOT bump"], "fixed"),
    f("k15", "command", "should", "kustomize build overlays/staging | kubeconform", "Validation: kustomize build overlays/<o> | kubeconform -strict -summary -kubernetes-version 1.29.0 - (now wrapped in scripts/validate.sh).", [r"kubeconform", r"strict|1\.29|kustomize build|validate"]),
    f("k16", "state", "should", "staging, prod-eu, prod-us render **byte-identical**", "After the migration staging, prod-eu and prod-us rendered byte-identical (cmp against /tmp/rk/before-*.yaml); prod-ap's region label is in no selector; no deprecation warnings.", [r"byte[- ]identical|cmp|identical", r"staging|prod-eu|prod-us|render"]),
    f("k17", "request", "must", "pdb for match-server in base maxUnavailable 1", "PodDisruptionBudget for match-server in base with maxUnavailable 1 (base/pdb.yaml, policy/v1).", [r"PDB|PodDisruptionBudget", r"maxUnavailable|\b1\b|base"], "done"),
    f("k18", "request", "must", "hpa for matchmaker prod overlays only min 2 max 10 cpu 70", "HPA for matchmaker in prod overlays only: min 2, max 10, CPU 70%, as a Kustomize component, not copied three times.", [r"HPA|HorizontalPodAutoscaler|autoscal", r"component|min 2|max 10|70"], "done"),
    f("k19", "error", "should", "additional properties 'targetAverageUtilization' not allowed", "kubeconform rejected the HPA: 'targetAverageUtilization' not allowed in autoscaling/v2; fixed with target: {type: Utilization, averageUtilization: 70}.", [r"targetAverageUtilization|averageUtilization", r"not allowed|invalid|v2|target"], "fixed"),
    f("k20", "path", "should", "PDB (`base/pdb.yaml`, policy/v1, maxUnavailable 1", "components/matchmaker-hpa (kind Component, hpa.yaml) is referenced by prod-eu, prod-us and prod-ap; base/pdb.yaml added to base resources.", [r"matchmaker-hpa|components/", r"prod|component|overlay"]),
    f("k21", "decision", "should", "remove it. eu us also? that changes their render", "matchmaker replicas removed from all prod replicas.yaml patches (with an HPA every apply would reset it to 2); accepted render change for eu/us.", [r"replicas", r"matchmaker|remov|render|HPA"], "done"),
    f("k22", "finding", "nice", "eu/us render changes are now only", "eu/us render changes are only: + PDB, + HPA, - matchmaker replicas: 2.", [r"PDB|HPA", r"replicas|render|only"]),
    f("k23", "request", "should", "now kind. apply staging overlay to kind-rookery", "Apply the staging overlay to kind-rookery and check pods; kubectl diff against the staging cluster without applying.", [r"kind", r"staging|diff"], "done"),
    f("k24", "error", "must", "ERROR config: required variable MAX_PLAYERS_PER_MATCH is not set", "On kind both pods crash-looped with exit 78: 'required variable MAX_PLAYERS_PER_MATCH is not set' / REGION_CODE not set, because staging's configMapGenerator used behavior: replace and dropped the base keys.", [r"MAX_PLAYERS_PER_MATCH|REGION_CODE|exit 78|CrashLoop", r"not set|78|required|replace"], "fixed"),
    f("k25", "finding", "should", "Found it, and it is not from today's changes", "behavior: replace came from commit 61a9c07 (Mirela, 26 Sep, 'staging: LOG_LEVEL debug') and was never applied to staging, which still ran rookery-config-4h7mdk2b9t with all five keys.", [r"61a9c07|never applied|4h7mdk2b9t|Mirela", r"staging|replace|applied"]),
    f("k26", "fix", "should", "Fix: `behavior: merge` with only `LOG_LEVEL=debug`", "Fix: staging configMapGenerator uses behavior: merge with only LOG_LEVEL=debug (exception to the byte-identical rule).", [r"merge", r"staging|LOG_LEVEL|configMapGenerator|behavior"]),
    f("k27", "value", "nice", "kind: staging overlay applied to `kind-rookery`", "Staging's new ConfigMap is rookery-config-m6d2t9c8hb (old live one rookery-config-4h7mdk2b9t); kubectl diff showed only the ConfigMap switch and the new PDB, no selector changes.", [r"m6d2t9c8hb", r"4h7mdk2b9t|ConfigMap|config"]),
    f("k28", "request", "should", "first test the hpa on kind", "Test the HPA on kind first with a throwaway overlay in /tmp (not in the repo); staging apply waits.", [r"HPA", r"kind|/tmp|throwaway"], "done"),
    f("k29", "finding", "nice", "kustomize's load restrictor refuses a component outside", "kustomize's load restrictor refuses components outside the kustomization root; the /tmp test overlays are built with --load-restrictor LoadRestrictionsNone.", [r"load[- ]?restrict", r"LoadRestrictionsNone|outside|root"]),
    f("k30", "error", "nice", "As expected kind has no metrics-server", "kind had no metrics-server (HPA cpu <unknown>); installed metrics-server v0.7.1 with --kubelet-insecure-tls (x509: no IP SANs); it stays on kind-rookery.", [r"metrics-server", r"kind|insecure|v0\.7\.1|x509"], "fixed"),
    f("k31", "value", "should", "HPA works on kind (throwaway overlay", "HPA test on kind: 2 -> 5 -> 7 replicas under load (cpu 148%), back to 2 about 5 minutes after the load stopped; one matchmaker saturates at ~380m on a 250m request.", [r"148%|380m|\b7\b|5 minutes", r"HPA|scal|replicas?|matchmaker"]),
    f("k32", "request", "must", "never mind the 6 ap servers. 4 until the asia match pool gets bigger", "Never mind 6: prod-ap runs 4 match-servers until the Asia match pool grows (4 n2d-standard-8 nodes, one server per node).", [r"\b4\b|four", r"ap|match[- ]?servers?|replicas"], "done"),
    f("k33", "value", "nice", "gke-prod-ap-1-match-n2d-8c1e3f-2kqv   n2d-standard-8", "ap match pool: 4 n2d-standard-8 nodes with 7910m allocatable CPU each (a server requests 2 CPU).", [r"n2d-standard-8|7910m"]),
    f("k34", "state", "should", "Staging applied (context `gke_rookery-stg_europe-west4_stg-1`)", "Staging applied: ConfigMap rookery-config-m6d2t9c8hb, both Deployments rolled out (match-server ~14 min, 900 s grace), PDB created; old ConfigMap rookery-config-4h7mdk2b9t left in place.", [r"staging", r"applied|rolled out"]),
    f("k35", "decision", "nice", "leave the old cm. ap runs 1.30 check", "Leave the old staging ConfigMap (rookery-config-4h7mdk2b9t) in place.", [r"old (cm|configmap)|4h7mdk2b9t", r"leave|left|keep"]),
    f("k36", "request", "must", "ci must validate prod-ap against 1.30 others stay 1.29", "CI validates prod-ap against Kubernetes 1.30, the others stay on 1.29; the loop lives in scripts/validate.sh and CI calls it.", [r"1\.30", r"prod-ap|validate|CI"], "done"),
    f("k37", "request", "should", "istio sidecar annotations for ap later not now", "Istio sidecar annotations for ap: later, not now.", [r"istio|sidecar", r"later|not now|open|defer"], "open"),
    f("k38", "value", "nice", "v1.30.5-gke.1014001", "Cluster versions: prod-ap-1 v1.30.5-gke, prod-eu-1 and prod-us-1 v1.29.8-gke.", [r"1\.30\.5|1\.29\.8"]),
    f("k39", "path", "should", "- `scripts/validate.sh`: renders every overlay", "scripts/validate.sh renders every overlay, kubeconform -strict with 1.30.0 for prod-ap and 1.29.0 otherwise, exits 1 if any fails (KUBECONFORM env picks the binary); .github/workflows/manifests.yaml runs it.", [r"validate\.sh", r"kubeconform|1\.30|CI|workflow"]),
    f("k40", "request", "must", "one per node on ap is a hard requirement", "One match-server per node on ap is a hard requirement (UDP jitter): required podAntiAffinity on kubernetes.io/hostname in prod-ap only, proven on kind (2 of 4 pods Pending on 2 workers).", [r"anti[- ]?affinity|one per node", r"hostname|required|ap|kind"], "done"),
    f("k41", "finding", "should", "Anti-affinity is in overlays/prod-ap/nodepool.yaml only", "With 4 nodes, 4 replicas and hard anti-affinity an ap rolling update's surge pod stays Pending until an old server terminates (up to 900 s); ops should know.", [r"surge|Pending|rolling|rollout", r"anti[- ]?affinity|node|old|ops"]),
    f("k42", "error", "should", "MANIFEST_UNKNOWN: manifest unknown", "The digest the user typed for 2026.10.2 (...0c1d3e) does not exist (MANIFEST_UNKNOWN); crane digest gives ...0c1d3f; the user confirmed a typo.", [r"MANIFEST_UNKNOWN|manifest unknown|typo|does not exist", r"digest|sha256|b3f19c0e|2026\.10\.2"], "fixed"),
    f("k43", "value", "must", "prod-ap rookery-server@sha256:b3f19c0e7d2a", "prod-ap runs rookery-server 2026.10.2 by digest sha256:b3f19c0e...0c1d3f; eu/us stay on 7d1c0e9a; matchmaker unchanged everywhere.", [r"b3f19c0e|2026\.10\.2", r"prod-ap|\bap\b|digest"]),
    f("k44", "state", "must", "Switched to a new branch 'prod-ap-overlay'", "Committed d2c84f7 on new branch prod-ap-overlay; not pushed (user said don't push); nothing applied to prod.", [r"d2c84f7|prod-ap-overlay"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
