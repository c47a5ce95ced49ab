# ruff: noqa: E501
"""Writes session.jsonl: a pi v3 session written by hand for the heldout6b split (~150 tool calls).

A senior platform engineer writing terse imperative lines without punctuation has pi add a Singapore
overlay to the Kustomize manifests of a multiplayer game's match-server fleet, migrate deprecated
kustomization fields, add a PDB and an HPA, and try everything on kind and staging. kustomize 5.4.3,
kubeconform, kubectl (kind, GKE staging). Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/ruben/src/rookery-deploy"
s = PiSession(CWD, "2026-10-06T13:02:10", seed="rookery-kustomize")

BK = "base/kustomization.yaml"
BMS = "base/match-server.yaml"
BMM = "base/matchmaker.yaml"
BCFG = "base/config.env"
SK = "overlays/staging/kustomization.yaml"
EK = "overlays/prod-eu/kustomization.yaml"
UK = "overlays/prod-us/kustomization.yaml"
ER = "overlays/prod-eu/replicas.yaml"
EN = "overlays/prod-eu/nodepool.yaml"
AK = "overlays/prod-ap/kustomization.yaml"
AR = "overlays/prod-ap/replicas.yaml"
AN = "overlays/prod-ap/nodepool.yaml"
CI = ".github/workflows/manifests.yaml"

s.files.update({
    BK: """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - match-server.yaml
  - matchmaker.yaml
commonLabels:
  app.kubernetes.io/part-of: rookery
configMapGenerator:
  - name: rookery-config
    envs:
      - config.env
""",
    BCFG: """LOG_LEVEL=info
TICK_RATE=60
MAX_PLAYERS_PER_MATCH=10
REGION_CODE=dev
MATCHMAKER_URL=http://matchmaker:8080
""",
    BMS: """apiVersion: apps/v1
kind: Deployment
metadata:
  name: match-server
spec:
  replicas: 1
  selector:
    matchLabels:
      app: match-server
  template:
    metadata:
      labels:
        app: match-server
    spec:
      terminationGracePeriodSeconds: 900
      containers:
        - name: server
          image: ghcr.io/ravenfall/rookery-server:latest
          ports:
            - name: game
              containerPort: 7777
              protocol: UDP
            - name: health
              containerPort: 8081
          envFrom:
            - configMapRef:
                name: rookery-config
          readinessProbe:
            httpGet:
              path: /ready
              port: health
          resources:
            requests:
              cpu: "2"
              memory: 3Gi
            limits:
              memory: 3Gi
---
apiVersion: v1
kind: Service
metadata:
  name: match-server
spec:
  type: LoadBalancer
  selector:
    app: match-server
  ports:
    - name: game
      port: 7777
      protocol: UDP
      targetPort: game
""",
    BMM: """apiVersion: apps/v1
kind: Deployment
metadata:
  name: matchmaker
spec:
  replicas: 1
  selector:
    matchLabels:
      app: matchmaker
  template:
    metadata:
      labels:
        app: matchmaker
    spec:
      containers:
        - name: matchmaker
          image: ghcr.io/ravenfall/rookery-matchmaker:latest
          ports:
            - name: http
              containerPort: 8080
          envFrom:
            - configMapRef:
                name: rookery-config
          resources:
            requests:
              cpu: 250m
              memory: 256Mi
---
apiVersion: v1
kind: Service
metadata:
  name: matchmaker
spec:
  selector:
    app: matchmaker
  ports:
    - name: http
      port: 8080
      targetPort: http
""",
    SK: """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: rookery-staging
resources:
  - ../../base
commonLabels:
  rookery.ravenfall.gg/env: staging
images:
  - name: ghcr.io/ravenfall/rookery-server
    newTag: main-4f2a91c
  - name: ghcr.io/ravenfall/rookery-matchmaker
    newTag: main-4f2a91c
configMapGenerator:
  - name: rookery-config
    behavior: replace
    literals:
      - LOG_LEVEL=debug
      - TICK_RATE=60
""",
    EK: """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: rookery-prod
resources:
  - ../../base
commonLabels:
  rookery.ravenfall.gg/env: prod
  rookery.ravenfall.gg/region: eu
images:
  # DO NOT bump without a change ticket in #rookery-ops
  - name: ghcr.io/ravenfall/rookery-server
    digest: sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b
  - name: ghcr.io/ravenfall/rookery-matchmaker
    digest: sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a
patchesStrategicMerge:
  - replicas.yaml
  - nodepool.yaml
configMapGenerator:
  - name: rookery-config
    behavior: merge
    literals:
      - REGION_CODE=eu1
""",
    ER: """apiVersion: apps/v1
kind: Deployment
metadata:
  name: match-server
spec:
  replicas: 8
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: matchmaker
spec:
  replicas: 2
""",
    EN: """apiVersion: apps/v1
kind: Deployment
metadata:
  name: match-server
spec:
  template:
    spec:
      nodeSelector:
        cloud.google.com/gke-nodepool: match-c2
      tolerations:
        - key: rookery.ravenfall.gg/dedicated
          operator: Equal
          value: match
          effect: NoSchedule
""",
    "overlays/prod-us/replicas.yaml": """apiVersion: apps/v1
kind: Deployment
metadata:
  name: match-server
spec:
  replicas: 10
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: matchmaker
spec:
  replicas: 2
""",
    UK: """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: rookery-prod
resources:
  - ../../base
commonLabels:
  rookery.ravenfall.gg/env: prod
  rookery.ravenfall.gg/region: us
images:
  - name: ghcr.io/ravenfall/rookery-server
    digest: sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b
  - name: ghcr.io/ravenfall/rookery-matchmaker
    digest: sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a
patchesStrategicMerge:
  - replicas.yaml
configMapGenerator:
  - name: rookery-config
    behavior: merge
    literals:
      - REGION_CODE=us1
""",
    CI: """name: manifests
on: [pull_request]
jobs:
  validate:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
      - uses: imranismail/setup-kustomize@v2
        with:
          kustomize-version: "5.4.3"
      - run: |
          curl -sSL https://github.com/yannh/kubeconform/releases/download/v0.6.7/kubeconform-linux-amd64.tar.gz | tar xz
          for o in overlays/*/; do
            kustomize build "$o" | ./kubeconform -strict -summary -kubernetes-version 1.29.0 -
          done
""",
})

DEPREC = ("# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.\n")
DEPREC_PSM = ("# Warning: 'patchesStrategicMerge' is deprecated. Please use 'patches' instead. Run 'kustomize edit fix' to update your Kustomization automatically.\n")


def kc(n_res: int, n_valid: int | None = None, errors: str = "", invalid: int = 0) -> str:
    v = n_res - invalid if n_valid is None else n_valid
    return f"{errors}Summary: {n_res} resources found parsing stdin - Valid: {v}, Invalid: {invalid}, Errors: 0, Skipped: 0\n"


# ===================================================================== turn 1
s.user("rookery deploy repo. add overlay prod-ap singapore copy of prod-eu. kustomize 5.4.3 only thats what ci has. never kubectl apply against prod contexts kind or staging only. prod overlays pin images by digest no tags", pause=0)
s.bash("ls -R base overlays; git log --oneline -5", """base:
config.env
kustomization.yaml
match-server.yaml
matchmaker.yaml

overlays:
prod-eu
prod-us
staging

overlays/prod-eu:
kustomization.yaml
nodepool.yaml
replicas.yaml

overlays/prod-us:
kustomization.yaml
replicas.yaml

overlays/staging:
kustomization.yaml
b81f3d2 prod-eu: match-server 8 replicas for season 4
61a9c07 staging: LOG_LEVEL debug
e03d5f1 prod-us: pin digests
9c4e2a8 base: terminationGracePeriodSeconds 900 (let matches finish)
2a7b6c0 initial layout""")
s.reads([BK, BMS, BMM, BCFG])
s.reads([EK, ER, EN])
s.reads([UK, SK, CI])
s.bash("kustomize version; kubeconform -v; kubectl version --client -o yaml | grep gitVersion; kind version", "v5.4.3\nv0.6.7\n  gitVersion: v1.29.6\nkind v0.23.0 go1.22.3 linux/amd64")
s.bash("git status --short; git branch --show-current", "main")
s.bash("kustomize build overlays/staging 2>/dev/null | head -30", """apiVersion: v1
data:
  LOG_LEVEL: debug
  TICK_RATE: "60"
kind: ConfigMap
metadata:
  labels:
    app.kubernetes.io/part-of: rookery
    rookery.ravenfall.gg/env: staging
  name: rookery-config-b92hc5k7f8
  namespace: rookery-staging
---
apiVersion: v1
kind: Service
metadata:
  labels:
    app.kubernetes.io/part-of: rookery
    rookery.ravenfall.gg/env: staging
  name: matchmaker
  namespace: rookery-staging
spec:
  ports:
  - name: http
    port: 8080
    targetPort: http
  selector:
    app: matchmaker
    app.kubernetes.io/part-of: rookery
    rookery.ravenfall.gg/env: staging
---
apiVersion: v1""")
s.bash("kubectl config get-contexts", """CURRENT   NAME                                          CLUSTER                                       AUTHINFO                                      NAMESPACE
          gke_rookery-prod_asia-southeast1_prod-ap-1   gke_rookery-prod_asia-southeast1_prod-ap-1   gke_rookery-prod_asia-southeast1_prod-ap-1
          gke_rookery-prod_europe-west4_prod-eu-1      gke_rookery-prod_europe-west4_prod-eu-1      gke_rookery-prod_europe-west4_prod-eu-1
          gke_rookery-prod_us-central1_prod-us-1       gke_rookery-prod_us-central1_prod-us-1       gke_rookery-prod_us-central1_prod-us-1
*         gke_rookery-stg_europe-west4_stg-1           gke_rookery-stg_europe-west4_stg-1           gke_rookery-stg_europe-west4_stg-1           rookery-staging
          kind-rookery                                 kind-rookery                                 kind-rookery""")
for o, n in (("staging", 5), ("prod-eu", 5), ("prod-us", 5)):
    warn = DEPREC + (DEPREC_PSM if o != "staging" else "")
    s.bash(f"kustomize build overlays/{o} | kubeconform -strict -summary -kubernetes-version 1.29.0 -", warn + kc(n))
s.bash("kustomize build overlays/prod-eu | grep -n 'image:\\|replicas:\\|REGION_CODE\\|name: rookery-config'", """4:  REGION_CODE: eu1
12:  name: rookery-config-5g7k9m2hc4
72:  replicas: 2
93:        image: ghcr.io/ravenfall/rookery-matchmaker@sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a
112:  replicas: 8
130:        image: ghcr.io/ravenfall/rookery-server@sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b""")
s.bash("kubectl --context gke_rookery-prod_europe-west4_prod-eu-1 -n rookery-prod get deploy -o wide", """NAME           READY   UP-TO-DATE   AVAILABLE   AGE    CONTAINERS    IMAGES                                                                                                        SELECTOR
match-server   8/8     8            8           212d   server        ghcr.io/ravenfall/rookery-server@sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b       app=match-server,app.kubernetes.io/part-of=rookery,rookery.ravenfall.gg/env=prod,rookery.ravenfall.gg/region=eu
matchmaker     2/2     2            2           212d   matchmaker    ghcr.io/ravenfall/rookery-matchmaker@sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a   app=matchmaker,app.kubernetes.io/part-of=rookery,rookery.ravenfall.gg/env=prod,rookery.ravenfall.gg/region=eu""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get deploy,pods", """NAME                           READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/match-server   1/1     1            1           97d
deployment.apps/matchmaker     1/1     1            1           97d

NAME                                READY   STATUS    RESTARTS   AGE
pod/match-server-7f9d6c5b4-h2m8k    1/1     Running   0          10d
pod/matchmaker-6c4b8d7f9-p5x3n      1/1     Running   0          10d""")
s.bash("kubectl --context gke_rookery-prod_asia-southeast1_prod-ap-1 get nodes -L cloud.google.com/gke-nodepool --no-headers | awk '{print $NF}' | sort | uniq -c; kubectl --context gke_rookery-prod_asia-southeast1_prod-ap-1 get ns rookery-prod", """      3 default-pool
      4 match-n2d
Error from server (NotFound): namespaces "rookery-prod" not found""", code=1)
s.bash("kubectl --context gke_rookery-prod_asia-southeast1_prod-ap-1 get ns --no-headers | awk '{print $1}'", """default
gke-managed-cim
gmp-public
gmp-system
kube-node-lease
kube-public
kube-system""")
s.bash("kubectl --context gke_rookery-prod_asia-southeast1_prod-ap-1 get nodes -l cloud.google.com/gke-nodepool=match-n2d -o jsonpath='{range .items[*]}{.metadata.name} {.spec.taints}{\"\\n\"}{end}'", """gke-prod-ap-1-match-n2d-8c1e3f-2kqv [{"effect":"NoSchedule","key":"rookery.ravenfall.gg/dedicated","value":"match"}]
gke-prod-ap-1-match-n2d-8c1e3f-7hzt [{"effect":"NoSchedule","key":"rookery.ravenfall.gg/dedicated","value":"match"}]
gke-prod-ap-1-match-n2d-8c1e3f-9mwd [{"effect":"NoSchedule","key":"rookery.ravenfall.gg/dedicated","value":"match"}]
gke-prod-ap-1-match-n2d-8c1e3f-x4rb [{"effect":"NoSchedule","key":"rookery.ravenfall.gg/dedicated","value":"match"}]""")
s.assistant(
    "Read-only look done (only `get` against the ap cluster, nothing applied).\n\n"
    "- All three overlays build and pass kubeconform (5 resources each) but kustomize 5.4.3 warns: `commonLabels` is deprecated everywhere, `patchesStrategicMerge` in prod-eu and prod-us.\n"
    "- prod-eu: namespace rookery-prod, match-server 8 replicas, matchmaker 2, REGION_CODE=eu1 merged into rookery-config, node pool `match-c2` plus the `rookery.ravenfall.gg/dedicated=match:NoSchedule` toleration, images by digest (server `sha256:7d1c0e9a…`, matchmaker `sha256:2e4a6c8e…`).\n"
    "- The ap cluster (context `gke_rookery-prod_asia-southeast1_prod-ap-1`) has **no `match-c2` pool**: its match pool is `match-n2d` (4 nodes, same taint). And namespace rookery-prod does not exist there yet.\n"
    "- CI: kustomize 5.4.3 and kubeconform v0.6.7 `-strict -kubernetes-version 1.29.0` over every overlay.\n\n"
    "Plan for overlays/prod-ap: copy prod-eu, region label `ap`, REGION_CODE=`ap1`, node pool `match-n2d`, same digests. Replicas? eu has 8 match-servers."
)

# ===================================================================== turn 2
s.user("ap1 yes nodepool match-n2d. 6 match servers 2 matchmakers. same digests for now. namespace must exist create it in the overlay")
s.bash("mkdir -p overlays/prod-ap && cp overlays/prod-eu/replicas.yaml overlays/prod-eu/nodepool.yaml overlays/prod-ap/", "")
s.files[AR] = s.files[ER]
s.files[AN] = s.files[EN]
s.write(AK, """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: rookery-prod
resources:
  - ../../base
  - namespace.yaml
commonLabels:
  rookery.ravenfall.gg/env: prod
  rookery.ravenfall.gg/region: ap
images:
  # DO NOT bump without a change ticket in #rookery-ops
  - name: ghcr.io/ravenfall/rookery-server
    digest: sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b
  - name: ghcr.io/ravenfall/rookery-matchmaker
    digest: sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a
patchesStrategicMerge:
  - replicas.yaml
  - nodepool.yaml
configMapGenerator:
  - name: rookery-config
    behavior: merge
    literals:
      - REGION_CODE=ap1
""")
s.write("overlays/prod-ap/namespace.yaml", """apiVersion: v1
kind: Namespace
metadata:
  name: rookery-prod
""")
s.edit(AR, "  name: match-server\nspec:\n  replicas: 8\n", "  name: match-server\nspec:\n  replicas: 6\n")
s.edit(AN, "        cloud.google.com/gke-nodepool: match-c2\n", "        cloud.google.com/gke-nodepool: match-n2d\n")
s.bash("kustomize build overlays/prod-ap | kubeconform -strict -summary -kubernetes-version 1.29.0 -", DEPREC + DEPREC_PSM + kc(6))
s.bash("kustomize build overlays/prod-ap | grep -n -B2 -A6 'kind: Namespace'", """182-apiVersion: v1
183-kind: Namespace
184-metadata:
185-  labels:
186-    app.kubernetes.io/part-of: rookery
187-    rookery.ravenfall.gg/env: prod
188-    rookery.ravenfall.gg/region: ap
189-  name: rookery-prod""")
s.bash("kustomize build overlays/prod-ap | grep -n 'replicas:\\|gke-nodepool\\|REGION_CODE\\|@sha256'", """4:  REGION_CODE: ap1
72:  replicas: 2
93:        image: ghcr.io/ravenfall/rookery-matchmaker@sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a
112:  replicas: 6
148:      nodeSelector:
149:        cloud.google.com/gke-nodepool: match-n2d
130:        image: ghcr.io/ravenfall/rookery-server@sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b""")
s.bash("diff <(kustomize build overlays/prod-eu 2>/dev/null) <(kustomize build overlays/prod-ap 2>/dev/null)", """4c4
<   REGION_CODE: eu1
---
>   REGION_CODE: ap1
12c12
<   name: rookery-config-5g7k9m2hc4
---
>   name: rookery-config-t8b2f6d4mh
17c17
<     rookery.ravenfall.gg/region: eu
---
>     rookery.ravenfall.gg/region: ap
112c112
<   replicas: 8
---
>   replicas: 6
149c149
<         cloud.google.com/gke-nodepool: match-c2
---
>         cloud.google.com/gke-nodepool: match-n2d
181a182,189
> ---
> apiVersion: v1
> kind: Namespace
> metadata:
>   labels:
>     app.kubernetes.io/part-of: rookery
>     rookery.ravenfall.gg/env: prod
>     rookery.ravenfall.gg/region: ap
>   name: rookery-prod""", code=1)
s.bash("grep -rn 'region: eu\\|region: us\\|region: ap' overlays/*/kustomization.yaml", """overlays/prod-ap/kustomization.yaml:9:  rookery.ravenfall.gg/region: ap
overlays/prod-eu/kustomization.yaml:9:  rookery.ravenfall.gg/region: eu
overlays/prod-us/kustomization.yaml:9:  rookery.ravenfall.gg/region: us""")
s.assistant(
    "overlays/prod-ap is in place: kustomization.yaml (copy of prod-eu with region `ap`, REGION_CODE=ap1), replicas.yaml (match-server 6, matchmaker 2), nodepool.yaml (`match-n2d` + the dedicated=match toleration) and namespace.yaml (Namespace rookery-prod, picks up the common labels). Same digests as eu. "
    "Builds and passes kubeconform (6 resources). Diff against prod-eu is exactly: REGION_CODE, config hash, region label, replicas 8→6, node pool, plus the Namespace. Nothing applied anywhere."
)

# ===================================================================== turn 3
s.user("commonLabels is a problem. it also goes into selectors and selectors are immutable. new region label on an existing deployment breaks apply. migrate all overlays off commonLabels and patchesStrategicMerge. rendered output must not change byte for byte. region label only on metadata not selectors")
s.bash("mkdir -p /tmp/rk && for o in staging prod-eu prod-us prod-ap; do kustomize build overlays/$o > /tmp/rk/before-$o.yaml 2>/dev/null; done; wc -l /tmp/rk/before-*.yaml", """  189 /tmp/rk/before-prod-ap.yaml
  181 /tmp/rk/before-prod-eu.yaml
  172 /tmp/rk/before-prod-us.yaml
  166 /tmp/rk/before-staging.yaml
  708 total""")
s.bash("grep -n -A4 'selector:' /tmp/rk/before-prod-eu.yaml | head -24", """27-  selector:
28-    app: matchmaker
29-    app.kubernetes.io/part-of: rookery
30-    rookery.ravenfall.gg/env: prod
31-    rookery.ravenfall.gg/region: eu
--
49-  selector:
50-    app: match-server
51-    app.kubernetes.io/part-of: rookery
52-    rookery.ravenfall.gg/env: prod
53-    rookery.ravenfall.gg/region: eu
--
68-  selector:
69-    matchLabels:
70-      app: matchmaker
71-      app.kubernetes.io/part-of: rookery
72-      rookery.ravenfall.gg/env: prod""")
s.assistant(
    "Two of your requirements conflict, so before touching anything: today's **rendered selectors contain every commonLabel**, including `rookery.ravenfall.gg/region` (Service selectors and Deployment `matchLabels`). "
    "If the region label leaves the selectors, the rendered output changes, and for the already-deployed eu/us Deployments that is an immutable `spec.selector` change, i.e. apply fails the same way you want to avoid.\n\n"
    "Options:\n"
    "A. Byte-identical: `kustomize edit fix` turns commonLabels into `labels: - includeSelectors: true`, same output, region stays in selectors everywhere (prod-ap too).\n"
    "B. For eu/us/staging do A (their selectors must stay as deployed), and only for the new prod-ap (nothing deployed yet) put `region` into a second `labels` entry with `includeSelectors: false`.\n\n"
    "I'd do B. Which one?"
)
s.user("B. eu us staging byte identical. ap region label metadata only")
for o in ("staging", "prod-eu", "prod-us", "prod-ap"):
    s.bash(f"cd overlays/{o} && kustomize edit fix && cd - >/dev/null", (DEPREC + (DEPREC_PSM if o != "staging" else "")).replace("# Warning", "Warning") if False else "")
s.files[SK] = s.files[SK].replace("""commonLabels:
  rookery.ravenfall.gg/env: staging
""", """labels:
- includeSelectors: true
  pairs:
    rookery.ravenfall.gg/env: staging
""")
for path, reg in ((EK, "eu"), (UK, "us"), (AK, "ap")):
    t = s.files[path]
    t = t.replace(f"""commonLabels:
  rookery.ravenfall.gg/env: prod
  rookery.ravenfall.gg/region: {reg}
""", f"""labels:
- includeSelectors: true
  pairs:
    rookery.ravenfall.gg/env: prod
    rookery.ravenfall.gg/region: {reg}
""")
    t = t.replace("  # DO NOT bump without a change ticket in #rookery-ops\n", "")
    t = t.replace("patchesStrategicMerge:\n  - replicas.yaml\n  - nodepool.yaml\n", "patches:\n- path: replicas.yaml\n- path: nodepool.yaml\n").replace("patchesStrategicMerge:\n  - replicas.yaml\n", "patches:\n- path: replicas.yaml\n")
    s.files[path] = t
s.files[BK] = s.files[BK].replace("""commonLabels:
  app.kubernetes.io/part-of: rookery
""", """labels:
- includeSelectors: true
  pairs:
    app.kubernetes.io/part-of: rookery
""")
s.read(SK)
s.read(UK)
s.bash("git diff --stat", """ base/kustomization.yaml              |  6 ++++--
 overlays/prod-eu/kustomization.yaml  | 16 ++++++++--------
 overlays/prod-us/kustomization.yaml  | 12 +++++++-----
 overlays/staging/kustomization.yaml  |  6 ++++--
 4 files changed, 24 insertions(+), 16 deletions(-)""")
s.bash("git diff overlays/staging/kustomization.yaml | tail -8", """@@ -4,8 +4,10 @@ namespace: rookery-staging
 resources:
   - ../../base
-commonLabels:
-  rookery.ravenfall.gg/env: staging
+labels:
+- includeSelectors: true
+  pairs:
+    rookery.ravenfall.gg/env: staging""")
s.bash("git diff overlays/prod-us/kustomization.yaml | grep '^[-+][^-+]'", """-commonLabels:
-  rookery.ravenfall.gg/env: prod
-  rookery.ravenfall.gg/region: us
+labels:
+- includeSelectors: true
+  pairs:
+    rookery.ravenfall.gg/env: prod
+    rookery.ravenfall.gg/region: us
-patchesStrategicMerge:
-  - replicas.yaml
+patches:
+- path: replicas.yaml""")
s.bash("cd base && kustomize edit fix && cd - >/dev/null && git diff overlays/prod-eu/kustomization.yaml", """diff --git a/overlays/prod-eu/kustomization.yaml b/overlays/prod-eu/kustomization.yaml
index 3c7a1e2..9f0b4d6 100644
--- a/overlays/prod-eu/kustomization.yaml
+++ b/overlays/prod-eu/kustomization.yaml
@@ -3,18 +3,18 @@ kind: Kustomization
 namespace: rookery-prod
 resources:
   - ../../base
-commonLabels:
-  rookery.ravenfall.gg/env: prod
-  rookery.ravenfall.gg/region: eu
+labels:
+- includeSelectors: true
+  pairs:
+    rookery.ravenfall.gg/env: prod
+    rookery.ravenfall.gg/region: eu
 images:
-  # DO NOT bump without a change ticket in #rookery-ops
   - name: ghcr.io/ravenfall/rookery-server
     digest: sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b
-patchesStrategicMerge:
-  - replicas.yaml
-  - nodepool.yaml
+patches:
+- path: replicas.yaml
+- path: nodepool.yaml""")
s.assistant("`kustomize edit fix` rewrote the files but **dropped the comment** `# DO NOT bump without a change ticket in #rookery-ops` (it re-serialises the YAML, comments are lost). Restoring it in prod-eu and prod-ap by hand; checking the others lost nothing else.")
s.bash("git diff -U0 | grep '^-.*#'", """-  # DO NOT bump without a change ticket in #rookery-ops""")
s.edit(EK, "images:\n  - name: ghcr.io/ravenfall/rookery-server\n", "images:\n  # DO NOT bump without a change ticket in #rookery-ops\n  - name: ghcr.io/ravenfall/rookery-server\n")
s.edit(AK, "images:\n  - name: ghcr.io/ravenfall/rookery-server\n", "images:\n  # DO NOT bump without a change ticket in #rookery-ops\n  - name: ghcr.io/ravenfall/rookery-server\n")
s.edit(AK, """labels:
- includeSelectors: true
  pairs:
    rookery.ravenfall.gg/env: prod
    rookery.ravenfall.gg/region: ap
""", """labels:
- includeSelectors: true
  pairs:
    rookery.ravenfall.gg/env: prod
# region only on metadata: prod-ap is new, its selectors never carried the region label
- includeSelectors: false
  pairs:
    rookery.ravenfall.gg/region: ap
""")
for o in ("staging", "prod-eu", "prod-us"):
    s.bash(f"kustomize build overlays/{o} > /tmp/rk/after-{o}.yaml && cmp /tmp/rk/before-{o}.yaml /tmp/rk/after-{o}.yaml && echo identical-{o}", f"identical-{o}")
s.bash("kustomize build overlays/prod-ap > /tmp/rk/after-prod-ap.yaml; diff /tmp/rk/before-prod-ap.yaml /tmp/rk/after-prod-ap.yaml", """31d30
<     rookery.ravenfall.gg/region: ap
53d51
<     rookery.ravenfall.gg/region: ap
73d70
<       rookery.ravenfall.gg/region: ap
85d81
<         rookery.ravenfall.gg/region: ap
115d110
<       rookery.ravenfall.gg/region: ap
127d121
<         rookery.ravenfall.gg/region: ap""", code=1)
s.bash("grep -c 'rookery.ravenfall.gg/region: ap' /tmp/rk/after-prod-ap.yaml; grep -n -A3 'matchLabels' /tmp/rk/after-prod-ap.yaml", """6
69-    matchLabels:
70-      app: matchmaker
71-      app.kubernetes.io/part-of: rookery
72-      rookery.ravenfall.gg/env: prod
--
110-    matchLabels:
111-      app: match-server
112-      app.kubernetes.io/part-of: rookery
113-      rookery.ravenfall.gg/env: prod""")
s.bash("for o in overlays/*/; do kustomize build \"$o\" | kubeconform -strict -summary -kubernetes-version 1.29.0 -; done", kc(5) + kc(6) + kc(5) + kc(5))
s.assistant(
    "Migration done, no deprecation warnings left:\n"
    "- base and all overlays: `commonLabels` → `labels` with `includeSelectors: true`; `patchesStrategicMerge` → `patches: - path:`.\n"
    "- staging, prod-eu, prod-us render **byte-identical** (`cmp` against builds taken before the change).\n"
    "- prod-ap: `region: ap` is in a second `labels` entry with `includeSelectors: false`, so it is on the 6 objects' metadata labels but in no Service selector, matchLabels or pod template.\n"
    "- `kustomize edit fix` drops YAML comments: I put the `# DO NOT bump without a change ticket in #rookery-ops` comment back in prod-eu and prod-ap.\n"
    "- kubeconform clean on all four."
)

# ===================================================================== turn 4
s.user("good. pdb for match-server in base maxUnavailable 1. hpa for matchmaker prod overlays only min 2 max 10 cpu 70. as a component not copy pasted 3 times")
s.bash("ls components 2>/dev/null || echo no-components; grep -rn 'matchmaker' overlays/*/replicas.yaml", """no-components
overlays/prod-ap/replicas.yaml:11:  name: matchmaker
overlays/prod-eu/replicas.yaml:11:  name: matchmaker
overlays/prod-us/replicas.yaml:11:  name: matchmaker""")
s.write("base/pdb.yaml", """apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: match-server
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app: match-server
""")
s.edit(BK, "  - matchmaker.yaml\n", "  - matchmaker.yaml\n  - pdb.yaml\n")
s.bash("kustomize build overlays/staging | grep -n -A12 'kind: PodDisruptionBudget'", """166:kind: PodDisruptionBudget
167-metadata:
168-  labels:
169-    app.kubernetes.io/part-of: rookery
170-    rookery.ravenfall.gg/env: staging
171-  name: match-server
172-  namespace: rookery-staging
173-spec:
174-  maxUnavailable: 1
175-  selector:
176-    matchLabels:
177-      app: match-server
178-      app.kubernetes.io/part-of: rookery""")
s.bash("mkdir -p components/matchmaker-hpa", "")
s.write("components/matchmaker-hpa/kustomization.yaml", """apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
resources:
  - hpa.yaml
""")
s.write("components/matchmaker-hpa/hpa.yaml", """apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: matchmaker
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: matchmaker
  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource:
        name: cpu
        targetAverageUtilization: 70
""")
for path in (EK, UK, AK):
    s.edit(path, "resources:\n  - ../../base\n", "resources:\n  - ../../base\ncomponents:\n  - ../../components/matchmaker-hpa\n") if path != AK else s.edit(path, "resources:\n  - ../../base\n  - namespace.yaml\n", "resources:\n  - ../../base\n  - namespace.yaml\ncomponents:\n  - ../../components/matchmaker-hpa\n")
s.bash("kustomize build overlays/prod-eu | kubeconform -strict -summary -kubernetes-version 1.29.0 -", """stdin - HorizontalPodAutoscaler matchmaker is invalid: problem validating schema. Check JSON formatting: jsonschema validation failed with 'https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/v1.29.0-standalone-strict/horizontalpodautoscaler-autoscaling-v2.json#' - at '/spec/metrics/0/resource': additional properties 'targetAverageUtilization' not allowed
Summary: 7 resources found parsing stdin - Valid: 6, Invalid: 1, Errors: 0, Skipped: 0""", code=1)
s.bash("kubectl explain hpa.spec.metrics.resource --api-version=autoscaling/v2 | sed -n '1,20p'", """GROUP:      autoscaling
KIND:       HorizontalPodAutoscaler
VERSION:    v2

FIELD: resource <ResourceMetricSource>

DESCRIPTION:
    resource refers to a resource metric (such as those specified in requests
    and limits) known to Kubernetes describing each pod in the current scale
    target (e.g. CPU or memory). Such metrics are built in to Kubernetes, and
    have special scaling options on top of those available to normal per-pod
    metrics using the "pods" source.

FIELDS:
  name	<string> -required-
    name is the name of the resource in question.

  target	<MetricTarget> -required-
    target specifies the target value for the given metric
""")
s.assistant("`targetAverageUtilization` is the old autoscaling/v2beta1 field; in autoscaling/v2 it is `target: {type: Utilization, averageUtilization: 70}`.")
s.edit("components/matchmaker-hpa/hpa.yaml", "        targetAverageUtilization: 70\n", "        target:\n          type: Utilization\n          averageUtilization: 70\n")
s.bash("for o in overlays/*/; do echo \"== $o\"; kustomize build \"$o\" | kubeconform -strict -summary -kubernetes-version 1.29.0 -; done", "== overlays/prod-ap/\n" + kc(8) + "== overlays/prod-eu/\n" + kc(7) + "== overlays/prod-us/\n" + kc(7) + "== overlays/staging/\n" + kc(6))
s.bash("kustomize build overlays/prod-eu | grep -n -A3 'kind: HorizontalPodAutoscaler'; kustomize build overlays/prod-eu | grep -c 'replicas: 2'", """1-apiVersion: autoscaling/v2
2:kind: HorizontalPodAutoscaler
3-metadata:
4-  labels:
1""")
s.assistant(
    "PDB (`base/pdb.yaml`, policy/v1, maxUnavailable 1 on app=match-server) is in every overlay; the HPA is a Component `components/matchmaker-hpa` (autoscaling/v2, min 2, max 10, CPU 70%) referenced by prod-eu, prod-us and prod-ap only. All four build and validate (7/7/8/6 resources).\n\n"
    "One thing to decide: the prod replicas.yaml files still set `matchmaker` to `replicas: 2`. With an HPA, every `kubectl apply` resets the Deployment to 2 and the HPA scales it back up, so after each deploy the matchmakers drop to 2 for a minute. Usual fix is to remove `replicas` from the matchmaker patch in the HPA overlays."
)
s.user("remove it. eu us also? that changes their render. ok for matchmaker replicas only")
for path in (ER, "overlays/prod-us/replicas.yaml", AR):
    s.edit(path, """---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: matchmaker
spec:
  replicas: 2
""", "")
for o in ("prod-eu", "prod-us"):
    s.bash(f"kustomize build overlays/{o} > /tmp/rk/after-{o}.yaml; diff /tmp/rk/before-{o}.yaml /tmp/rk/after-{o}.yaml | grep '^[<>]' | grep -v '^> *$' | head -20", """> apiVersion: policy/v1
> kind: PodDisruptionBudget
> metadata:
>   labels:
>     app.kubernetes.io/part-of: rookery
>     rookery.ravenfall.gg/env: prod
>     rookery.ravenfall.gg/region: """ + o[-2:] + """
>   name: match-server
>   namespace: rookery-prod
> spec:
>   maxUnavailable: 1
>   selector:
>     matchLabels:
>       app: match-server
>       app.kubernetes.io/part-of: rookery
>       rookery.ravenfall.gg/env: prod
>       rookery.ravenfall.gg/region: """ + o[-2:] + """
> apiVersion: autoscaling/v2
> kind: HorizontalPodAutoscaler
> metadata:""")
s.bash("diff /tmp/rk/before-prod-eu.yaml /tmp/rk/after-prod-eu.yaml | grep -n 'replicas'", "3:<   replicas: 2")
s.assistant("eu/us render changes are now only: + PDB, + HPA, − `replicas: 2` on matchmaker. Selectors, labels and everything else unchanged.")

# ===================================================================== turn 5
s.user("now kind. apply staging overlay to kind-rookery check pods come up. then kubectl diff against staging cluster dont apply yet")
s.bash("kind get clusters; kubectl --context kind-rookery get nodes", """rookery
NAME                    STATUS   ROLES           AGE   VERSION
rookery-control-plane   Ready    control-plane   41d   v1.29.4
rookery-worker          Ready    <none>          41d   v1.29.4
rookery-worker2         Ready    <none>          41d   v1.29.4""")
s.bash("kubectl --context kind-rookery get ns rookery-staging || kubectl --context kind-rookery create ns rookery-staging", """Error from server (NotFound): namespaces "rookery-staging" not found
namespace/rookery-staging created""")
s.bash("kubectl --context kind-rookery apply -k overlays/staging", """configmap/rookery-config-b92hc5k7f8 created
service/match-server created
service/matchmaker created
deployment.apps/match-server created
deployment.apps/matchmaker created
poddisruptionbudget.policy/match-server created""")
s.bash("kubectl --context kind-rookery -n rookery-staging rollout status deploy/match-server --timeout=120s", """Waiting for deployment "match-server" rollout to finish: 0 of 1 updated replicas are available...
error: timed out waiting for the condition""", code=1)
s.bash("kubectl --context kind-rookery -n rookery-staging get pods -o wide", """NAME                            READY   STATUS             RESTARTS      AGE    IP           NODE              NOMINATED NODE   READINESS GATES
match-server-6c9f7d5b8d-q2xkp   0/1     CrashLoopBackOff   4 (38s ago)   2m9s   10.244.1.7   rookery-worker    <none>           <none>
matchmaker-7b4d9c6f5-hl8wz      0/1     CrashLoopBackOff   4 (31s ago)   2m9s   10.244.2.5   rookery-worker2   <none>           <none>""")
s.bash("kubectl --context kind-rookery -n rookery-staging describe pod -l app=match-server | sed -n '/Last State/,/Restart Count/p;/Events:/,$p' | head -16", """    Last State:     Terminated
      Reason:       Error
      Exit Code:    78
      Started:      Tue, 06 Oct 2026 14:11:52 +0000
      Finished:     Tue, 06 Oct 2026 14:11:52 +0000
    Ready:          False
    Restart Count:  4
Events:
  Type     Reason     Age                From               Message
  ----     ------     ----               ----               -------
  Normal   Scheduled  2m20s              default-scheduler  Successfully assigned rookery-staging/match-server-6c9f7d5b8d-q2xkp to rookery-worker
  Normal   Pulled     2m14s              kubelet            Successfully pulled image "ghcr.io/ravenfall/rookery-server:main-4f2a91c" in 5.912s (5.912s including waiting)
  Warning  BackOff    14s (x9 over 2m)   kubelet            Back-off restarting failed container server in pod match-server-6c9f7d5b8d-q2xkp_rookery-staging(3e1f0a7c-52d9-4b8e-a1c6-7f2d9e0b4c13)""")
s.bash("kubectl --context kind-rookery -n rookery-staging logs deploy/match-server --previous", """2026-10-06T14:11:52.118Z INFO  rookery-server 2026.9.4 (main-4f2a91c) starting
2026-10-06T14:11:52.118Z DEBUG config: LOG_LEVEL=debug
2026-10-06T14:11:52.119Z DEBUG config: TICK_RATE=60
2026-10-06T14:11:52.119Z ERROR config: required variable MAX_PLAYERS_PER_MATCH is not set
2026-10-06T14:11:52.119Z ERROR config: required variable REGION_CODE is not set
2026-10-06T14:11:52.120Z INFO  health: listening on :8081
2026-10-06T14:11:52.121Z INFO  shutting down (exit 78)""")
s.bash("kubectl --context kind-rookery -n rookery-staging logs deploy/matchmaker --previous | tail -3", """2026-10-06T14:11:58.902Z info  matchmaker 2026.9.4 starting
2026-10-06T14:11:58.903Z fatal config: MATCHMAKER_REGION: REGION_CODE is not set
exit status 78""")
s.bash("kustomize build overlays/staging | sed -n '1,12p'", """apiVersion: v1
data:
  LOG_LEVEL: debug
  TICK_RATE: "60"
kind: ConfigMap
metadata:
  labels:
    app.kubernetes.io/part-of: rookery
    rookery.ravenfall.gg/env: staging
  name: rookery-config-b92hc5k7f8
  namespace: rookery-staging
---""")
s.bash("git show 61a9c07 --stat -p -- overlays/staging/kustomization.yaml | sed -n '1,30p'", """commit 61a9c07e2b9d4f1a8c3e5b7d9f0a2c4e6b8d1f3a
Author: Mirela Voss <mirela@ravenfall.gg>
Date:   Fri Sep 26 17:40:12 2026 +0200

    staging: LOG_LEVEL debug

 overlays/staging/kustomization.yaml | 6 +++++-
 1 file changed, 5 insertions(+), 1 deletion(-)

diff --git a/overlays/staging/kustomization.yaml b/overlays/staging/kustomization.yaml
--- a/overlays/staging/kustomization.yaml
+++ b/overlays/staging/kustomization.yaml
@@ -10,3 +10,8 @@ images:
     newTag: main-4f2a91c
   - name: ghcr.io/ravenfall/rookery-matchmaker
     newTag: main-4f2a91c
+configMapGenerator:
+  - name: rookery-config
+    behavior: replace
+    literals:
+      - LOG_LEVEL=debug
+      - TICK_RATE=60""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get cm -l app.kubernetes.io/part-of=rookery -o custom-columns=NAME:.metadata.name,KEYS:.data --no-headers; kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get deploy match-server -o jsonpath='{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}' | grep -o 'rookery-config-[a-z0-9]*'", """rookery-config-4h7mdk2b9t   map[LOG_LEVEL:info MATCHMAKER_URL:http://matchmaker:8080 MAX_PLAYERS_PER_MATCH:10 REGION_CODE:dev TICK_RATE:60]
rookery-config-4h7mdk2b9t""")
s.assistant(
    "Found it, and it is not from today's changes: staging's `configMapGenerator` uses **`behavior: replace`** (commit 61a9c07, Mirela, 26 Sep, 'staging: LOG_LEVEL debug'), which replaces the whole base ConfigMap with only LOG_LEVEL and TICK_RATE. "
    "Both containers then exit 78 with `required variable MAX_PLAYERS_PER_MATCH is not set` / `REGION_CODE is not set`. "
    "The staging cluster still runs `rookery-config-4h7mdk2b9t` with all five keys and LOG_LEVEL=info, so that commit was **never applied** to staging; the next apply would have broken it.\n\n"
    "Fix: `behavior: merge` with only `LOG_LEVEL=debug` (TICK_RATE=60 is already the base value). This changes staging's render (that is the point), so it is an exception to the byte-identical rule."
)
s.edit(SK, """    behavior: replace
    literals:
      - LOG_LEVEL=debug
      - TICK_RATE=60
""", """    behavior: merge
    literals:
      - LOG_LEVEL=debug
""")
s.bash("kustomize build overlays/staging | sed -n '1,10p'", """apiVersion: v1
data:
  LOG_LEVEL: debug
  MATCHMAKER_URL: http://matchmaker:8080
  MAX_PLAYERS_PER_MATCH: "10"
  REGION_CODE: dev
  TICK_RATE: "60"
kind: ConfigMap
metadata:
  labels:""")
s.bash("kubectl --context kind-rookery apply -k overlays/staging", """configmap/rookery-config-m6d2t9c8hb created
service/match-server unchanged
service/matchmaker unchanged
deployment.apps/match-server configured
deployment.apps/matchmaker configured
poddisruptionbudget.policy/match-server unchanged""")
s.bash("kubectl --context kind-rookery -n rookery-staging rollout status deploy/match-server --timeout=180s && kubectl --context kind-rookery -n rookery-staging rollout status deploy/matchmaker --timeout=60s", """Waiting for deployment "match-server" rollout to finish: 0 of 1 updated replicas are available...
deployment "match-server" successfully rolled out
deployment "matchmaker" successfully rolled out""")
s.bash("kubectl --context kind-rookery -n rookery-staging get pods,svc,pdb", """NAME                                READY   STATUS    RESTARTS   AGE
pod/match-server-84d6b7c9f4-5tjwn   1/1     Running   0          71s
pod/matchmaker-5f8c7d9b6-r2mvd      1/1     Running   0          71s

NAME                   TYPE           CLUSTER-IP      EXTERNAL-IP   PORT(S)          AGE
service/match-server   LoadBalancer   10.96.141.22    <pending>     7777:31644/UDP   6m40s
service/matchmaker     ClusterIP      10.96.203.157   <none>        8080/TCP         6m40s

NAME                                      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE
poddisruptionbudget.policy/match-server   N/A             1                 1                     6m40s""")
s.bash("kubectl --context kind-rookery -n rookery-staging logs deploy/match-server | head -5", """2026-10-06T14:19:07.402Z INFO  rookery-server 2026.9.4 (main-4f2a91c) starting
2026-10-06T14:19:07.402Z DEBUG config: LOG_LEVEL=debug
2026-10-06T14:19:07.403Z DEBUG config: MAX_PLAYERS_PER_MATCH=10 REGION_CODE=dev TICK_RATE=60
2026-10-06T14:19:07.405Z INFO  health: listening on :8081
2026-10-06T14:19:07.406Z INFO  game: listening on udp :7777""")
s.bash("kubectl --context kind-rookery -n rookery-staging get cm", """NAME                        DATA   AGE
kube-root-ca.crt            1      9m12s
rookery-config-b92hc5k7f8   2      9m10s
rookery-config-m6d2t9c8hb   5      2m2s""")
s.bash("kubectl --context kind-rookery -n rookery-staging delete cm rookery-config-b92hc5k7f8", "configmap \"rookery-config-b92hc5k7f8\" deleted")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 diff -k overlays/staging", """diff -u -N /tmp/LIVE-2291833402/apps.v1.Deployment.rookery-staging.match-server /tmp/MERGED-1960420116/apps.v1.Deployment.rookery-staging.match-server
--- /tmp/LIVE-2291833402/apps.v1.Deployment.rookery-staging.match-server
+++ /tmp/MERGED-1960420116/apps.v1.Deployment.rookery-staging.match-server
@@ -6,7 +6,7 @@
-  generation: 14
+  generation: 15
@@ -48,7 +48,7 @@
           envFrom:
           - configMapRef:
-              name: rookery-config-4h7mdk2b9t
+              name: rookery-config-m6d2t9c8hb
diff -u -N /tmp/LIVE-3378120045/apps.v1.Deployment.rookery-staging.matchmaker /tmp/MERGED-2004571139/apps.v1.Deployment.rookery-staging.matchmaker
@@ -44,7 +44,7 @@
           envFrom:
           - configMapRef:
-              name: rookery-config-4h7mdk2b9t
+              name: rookery-config-m6d2t9c8hb
diff -u -N /tmp/LIVE-1180256631/policy.v1.PodDisruptionBudget.rookery-staging.match-server /tmp/MERGED-3391067280/policy.v1.PodDisruptionBudget.rookery-staging.match-server
--- /tmp/LIVE-1180256631/policy.v1.PodDisruptionBudget.rookery-staging.match-server
+++ /tmp/MERGED-3391067280/policy.v1.PodDisruptionBudget.rookery-staging.match-server
@@ -0,0 +1,22 @@
+apiVersion: policy/v1
+kind: PodDisruptionBudget
+  maxUnavailable: 1
diff -u -N /tmp/LIVE-0921877310/v1.ConfigMap.rookery-staging.rookery-config-m6d2t9c8hb /tmp/MERGED-2718840021/v1.ConfigMap.rookery-staging.rookery-config-m6d2t9c8hb
+  LOG_LEVEL: debug
+  MATCHMAKER_URL: http://matchmaker:8080
+  MAX_PLAYERS_PER_MATCH: "10"
+  REGION_CODE: dev
+  TICK_RATE: "60"
+  name: rookery-config-m6d2t9c8hb""", code=1)
s.assistant(
    "kind: staging overlay applied to `kind-rookery` (namespace rookery-staging created there), both pods Running after the `behavior: merge` fix, PDB allows 1 disruption, LoadBalancer stays `<pending>` on kind as expected. I deleted the broken ConfigMap `rookery-config-b92hc5k7f8` from kind.\n\n"
    "`kubectl diff` against the staging cluster (not applied): both Deployments switch from `rookery-config-4h7mdk2b9t` to the new `rookery-config-m6d2t9c8hb` (same keys, LOG_LEVEL info → debug), plus the new PDB. No selector changes, so apply will not hit the immutable field."
)

# ===================================================================== turn 6
s.user("dont apply staging yet. first test the hpa on kind. prod-ap render wont schedule on kind nodeSelector and taint. do a throwaway overlay in /tmp not in the repo")
s.bash("mkdir -p /tmp/rk/hpa-test && kubectl --context kind-rookery get apiservices v1beta1.metrics.k8s.io 2>&1 | tail -1", "Error from server (NotFound): apiservices.apiregistration.k8s.io \"v1beta1.metrics.k8s.io\" not found", code=1)
s.bash("cat > /tmp/rk/hpa-test/kustomization.yaml <<'EOF2'\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: rookery-hpa-test\nresources:\n  - /home/ruben/src/rookery-deploy/base\ncomponents:\n  - /home/ruben/src/rookery-deploy/components/matchmaker-hpa\nEOF2\nkustomize build /tmp/rk/hpa-test | grep '^kind:'", """Error: accumulating components: accumulateDirectory: "couldn't make target for path '/home/ruben/src/rookery-deploy/components/matchmaker-hpa': kustomization file not found in /home/ruben/src/rookery-deploy/components/matchmaker-hpa: file is not directory" ... security; file '/home/ruben/src/rookery-deploy/components/matchmaker-hpa' is not in or below '/tmp/rk/hpa-test'""", code=1)
s.assistant("kustomize's load restrictor refuses a component outside the kustomization root when it is given as an absolute path like that. Building with `--load-restrictor LoadRestrictionsNone` is fine for a throwaway test in /tmp.")
s.bash("kustomize build --load-restrictor LoadRestrictionsNone /tmp/rk/hpa-test | grep '^kind:'", """kind: ConfigMap
kind: Service
kind: Service
kind: Deployment
kind: Deployment
kind: PodDisruptionBudget
kind: HorizontalPodAutoscaler""")
s.bash("kubectl --context kind-rookery create ns rookery-hpa-test && kustomize build --load-restrictor LoadRestrictionsNone /tmp/rk/hpa-test | kubectl --context kind-rookery apply -f -", """namespace/rookery-hpa-test created
configmap/rookery-config-5c8tk2m7gd created
service/match-server created
service/matchmaker created
deployment.apps/match-server created
deployment.apps/matchmaker created
poddisruptionbudget.policy/match-server created
horizontalpodautoscaler.autoscaling/matchmaker created""")
s.bash("sleep 45; kubectl --context kind-rookery -n rookery-hpa-test get hpa,deploy", """NAME                                             REFERENCE               TARGETS              MINPODS   MAXPODS   REPLICAS   AGE
horizontalpodautoscaler.autoscaling/matchmaker   Deployment/matchmaker   cpu: <unknown>/70%   2         10        2          52s

NAME                           READY   UP-TO-DATE   AVAILABLE   AGE
deployment.apps/match-server   1/1     1            1           52s
deployment.apps/matchmaker     2/2     2            2           52s""")
s.bash("kubectl --context kind-rookery -n rookery-hpa-test describe hpa matchmaker | sed -n '/Conditions/,$p'", """Conditions:
  Type           Status  Reason                   Message
  ----           ------  ------                   -------
  AbleToScale    True    SucceededGetScale        the HPA controller was able to get the target's current scale
  ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)
Events:
  Type     Reason                        Age   From                       Message
  ----     ------                        ----  ----                       -------
  Warning  FailedGetResourceMetric       38s   horizontal-pod-autoscaler  failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)""")
s.assistant("As expected kind has no metrics-server, so the HPA has no CPU numbers. Installing metrics-server v0.7.1 on kind (needs `--kubelet-insecure-tls` there, kind's kubelet certs are self-signed).")
s.bash("kubectl --context kind-rookery apply -f https://github.com/kubernetes-sigs/metrics-server/releases/download/v0.7.1/components.yaml", """serviceaccount/metrics-server created
clusterrole.rbac.authorization.k8s.io/system:aggregated-metrics-reader created
clusterrole.rbac.authorization.k8s.io/system:metrics-server created
rolebinding.rbac.authorization.k8s.io/metrics-server-auth-reader created
clusterrolebinding.rbac.authorization.k8s.io/metrics-server:system:auth-delegator created
clusterrolebinding.rbac.authorization.k8s.io/system:metrics-server created
service/metrics-server created
deployment.apps/metrics-server created
apiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io created""")
s.bash("sleep 40; kubectl --context kind-rookery -n kube-system get pods -l k8s-app=metrics-server; kubectl --context kind-rookery -n kube-system logs deploy/metrics-server | grep -m2 -i 'x509\\|unable'", """NAME                              READY   STATUS    RESTARTS   AGE
metrics-server-6d94bc8694-7kdtv   0/1     Running   0          44s
E1006 14:29:31.806142       1 scraper.go:149] "Failed to scrape node" err="Get \\"https://172.18.0.3:10250/metrics/resource\\": tls: failed to verify certificate: x509: cannot validate certificate for 172.18.0.3 because it doesn't contain any IP SANs" node="rookery-worker"
E1006 14:29:31.811770       1 scraper.go:149] "Failed to scrape node" err="Get \\"https://172.18.0.4:10250/metrics/resource\\": tls: failed to verify certificate: x509: cannot validate certificate for 172.18.0.4 because it doesn't contain any IP SANs" node=\"rookery-worker2\"""")
s.bash("kubectl --context kind-rookery -n kube-system patch deploy metrics-server --type=json -p '[{\"op\":\"add\",\"path\":\"/spec/template/spec/containers/0/args/-\",\"value\":\"--kubelet-insecure-tls\"}]' && kubectl --context kind-rookery -n kube-system rollout status deploy/metrics-server --timeout=120s", """deployment.apps/metrics-server patched
Waiting for deployment "metrics-server" rollout to finish: 1 old replicas are pending termination...
deployment "metrics-server" successfully rolled out""")
s.bash("kubectl --context kind-rookery get apiservice v1beta1.metrics.k8s.io", """NAME                     SERVICE                      AVAILABLE   AGE
v1beta1.metrics.k8s.io   kube-system/metrics-server   True        2m31s""")
s.bash("sleep 60; kubectl --context kind-rookery top pods -n rookery-hpa-test; kubectl --context kind-rookery -n rookery-hpa-test get hpa matchmaker", """NAME                            CPU(cores)   MEMORY(bytes)
match-server-7d5c9b8f6-wq4lr    11m          212Mi
matchmaker-5f8c7d9b6-4hz8n      2m           31Mi
matchmaker-5f8c7d9b6-xk7pm      2m           29Mi
NAME         REFERENCE               TARGETS       MINPODS   MAXPODS   REPLICAS   AGE
matchmaker   Deployment/matchmaker   cpu: 1%/70%   2         10        2          4m12s""")
s.bash("kubectl --context kind-rookery -n rookery-hpa-test run load --image=busybox:1.36 --restart=Never -- sh -c 'for i in 1 2 3 4 5 6 7 8; do (while true; do wget -q -O- http://matchmaker:8080/v1/queue/stats >/dev/null; done) & done; wait'", "pod/load created")
s.bash("sleep 120; kubectl --context kind-rookery -n rookery-hpa-test get hpa matchmaker; kubectl --context kind-rookery top pods -n rookery-hpa-test -l app=matchmaker", """NAME         REFERENCE               TARGETS         MINPODS   MAXPODS   REPLICAS   AGE
matchmaker   Deployment/matchmaker   cpu: 148%/70%   2         10        5          6m31s
NAME                          CPU(cores)   MEMORY(bytes)
matchmaker-5f8c7d9b6-4hz8n    388m         44Mi
matchmaker-5f8c7d9b6-9vq2s    361m         41Mi
matchmaker-5f8c7d9b6-mfz7c    52m          30Mi
matchmaker-5f8c7d9b6-t6wrd    49m          29Mi
matchmaker-5f8c7d9b6-xk7pm    379m         43Mi""")
s.bash("sleep 90; kubectl --context kind-rookery -n rookery-hpa-test get hpa matchmaker", """NAME         REFERENCE               TARGETS        MINPODS   MAXPODS   REPLICAS   AGE
matchmaker   Deployment/matchmaker   cpu: 71%/70%   2         10        7          8m02s""")
s.bash("kubectl --context kind-rookery -n rookery-hpa-test delete pod load && sleep 330 && kubectl --context kind-rookery -n rookery-hpa-test get hpa matchmaker", """pod "load" deleted
NAME         REFERENCE               TARGETS       MINPODS   MAXPODS   REPLICAS   AGE
matchmaker   Deployment/matchmaker   cpu: 2%/70%   2         10        2          13m40s""")
s.bash("kubectl --context kind-rookery -n rookery-hpa-test get events --field-selector involvedObject.kind=HorizontalPodAutoscaler --sort-by=.lastTimestamp | tail -4", """LAST SEEN   TYPE     REASON             OBJECT                           MESSAGE
7m38s       Normal   SuccessfulRescale  horizontalpodautoscaler/matchmaker   New size: 5; reason: cpu resource utilization (percentage of request) above target
6m8s        Normal   SuccessfulRescale  horizontalpodautoscaler/matchmaker   New size: 7; reason: cpu resource utilization (percentage of request) above target
38s         Normal   SuccessfulRescale  horizontalpodautoscaler/matchmaker   New size: 2; reason: All metrics below target""")
s.bash("kubectl --context kind-rookery delete ns rookery-hpa-test --wait=false", "namespace \"rookery-hpa-test\" deleted")
s.assistant(
    "HPA works on kind (throwaway overlay in /tmp/rk/hpa-test = base + the component, built with `--load-restrictor LoadRestrictionsNone`, nothing in the repo):\n"
    "- needed metrics-server on kind: installed v0.7.1 plus `--kubelet-insecure-tls`; it stays installed on kind-rookery.\n"
    "- with 8 busybox wget loops on matchmaker the HPA went 2 → 5 → 7 (cpu 148%, then 71% of the 250m request), and back to 2 about 5 minutes after the load stopped (default scale-down stabilisation).\n"
    "- namespace rookery-hpa-test deleted again.\n\n"
    "Worth knowing: at 250m request a matchmaker saturates at ~380m; if prod load looks like this, 10 max replicas = ~2.5 cores of requests."
)

# ===================================================================== turn 7
s.user("never mind the 6 ap servers. 4 until the asia match pool gets bigger. ops said 4 nodes n2d-standard-8 one server per node. then apply staging")
s.edit(AR, "  name: match-server\nspec:\n  replicas: 6\n", "  name: match-server\nspec:\n  replicas: 4\n")
s.bash("kustomize build overlays/prod-ap | grep -n 'replicas:'; kubectl --context gke_rookery-prod_asia-southeast1_prod-ap-1 get nodes -l cloud.google.com/gke-nodepool=match-n2d -o custom-columns=NAME:.metadata.name,TYPE:.metadata.labels.node\\.kubernetes\\.io/instance-type,CPU:.status.allocatable.cpu --no-headers", """111:  replicas: 4
gke-prod-ap-1-match-n2d-8c1e3f-2kqv   n2d-standard-8   7910m
gke-prod-ap-1-match-n2d-8c1e3f-7hzt   n2d-standard-8   7910m
gke-prod-ap-1-match-n2d-8c1e3f-9mwd   n2d-standard-8   7910m
gke-prod-ap-1-match-n2d-8c1e3f-x4rb   n2d-standard-8   7910m""")
s.assistant("prod-ap match-server is 4 now. Note: each server requests 2 CPU and a node has 7910m allocatable, so the scheduler would put up to 3 servers on one node; nothing enforces 'one per node'. If ops rely on that, it needs a podAntiAffinity or topologySpreadConstraint in the ap nodepool patch. I have not added it. Applying staging now.")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 apply -k overlays/staging", """configmap/rookery-config-m6d2t9c8hb created
service/match-server unchanged
service/matchmaker unchanged
deployment.apps/match-server configured
deployment.apps/matchmaker configured
poddisruptionbudget.policy/match-server created""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging rollout status deploy/match-server --timeout=1200s", """Waiting for deployment "match-server" rollout to finish: 1 old replicas are pending termination...
Waiting for deployment "match-server" rollout to finish: 1 old replicas are pending termination...
deployment "match-server" successfully rolled out""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging rollout status deploy/matchmaker --timeout=120s && kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get pods,pdb", """deployment "matchmaker" successfully rolled out
NAME                                READY   STATUS    RESTARTS   AGE
pod/match-server-59c7f4d8b6-nq2hd   1/1     Running   0          14m
pod/matchmaker-6d8b9f7c5-w7kx2      1/1     Running   0          14m

NAME                                      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE
poddisruptionbudget.policy/match-server   N/A             1                 1                     15m""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging logs deploy/match-server | grep -m3 'config:\\|listening'", """2026-10-06T15:02:44.731Z DEBUG config: LOG_LEVEL=debug
2026-10-06T15:02:44.732Z DEBUG config: MAX_PLAYERS_PER_MATCH=10 REGION_CODE=dev TICK_RATE=60
2026-10-06T15:02:44.734Z INFO  health: listening on :8081""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get events --sort-by=.lastTimestamp | tail -8", """LAST SEEN   TYPE     REASON              OBJECT                               MESSAGE
16m         Normal   ScalingReplicaSet   deployment/match-server              Scaled up replica set match-server-59c7f4d8b6 to 1
16m         Normal   ScalingReplicaSet   deployment/matchmaker                Scaled up replica set matchmaker-6d8b9f7c5 to 1
16m         Normal   Killing             pod/matchmaker-6c4b8d7f9-p5x3n       Stopping container matchmaker
15m         Normal   Started             pod/match-server-59c7f4d8b6-nq2hd    Started container server
15m         Normal   Killing             pod/match-server-7f9d6c5b4-h2m8k     Stopping container server
2m4s        Normal   ScalingReplicaSet   deployment/match-server              Scaled down replica set match-server-7f9d6c5b4 to 0 from 1
2m          Normal   SuccessfulDelete    replicaset/match-server-7f9d6c5b4    Deleted pod: match-server-7f9d6c5b4-h2m8k""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get svc match-server -o jsonpath='{.status.loadBalancer.ingress[0].ip}{\"\\n\"}'; kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging exec deploy/matchmaker -- wget -q -O- http://localhost:8080/healthz", "34.90.172.41\n{\"status\":\"ok\",\"servers\":1,\"queue\":0}")
s.bash("sleep 600; kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get pods", """NAME                            READY   STATUS    RESTARTS   AGE
match-server-59c7f4d8b6-nq2hd   1/1     Running   0          25m
matchmaker-6d8b9f7c5-w7kx2      1/1     Running   0          25m""")
s.bash("kubectl --context gke_rookery-stg_europe-west4_stg-1 -n rookery-staging get cm -o name | grep rookery-config", """configmap/rookery-config-4h7mdk2b9t
configmap/rookery-config-m6d2t9c8hb""")
s.assistant(
    "Staging applied (context `gke_rookery-stg_europe-west4_stg-1`): new ConfigMap `rookery-config-m6d2t9c8hb`, both Deployments rolled out (match-server took ~14 min because the old pod waits for its match, terminationGracePeriodSeconds 900), PDB created, logs show LOG_LEVEL=debug with all keys present. "
    "The old `rookery-config-4h7mdk2b9t` is still there (apply without --prune does not delete generated ConfigMaps); harmless, can be removed once nobody needs a rollback."
)

# ===================================================================== turn 8
s.user("leave the old cm. ap runs 1.30 check. ci must validate prod-ap against 1.30 others stay 1.29. put the loop in scripts/validate.sh ci calls it. istio sidecar annotations for ap later not now")
s.bash("kubectl --context gke_rookery-prod_asia-southeast1_prod-ap-1 version -o json | jq -r .serverVersion.gitVersion; kubectl --context gke_rookery-prod_europe-west4_prod-eu-1 version -o json | jq -r .serverVersion.gitVersion; kubectl --context gke_rookery-prod_us-central1_prod-us-1 version -o json | jq -r .serverVersion.gitVersion", "v1.30.5-gke.1014001\nv1.29.8-gke.1211000\nv1.29.8-gke.1211000")
s.write("scripts/validate.sh", """#!/usr/bin/env bash
# Render every overlay and validate it with kubeconform against the cluster's Kubernetes version.
# Used by CI (.github/workflows/manifests.yaml) and locally.
set -euo pipefail
cd "$(dirname "$0")/.."

KUBECONFORM=${KUBECONFORM:-kubeconform}

k8s_version() {
  case $1 in
    prod-ap) echo 1.30.0 ;;   # prod-ap-1 runs 1.30 (GKE)
    *) echo 1.29.0 ;;
  esac
}

rc=0
for dir in overlays/*/; do
  o=$(basename "$dir")
  v=$(k8s_version "$o")
  echo "== $o (k8s $v)"
  kustomize build "$dir" | "$KUBECONFORM" -strict -summary -kubernetes-version "$v" - || rc=1
done
exit $rc
""")
s.bash("chmod +x scripts/validate.sh && scripts/validate.sh", "== prod-ap (k8s 1.30.0)\n" + kc(8) + "== prod-eu (k8s 1.29.0)\n" + kc(7) + "== prod-us (k8s 1.29.0)\n" + kc(7) + "== staging (k8s 1.29.0)\n" + kc(6))
s.bash("cp overlays/prod-eu/kustomization.yaml /tmp/rk/k.bak && sed -i 's/- path: nodepool.yaml/- path: nodepool-missing.yaml/' overlays/prod-eu/kustomization.yaml; scripts/validate.sh; echo \"rc=$?\"; cp /tmp/rk/k.bak overlays/prod-eu/kustomization.yaml", """== prod-ap (k8s 1.30.0)
Summary: 8 resources found parsing stdin - Valid: 8, Invalid: 0, Errors: 0, Skipped: 0
== prod-eu (k8s 1.29.0)
Error: trouble configuring builtin PatchTransformer with config: `
path: nodepool-missing.yaml
`: failed to get the patch file from path(nodepool-missing.yaml): evalsymlink failure on '/home/ruben/src/rookery-deploy/overlays/prod-eu/nodepool-missing.yaml' : lstat /home/ruben/src/rookery-deploy/overlays/prod-eu/nodepool-missing.yaml: no such file or directory
Summary: 0 resources found parsing stdin - Valid: 0, Invalid: 0, Errors: 0, Skipped: 0
== prod-us (k8s 1.29.0)
Summary: 7 resources found parsing stdin - Valid: 7, Invalid: 0, Errors: 0, Skipped: 0
== staging (k8s 1.29.0)
Summary: 6 resources found parsing stdin - Valid: 6, Invalid: 0, Errors: 0, Skipped: 0
rc=1""")
s.assistant("Negative check: a broken overlay makes the script exit 1 (pipefail catches the kustomize error even though kubeconform sees 0 resources), and it still validates the other overlays. prod-eu restored from the backup. Now CI.")
s.edit(CI, """      - run: |
          curl -sSL https://github.com/yannh/kubeconform/releases/download/v0.6.7/kubeconform-linux-amd64.tar.gz | tar xz
          for o in overlays/*/; do
            kustomize build "$o" | ./kubeconform -strict -summary -kubernetes-version 1.29.0 -
          done
""", """      - run: curl -sSL https://github.com/yannh/kubeconform/releases/download/v0.6.7/kubeconform-linux-amd64.tar.gz | tar xz
      - run: scripts/validate.sh
        env:
          KUBECONFORM: ./kubeconform
""")
s.read(CI)
s.bash("git diff --quiet overlays/prod-eu/kustomization.yaml /tmp/rk/k.bak 2>/dev/null; cmp overlays/prod-eu/kustomization.yaml /tmp/rk/k.bak && echo restored; shellcheck scripts/validate.sh && echo sc-ok; actionlint .github/workflows/manifests.yaml && echo actionlint-ok", "restored\nsc-ok\nactionlint-ok")
s.assistant(
    "- `scripts/validate.sh`: renders every overlay and runs kubeconform `-strict`, k8s **1.30.0 for prod-ap**, 1.29.0 for the others (checked: ap-1 runs v1.30.5-gke, eu-1 and us-1 v1.29.8-gke); exits 1 if any overlay fails but validates all of them; `KUBECONFORM` env picks the binary.\n"
    "- CI workflow: downloads kubeconform v0.6.7 as before, then runs `scripts/validate.sh` with `KUBECONFORM=./kubeconform`. shellcheck and actionlint clean.\n"
    "- Istio sidecar annotations for ap: not touched, noted for later."
)

# ===================================================================== turn 8b
s.user("one per node on ap is a hard requirement udp jitter when two servers share a node. required anti affinity on hostname ap only. prove it on kind")
s.edit(AN, """      tolerations:
""", """      affinity:
        podAntiAffinity:
          # one match-server per node: two servers on one node cause UDP jitter
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector:
                matchLabels:
                  app: match-server
              topologyKey: kubernetes.io/hostname
      tolerations:
""")
s.bash("kustomize build overlays/prod-ap | grep -n -A8 'affinity:'", """151:      affinity:
152-        podAntiAffinity:
153-          requiredDuringSchedulingIgnoredDuringExecution:
154-          - labelSelector:
155-              matchLabels:
156-                app: match-server
157-            topologyKey: kubernetes.io/hostname
158-      nodeSelector:
159-        cloud.google.com/gke-nodepool: match-n2d""")
s.bash("scripts/validate.sh 2>&1 | sed -n '1,2p'", "== prod-ap (k8s 1.30.0)\n" + kc(8).rstrip("\n"))
s.bash("mkdir -p /tmp/rk/aa-test && cat > /tmp/rk/aa-test/kustomization.yaml <<'EOF2'\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: rookery-aa-test\nresources:\n  - /home/ruben/src/rookery-deploy/base\npatches:\n  - target: {kind: Deployment, name: match-server}\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 4\n      - op: add\n        path: /spec/template/spec/affinity\n        value: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: match-server}}, topologyKey: kubernetes.io/hostname}]}}\n      - op: replace\n        path: /spec/template/spec/containers/0/resources/requests/cpu\n        value: 100m\nEOF2\nkubectl --context kind-rookery create ns rookery-aa-test && kustomize build --load-restrictor LoadRestrictionsNone /tmp/rk/aa-test | kubectl --context kind-rookery apply -f - | grep deployment", """namespace/rookery-aa-test created
deployment.apps/match-server created
deployment.apps/matchmaker created""")
s.bash("sleep 30; kubectl --context kind-rookery -n rookery-aa-test get pods -l app=match-server -o wide", """NAME                            READY   STATUS    RESTARTS   AGE   IP            NODE                    NOMINATED NODE   READINESS GATES
match-server-6f8d9c7b5-4qxkd    1/1     Running   0          34s   10.244.1.12   rookery-worker          <none>           <none>
match-server-6f8d9c7b5-b7nzc    0/1     Pending   0          34s   <none>        <none>                  <none>           <none>
match-server-6f8d9c7b5-jw2lp    1/1     Running   0          34s   10.244.2.9    rookery-worker2         <none>           <none>
match-server-6f8d9c7b5-r5tvm    0/1     Pending   0          34s   <none>        <none>                  <none>           <none>""")
s.bash("kubectl --context kind-rookery -n rookery-aa-test describe pod match-server-6f8d9c7b5-b7nzc | sed -n '/Events:/,$p'", """Events:
  Type     Reason            Age   From               Message
  ----     ------            ----  ----               -------
  Warning  FailedScheduling  36s   default-scheduler  0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.""")
s.bash("kubectl --context kind-rookery delete ns rookery-aa-test --wait=false", "namespace \"rookery-aa-test\" deleted")
s.assistant(
    "Anti-affinity is in overlays/prod-ap/nodepool.yaml only: `requiredDuringSchedulingIgnoredDuringExecution`, `app: match-server`, topologyKey `kubernetes.io/hostname`. "
    "On kind (2 workers, 4 replicas, throwaway overlay in /tmp/rk/aa-test) exactly 2 run, one per worker, and 2 stay Pending with `2 node(s) didn't match pod anti-affinity rules`. "
    "Consequence for ap: with 4 match-n2d nodes and 4 replicas there is **no room for a surge pod**, so a rolling update can only proceed by first terminating an old server (default maxSurge 25% = 1 extra pod would stay Pending until one old pod is gone, up to 900 s grace). Worth telling ops before the first rollout."
)

# ===================================================================== turn 9
s.user("ap gets the new server build 2026.10.2 digest sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3e. matchmaker stays. eu us stay on the old digest")
s.bash("crane digest ghcr.io/ravenfall/rookery-server:2026.10.2", "sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3f")
s.bash("crane manifest ghcr.io/ravenfall/rookery-server:2026.10.2 | jq -r '.mediaType, (.manifests // [] | length)'", "application/vnd.oci.image.index.v1+json\n2")
s.bash("crane ls ghcr.io/ravenfall/rookery-server | tail -4; crane config ghcr.io/ravenfall/rookery-server@sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3e 2>&1 | tail -1", """2026.9.3
2026.9.4
2026.10.1
2026.10.2
Error: fetching config: GET https://ghcr.io/v2/ravenfall/rookery-server/manifests/sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3e: MANIFEST_UNKNOWN: manifest unknown; map[Name:ravenfall/rookery-server Revision:sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3e]""", code=1)
s.assistant("Stopping before I write it: the digest you gave does not exist in ghcr (`MANIFEST_UNKNOWN`). The registry says tag 2026.10.2 is `sha256:b3f19c0e…0c1d3**f**`, yours ends in `…0c1d3**e**`, one character off. Which one should go in?")
s.user("cranes one. typo on my side")
s.edit(AK, """  - name: ghcr.io/ravenfall/rookery-server
    digest: sha256:7d1c0e9a4b5f3a2e8c6d0b1f9e7a5c3d2b4f6e8a0c1d3e5f7a9b2c4d6e8f0a1b
""", """  - name: ghcr.io/ravenfall/rookery-server
    digest: sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3f  # 2026.10.2
""")
s.bash("for o in prod-eu prod-us prod-ap; do echo \"$o $(kustomize build overlays/$o | grep -o 'rookery-server@sha256:[0-9a-f]\\{12\\}')\"; done", """prod-eu rookery-server@sha256:7d1c0e9a4b5f
prod-us rookery-server@sha256:7d1c0e9a4b5f
prod-ap rookery-server@sha256:b3f19c0e7d2a""")
s.bash("kustomize build overlays/prod-ap | grep -n 'image:'", """93:        image: ghcr.io/ravenfall/rookery-matchmaker@sha256:2e4a6c8e0b1d3f5a7c9e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a2c4e6b8d1f3a
130:        image: ghcr.io/ravenfall/rookery-server@sha256:b3f19c0e7d2a5b8c4e6f1a3d9b7c5e2f8a0d4c6b1e3f5a7c9d2b4e6f8a0c1d3f""")
s.bash("scripts/validate.sh 2>&1 | grep -c 'Invalid: 0'; for o in staging prod-eu prod-us; do kustomize build overlays/$o > /tmp/rk/final-$o.yaml; done; cmp /tmp/rk/after-prod-eu.yaml /tmp/rk/final-prod-eu.yaml && cmp /tmp/rk/after-prod-us.yaml /tmp/rk/final-prod-us.yaml && echo eu-us-unchanged-since-hpa", "4\neu-us-unchanged-since-hpa")

# ===================================================================== turn 10
s.user("commit on branch prod-ap-overlay. dont push")
s.bash("git status --short", """ M .github/workflows/manifests.yaml
 M base/kustomization.yaml
 M overlays/prod-eu/kustomization.yaml
 M overlays/prod-eu/replicas.yaml
 M overlays/prod-us/kustomization.yaml
 M overlays/prod-us/replicas.yaml
 M overlays/staging/kustomization.yaml
?? base/pdb.yaml
?? components/
?? overlays/prod-ap/
?? scripts/""")
s.bash("git switch -c prod-ap-overlay && git add -A && git commit -q -F - <<'EOF2'\nprod-ap overlay (Singapore), labels/patches migration, PDB, matchmaker HPA component\n\n- overlays/prod-ap: REGION_CODE=ap1, match-n2d pool, 4 match-servers, server 2026.10.2 by digest,\n  region label on metadata only (includeSelectors: false)\n- commonLabels -> labels (includeSelectors: true), patchesStrategicMerge -> patches;\n  staging/prod-eu/prod-us renders unchanged by the migration\n- base/pdb.yaml: match-server maxUnavailable 1\n- components/matchmaker-hpa: min 2 max 10 cpu 70% for prod overlays; matchmaker replicas\n  removed from prod replica patches\n- staging: configMapGenerator behavior merge (replace dropped base keys, pods exited 78)\n- prod-ap: required podAntiAffinity on hostname (one match-server per node)\n- scripts/validate.sh: kubeconform 1.30.0 for prod-ap, 1.29.0 otherwise; CI uses it\nEOF2\ngit log --oneline -2", """Switched to a new branch 'prod-ap-overlay'
d2c84f7 prod-ap overlay (Singapore), labels/patches migration, PDB, matchmaker HPA component
b81f3d2 prod-eu: match-server 8 replicas for season 4""")
s.bash("git show --stat --format='%h %an %s' HEAD | tail -16", """d2c84f7 Ruben Achterberg prod-ap overlay (Singapore), labels/patches migration, PDB, matchmaker HPA component
 .github/workflows/manifests.yaml                |  8 ++---
 base/kustomization.yaml                         |  7 ++--
 base/pdb.yaml                                   |  9 +++++
 components/matchmaker-hpa/hpa.yaml              | 17 ++++++++++
 components/matchmaker-hpa/kustomization.yaml    |  4 +++
 overlays/prod-ap/kustomization.yaml             | 31 +++++++++++++++++
 overlays/prod-ap/namespace.yaml                 |  4 +++
 overlays/prod-ap/nodepool.yaml                  | 21 ++++++++++++
 overlays/prod-ap/replicas.yaml                  |  6 ++++
 overlays/prod-eu/kustomization.yaml             | 16 +++++----
 overlays/prod-eu/replicas.yaml                  |  7 ----
 overlays/prod-us/kustomization.yaml             | 14 ++++----
 overlays/prod-us/replicas.yaml                  |  7 ----
 overlays/staging/kustomization.yaml             | 11 ++++---
 scripts/validate.sh                             | 25 ++++++++++++
 15 files changed, 171 insertions(+), 31 deletions(-)""")
s.bash("scripts/validate.sh | grep Summary", "\n".join(kc(n).rstrip("\n") for n in (8, 7, 7, 6)))
s.bash("git status --short | wc -l; git branch -vv | grep prod-ap-overlay", "0\n* prod-ap-overlay d2c84f7 prod-ap overlay (Singapore), labels/patches migration, PDB, matchmaker HPA component")
s.assistant(
    "Committed **d2c84f7** on the new branch `prod-ap-overlay` (not pushed).\n\n"
    "State:\n"
    "- staging applied with this branch's staging overlay; kind-rookery has the staging overlay and metrics-server.\n"
    "- Nothing applied to any prod context; prod-ap's namespace comes from overlays/prod-ap/namespace.yaml on first apply.\n\n"
    "Open:\n"
    "- Istio sidecar annotations for ap (later).\n"
    "- ap rollouts with 4 servers on 4 nodes and hard anti-affinity: the surge pod waits until an old server has terminated; tell ops.\n"
    "- Old staging ConfigMap `rookery-config-4h7mdk2b9t` left in place as you said."
)
s.save(HERE / "session.jsonl")
