# ruff: noqa: E501
"""Labels for pi-nix-tidelog, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "tidelog-flake (Nix flake: buildGoModule + NixOS module + VM test): bump tidelog 0.8.3 -> 0.9.0, Go 1.23 from nixpkgs-unstable, http.listen, /metrics, arm CI failure",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5a test split",
    "voice": "brisk short orders; the important values (hashes, ports, versions, sizes, timings) appear only in tool output or the assistant's prose",
    "toolchain": "Nix 2.18 flakes (nix build -L, nix flake check, nix log, nix eval, nix store diff-closures), nixos-24.05 + nixos-unstable, buildGoModule, runNixOSTest, nixfmt-rfc-style, GitHub Actions via gh",
}
COMPACTIONS = [
    ("Package builds: tidelog 0.9.0 (go1.23.1)", 900),
    ("flake check green: the VM test passes in 1m48s", 1200),
    ("Done; the assert checks the build-info metric", 1500),
]
FACTS = [
    f("n01", "request", "must", "Bump tidelog to 0.9.0.", "Bump the packaged tidelog from 0.8.3 to 0.9.0.", [r"0\.9\.0|0\.9\b", r"bump|upgrad|tidelog"], "done"),
    f("n02", "constraint", "must", "Bump tidelog to 0.9.0.", "nix flake check has to stay green.", [r"flake check", r"green|pass"]),
    f("n03", "constraint", "must", "Bump tidelog to 0.9.0.", "No IFD (import from derivation) in the flake.", [r"\bIFD\b|import[- ]from[- ]derivation"]),
    f("n04", "value", "should", "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "src hash of tidelog v0.9.0 (fetchFromGitHub): sha256-Zx3c5yJk1PqT9f0bW7nR2vE4uH8sL6mA1dG3oK5iQ0c=.", [r"Zx3c5y", r"src|source|hash"]),
    f("n05", "value", "should", "c7x6z5a4s3d2f1g0h9j8k7l6q5w4e3r2", "vendorHash of 0.9.0: sha256-Lp4Qm8rT2wX6vB0nC9eF1gH3jK5sD7aZ4yU6iO8pR2E=.", [r"Lp4Qm8", r"vendor|hash|go-modules"]),
    f("n06", "error", "must", "running go 1.22.5; GOTOOLCHAIN=local", "0.9.0's go.mod requires Go >= 1.23.0; nixos-24.05 only has Go 1.22.5 (no go_1_23), so the build failed.", [r"1\.23", r"go\.mod|requires|1\.22"], "fixed"),
    f("n07", "finding", "should", "Config: `listen` moved under `http:`", "tidelog 0.9.0 release notes: config key listen moved to http.listen (unknown keys only logged), default listen is now 127.0.0.1:9087, needs Go 1.23, new /metrics.", [r"http\.listen|9087", r"listen|moved|default"]),
    f("n08", "decision", "must", "2. Whole flake stays on 24.05, the hosts run 24.05.", "Option 2: the whole flake stays on nixos-24.05 (the hosts run 24.05); only Go comes from a new nixpkgs-unstable input.", [r"24\.05", r"stays?|hosts|whole flake|unstable"]),
    f("n09", "decision", "should", "Package builds: tidelog 0.9.0 (go1.23.1)", "nixpkgs-unstable is used only for buildGo123Module (Go 1.23.1) in packages.default; the built binary reports tidelog 0.9.0 (go1.23.1).", [r"unstable", r"buildGo123Module|go ?1\.23|only"]),
    f("n10", "value", "nice", "Added input 'nixpkgs-unstable'", "nixpkgs-unstable is locked at b1f7e2c94a0d (2026-07-19).", [r"b1f7e2c9", r"unstable|lock"]),
    f("n11", "error", "should", "--- FAIL: TestPushRetriesOnDNSFailure (0.00s)", "checkPhase failed in the middle of the log: TestPushRetriesOnDNSFailure and TestResolveUpstreamSRV in internal/push need DNS, which the Nix sandbox lacks.", [r"TestPushRetriesOnDNSFailure|TestResolveUpstreamSRV|DNS|lookup", r"FAIL|sandbox|connection refused"], "fixed"),
    f("n12", "fix", "should", "Go 1.23 builds it (buildPhase 38 s).", "Only those two DNS tests are skipped via checkFlags (-skip=^(TestPushRetriesOnDNSFailure|TestResolveUpstreamSRV)$); the rest of the checkPhase still runs.", [r"checkFlags|-skip|skipp", r"DNS|two|TestPush|TestResolve|sandbox"]),
    f("n13", "value", "should", "The +2.8 MiB is the binary itself", "Closure of 0.9.0 is 41.7M vs 38.9M for 0.8.3 (+2841.3 KiB), 4 store paths, no runtime Go; 31 Go module deps vs 23 (protobuf, snappy).", [r"41\.7 ?M|38\.9 ?M|2\.8 ?MiB|2841", r"closure|size|bigger|KiB|MiB"]),
    f("n14", "error", "must", "The VM check fails after a 5-minute timeout on port 8087.", "VM test timed out waiting for port 8087: the journal (mid-log) said unknown config key ignored key=listen, renamed to http.listen in 0.9, so tidelog listened on 127.0.0.1:9087.", [r"http\.listen|unknown config key|9087", r"listen|port|8087|VM"], "fixed"),
    f("n15", "fix", "must", "flake check green: the VM test passes in 1m48s", "The NixOS module now generates http.listen (merged with lib.recursiveUpdate so settings.http keeps it); the port option keeps its default 8087.", [r"http\.listen", r"module|recursiveUpdate|generat"]),
    f("n16", "value", "nice", "real\t1m48.330s", "Green nix flake check takes about 1m48s (VM script ~9.9 s); the failing one ran 5m41s into the port timeout.", [r"1m48|9\.9|5m41", r"real|VM|test|check|finished"]),
    f("n17", "command", "should", "CI runs `nixfmt-rfc-style --check` before the flake check", "CI runs nix run nixpkgs#nixfmt-rfc-style -- --check flake.nix nix/ before the flake check; module.nix had to be formatted.", [r"nixfmt", r"check|CI|format"]),
    f("n18", "request", "should", "README: the settings example uses `http.listen` now", "README updated: settings example uses http.listen; note that the package uses Go 1.23 from nixpkgs-unstable.", [r"README", r"http\.listen|unstable|updated|note"], "done"),
    f("n19", "request", "should", "Also /metrics. Scrape it from the VM test.", "VM test also scrapes /metrics; golangci-lint added to the dev shell.", [r"/metrics|golangci", r"VM test|scrape|dev ?shell"], "done"),
    f("n20", "error", "nice", "The metric names differ from what I guessed", "The first /metrics assert used tidelog_lines_shipped_total, which 0.9.0 does not expose without shipped lines; exposed: tidelog_build_info, tidelog_push_errors_total, tidelog_push_queue_bytes, tidelog_sources_watched.", [r"tidelog_build_info|tidelog_lines_shipped_total", r"metrics?|assert|names?"], "fixed"),
    f("n21", "value", "should", "VM test now also scrapes /metrics and checks", "Dev shell: Go 1.23.1 from unstable, golangci-lint 1.59.1, gopls 0.15.3.", [r"1\.59\.1|0\.15\.3", r"golangci|gopls|dev ?shell"]),
    f("n22", "decision", "should", "Drop the go part of that assert. Renovate will bump unstable weekly.", "The metrics assert checks tidelog_build_info with version=\"0.9.0\" only, not the Go version (Renovate bumps unstable weekly).", [r"assert|go part|go version", r"drop|renovate|weekly"], "done"),
    f("n23", "finding", "should", "Can't build aarch64 here", "aarch64 cannot be built on this machine (no remote builders, no binfmt); CI runs nix flake check on ubuntu-24.04 and ubuntu-24.04-arm.", [r"aarch64|\barm\b", r"can.?t build|remote builders?|binfmt|CI"]),
    f("n24", "state", "must", "8d21f6e tidelog 0.9.0", "Committed as 8d21f6e on new branch tidelog-0.9 and pushed (no PR opened).", [r"8d21f6e|tidelog-0\.9", r"commit|push|branch"], "done"),
    f("n25", "error", "must", "CI: x86_64 job green, arm job red.", "CI run 10244871930: x86_64 green, the arm job failed in TestTailRotation (internal/tail: timed out after 2s waiting for line 3 after rotation), a timing-sensitive upstream test on the slower runner.", [r"TestTailRotation|rotation", r"\barm\b|aarch64|timed out|timing|CI"], "open"),
    f("n26", "request", "must", "Rerun once. If it fails again skip it on aarch64 only", "Rerun the arm job once; if it fails again, skip TestTailRotation on aarch64 only and open an upstream issue. Not today.", [r"rerun|re-run|again", r"aarch64|skip|upstream|issue"], "open"),
    f("n27", "state", "should", "Rerun of the failed arm job requested (run 10244871930)", "The rerun of the failed arm job was requested and still in progress at the end.", [r"rerun|re-run|10244871930", r"progress|requested|pending"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
