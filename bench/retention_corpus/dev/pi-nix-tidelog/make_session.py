# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout5a split.

A brisk user (short orders; the important values - hashes, ports, versions, sizes, timings - appear
only in tool output or in the assistant's prose) has pi bump a Go service packaged in a Nix flake
(buildGoModule, NixOS module, runNixOSTest VM check) from 0.8.3 to 0.9.0: src and vendorHash
mismatches, a Go 1.23 requirement met from a nixpkgs-unstable input, a sandbox test failure buried
mid-log, a renamed config key found in the VM journal. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/teodor/infra/tidelog-flake"
s = PiSession(CWD, "2026-07-21T15:20:44", seed="tidelog-bump")

FLAKE = "flake.nix"
PKG = "nix/package.nix"
MOD = "nix/module.nix"
TEST = "nix/test.nix"
README = "README.md"

SRC_OLD = "sha256-q8H0mUeZkQ7m1YwVd2o0lJrXWbC8mRkE6u0n9v3tGxo="
VEND_OLD = "sha256-7wKzJ0b1xkV3fD8a1oQpQy8x3sWJ0s3R5b6c9kE2n4A="
SRC_NEW = "sha256-Zx3c5yJk1PqT9f0bW7nR2vE4uH8sL6mA1dG3oK5iQ0c="
VEND_NEW = "sha256-Lp4Qm8rT2wX6vB0nC9eF1gH3jK5sD7aZ4yU6iO8pR2E="
UNSTABLE_REV = "b1f7e2c94a0d5f3e8c6a7b2d1e0f9a8c7b6d5e4f"

s.files.update({
    FLAKE: """{
  description = "tidelog: log shipper for the harbour sensor gateways";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";
    flake-utils.url = "github:numtide/flake-utils";
  };

  outputs = { self, nixpkgs, flake-utils }:
    flake-utils.lib.eachSystem [ "x86_64-linux" "aarch64-linux" ] (system:
      let
        pkgs = nixpkgs.legacyPackages.${system};
      in
      {
        packages.default = pkgs.callPackage ./nix/package.nix { };
        checks.vm = pkgs.testers.runNixOSTest (import ./nix/test.nix { inherit self; });
        devShells.default = pkgs.mkShell { packages = [ pkgs.go pkgs.gopls ]; };
      })
    // {
      nixosModules.default = import ./nix/module.nix self;
    };
}
""",
    PKG: """{ lib, buildGoModule, fetchFromGitHub }:

buildGoModule rec {
  pname = "tidelog";
  version = "0.8.3";

  src = fetchFromGitHub {
    owner = "harbourworks";
    repo = "tidelog";
    rev = "v${version}";
    hash = "%s";
  };

  vendorHash = "%s";

  subPackages = [ "cmd/tidelog" ];
  ldflags = [ "-s" "-w" "-X main.version=${version}" ];

  meta = {
    description = "Ships sensor gateway logs to Loki";
    mainProgram = "tidelog";
    license = lib.licenses.asl20;
  };
}
""" % (SRC_OLD, VEND_OLD),
    MOD: """self:
{ config, lib, pkgs, ... }:

let
  cfg = config.services.tidelog;
  settingsFormat = pkgs.formats.yaml { };
  configFile = settingsFormat.generate "tidelog.yaml" ({
    listen = "0.0.0.0:${toString cfg.port}";
    loki_url = cfg.lokiUrl;
  } // cfg.settings);
in
{
  options.services.tidelog = {
    enable = lib.mkEnableOption "tidelog";
    package = lib.mkOption {
      type = lib.types.package;
      default = self.packages.${pkgs.system}.default;
    };
    port = lib.mkOption {
      type = lib.types.port;
      default = 8087;
    };
    lokiUrl = lib.mkOption { type = lib.types.str; };
    openFirewall = lib.mkOption { type = lib.types.bool; default = false; };
    settings = lib.mkOption { type = settingsFormat.type; default = { }; };
  };

  config = lib.mkIf cfg.enable {
    systemd.services.tidelog = {
      wantedBy = [ "multi-user.target" ];
      after = [ "network-online.target" ];
      wants = [ "network-online.target" ];
      serviceConfig = {
        ExecStart = "${lib.getExe cfg.package} --config ${configFile}";
        DynamicUser = true;
        Restart = "on-failure";
      };
    };
    networking.firewall.allowedTCPPorts = lib.mkIf cfg.openFirewall [ cfg.port ];
  };
}
""",
    TEST: """{ self }:
{
  name = "tidelog";
  nodes.machine = { ... }: {
    imports = [ self.nixosModules.default ];
    services.tidelog = {
      enable = true;
      lokiUrl = "http://127.0.0.1:3100";
    };
  };
  testScript = ''
    machine.wait_for_unit("tidelog.service")
    machine.wait_for_open_port(8087)
    machine.succeed("curl -sf http://127.0.0.1:8087/healthz")
  '';
}
""",
    README: """# tidelog-flake

Nix packaging and a NixOS module for [tidelog](https://github.com/harbourworks/tidelog).

```nix
services.tidelog = {
  enable = true;
  lokiUrl = "http://loki.harbour.lan:3100";
  port = 8087;            # listen port (default 8087)
  openFirewall = true;
  settings = {
    listen = "0.0.0.0:8087";   # overrides port
    batch_bytes = 1048576;
  };
};
```

Check everything with `nix flake check -L` (builds the package and runs the VM test).
""",
})
s.snapshot()


def drv(name: str, h: str) -> str:
    return f"/nix/store/{h}-{name}.drv"


# ============================================================================================ turn 1
s.user("Bump tidelog to 0.9.0. flake check has to stay green. No IFD.", pause=0)
s.bash("ls -a; ls nix", ".\n..\n.envrc\n.git\n.github\nREADME.md\nflake.lock\nflake.nix\nnix\n\nmodule.nix\npackage.nix\ntest.nix\n")
s.reads([FLAKE, PKG])
s.reads([MOD, TEST])
s.bash("nix flake metadata --json | jq -r '.locks.nodes | to_entries[] | select(.value.locked) | \"\\(.key) \\(.value.locked.rev) \\(.value.locked.lastModified)\"'", "flake-utils b1d9ab70662946ef0850d488da1c9019f3a9752a 1710146030\nnixpkgs 4b1b4e8d5f0a3c2e9d7f6a5b4c3d2e1f0a9b8c7d 1721288410\nsystems da67096a3b9bf56a91d16901293e51ba5b49a27e 1681028828\n")
s.bash("cat .envrc; nix flake show 2>&1 | tail -14", "use flake\ngit+file:///home/teodor/infra/tidelog-flake\n├───checks\n│   ├───aarch64-linux\n│   │   └───vm omitted (use '--all-systems' to show)\n│   └───x86_64-linux\n│       └───vm: derivation 'vm-test-run-tidelog'\n├───devShells\n│   ├───aarch64-linux\n│   │   └───default omitted (use '--all-systems' to show)\n│   └───x86_64-linux\n│       └───default: development environment 'nix-shell'\n├───nixosModules\n│   └───default: NixOS module\n└───packages\n    └───x86_64-linux\n        └───default: package 'tidelog-0.8.3'\n")
s.bash("git log --oneline -4; nix --version", "3f0c9a1 tidelog 0.8.3\n9e2b7d4 module: openFirewall\n51a8c03 vm check\n0b4e6f2 initial flake\nnix (Nix) 2.18.5\n")
s.bash("gh release view v0.9.0 --repo harbourworks/tidelog | sed -n 1,30p", "title:\tv0.9.0\ntag:\tv0.9.0\ndraft:\tfalse\nprerelease:\tfalse\nauthor:\tmkallio\npublished:\t2026-07-16T09:12:50Z\nurl:\thttps://github.com/harbourworks/tidelog/releases/tag/v0.9.0\n--\n## 0.9.0\n\n- Config: `listen` moved under `http:` as `http.listen`. Unknown keys are logged and ignored.\n- Default listen address is now `127.0.0.1:9087`.\n- Loki push uses snappy-compressed protobuf.\n- Requires Go 1.23.\n- New: `/metrics` on the HTTP listener.\n")
s.bash("nix build .#default && ./result/bin/tidelog --version", "tidelog 0.8.3 (go1.22.5)\n")
s.bash("sed -n 14,24p .github/workflows/ci.yml", "    steps:\n      - uses: actions/checkout@v4\n      - uses: DeterminateSystems/nix-installer-action@v13\n      - uses: DeterminateSystems/magic-nix-cache-action@v7\n      - run: nix run nixpkgs#nixfmt-rfc-style -- --check flake.nix nix/\n      - run: nix flake check -L\n")
s.bash("git ls-remote https://github.com/harbourworks/tidelog refs/tags/v0.9.0 refs/tags/v0.8.3", "5e1c7a93d04b2f6e8a1c3d5f7b9e0a2c4d6f8b1a\trefs/tags/v0.8.3\n9d2f4b6e8a0c1e3a5c7e9b1d3f5a7c9e1b3d5f7a\trefs/tags/v0.9.0\n")
s.edit(PKG, '  version = "0.8.3";', '  version = "0.9.0";')
s.edit(PKG, f'    hash = "{SRC_OLD}";', '    hash = lib.fakeHash;')
s.bash("nix build .#default -L 2>&1 | tail -8", f"""error: hash mismatch in fixed-output derivation '{drv('source', 'v3k8m2q1x9n7b5c4z0a6s8d2f4g6h8j1')}':
         specified: sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
            got:    {SRC_NEW}
error: 1 dependencies of derivation '{drv('tidelog-0.9.0', 'p0w9e8r7t6y5u4i3o2a1s0d9f8g7h6j5')}' failed to build
""", code=1)
s.edit(PKG, '    hash = lib.fakeHash;', f'    hash = "{SRC_NEW}";')
s.bash("nix build .#default -L 2>&1 | tail -8", f"""tidelog-go-modules> go: downloading golang.org/x/sys v0.22.0
tidelog-go-modules> go: downloading github.com/golang/snappy v0.0.4
tidelog-go-modules> go: downloading google.golang.org/protobuf v1.34.2
error: hash mismatch in fixed-output derivation '{drv('tidelog-0.9.0-go-modules', 'c7x6z5a4s3d2f1g0h9j8k7l6q5w4e3r2')}':
         specified: {VEND_OLD}
            got:    {VEND_NEW}
error: 1 dependencies of derivation '{drv('tidelog-0.9.0', 'm1n2b3v4c5x6z7a8s9d0f1g2h3j4k5l6')}' failed to build
""", code=1)
s.edit(PKG, f'  vendorHash = "{VEND_OLD}";', f'  vendorHash = "{VEND_NEW}";')
s.bash("nix build .#default -L 2>&1 | tail -30", f"""tidelog> unpacking sources
tidelog> unpacking source archive /nix/store/9a0k2m4x6z8q1w3e5r7t9y1u3i5o7p9a-source
tidelog> source root is source
tidelog> patching sources
tidelog> updateAutotoolsGnuConfigScriptsPhase
tidelog> configuring
tidelog> building
tidelog> Building subPackage ./cmd/tidelog
tidelog> go: go.mod requires go >= 1.23.0 (running go 1.22.5; GOTOOLCHAIN=local)
tidelog> buildPhase completed in 1 seconds
error: builder for '{drv('tidelog-0.9.0', 'm1n2b3v4c5x6z7a8s9d0f1g2h3j4k5l6')}' failed with exit code 1;
       last 10 log lines:
       > unpacking source archive /nix/store/9a0k2m4x6z8q1w3e5r7t9y1u3i5o7p9a-source
       > source root is source
       > patching sources
       > updateAutotoolsGnuConfigScriptsPhase
       > configuring
       > building
       > Building subPackage ./cmd/tidelog
       > go: go.mod requires go >= 1.23.0 (running go 1.22.5; GOTOOLCHAIN=local)
       > buildPhase completed in 1 seconds
       For full logs, run 'nix log {drv('tidelog-0.9.0', 'm1n2b3v4c5x6z7a8s9d0f1g2h3j4k5l6')}'.
""", code=1)
s.bash("curl -sL https://raw.githubusercontent.com/harbourworks/tidelog/v0.9.0/go.mod | head -5", "module github.com/harbourworks/tidelog\n\ngo 1.23.0\n\nrequire (\n")
s.bash("nix eval --raw nixpkgs#go.version; echo; nix eval --raw nixpkgs#go_1_23.version 2>&1 | tail -2", "1.22.5\nerror: flake 'flake:nixpkgs' does not provide attribute 'packages.x86_64-linux.go_1_23', 'legacyPackages.x86_64-linux.go_1_23' or 'go_1_23'\n")
s.bash("nix eval --raw github:NixOS/nixpkgs/nixos-unstable#go_1_23.version; echo; nix eval --raw github:NixOS/nixpkgs/nixos-24.05#go_1_22.version", "1.23.1\n1.22.5\n")
s.assistant(
    "Hashes done: src `sha256-Zx3c5yJk1PqT9f0bW7nR2vE4uH8sL6mA1dG3oK5iQ0c=`, vendorHash `sha256-Lp4Qm8rT2wX6vB0nC9eF1gH3jK5sD7aZ4yU6iO8pR2E=`.\n\n"
    "Blocker: 0.9.0's go.mod needs Go >= 1.23; nixos-24.05 has Go 1.22.5 and no `go_1_23`. nixos-unstable has 1.23.1. Options:\n"
    "1. Move the whole flake to nixos-unstable.\n"
    "2. Add nixos-unstable as a second input, take only `buildGo123Module` from it for this package.\n"
    "3. Stay on 0.8.3.\n\n"
    "Also from the release notes, to keep in mind: `listen` moved to `http.listen`, default listen is now 127.0.0.1:9087, unknown keys are only logged."
)

# ============================================================================================ turn 2
s.user("2. Whole flake stays on 24.05, the hosts run 24.05.")
s.edit(FLAKE, """    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";
    flake-utils.url = "github:numtide/flake-utils";
  };

  outputs = { self, nixpkgs, flake-utils }:""", """    nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.05";
    # only for Go 1.23 (tidelog >= 0.9 needs it); everything else stays on 24.05
    nixpkgs-unstable.url = "github:NixOS/nixpkgs/nixos-unstable";
    flake-utils.url = "github:numtide/flake-utils";
  };

  outputs = { self, nixpkgs, nixpkgs-unstable, flake-utils }:""")
s.edit(FLAKE, """        pkgs = nixpkgs.legacyPackages.${system};
      in
      {
        packages.default = pkgs.callPackage ./nix/package.nix { };""", """        pkgs = nixpkgs.legacyPackages.${system};
        unstable = nixpkgs-unstable.legacyPackages.${system};
      in
      {
        packages.default = pkgs.callPackage ./nix/package.nix {
          buildGoModule = unstable.buildGo123Module;
        };""")
s.bash("nix flake lock 2>&1", f"warning: Git tree '/home/teodor/infra/tidelog-flake' is dirty\nwarning: updating lock file '/home/teodor/infra/tidelog-flake/flake.lock':\n• Added input 'nixpkgs-unstable':\n    'github:NixOS/nixpkgs/{UNSTABLE_REV}' (2026-07-19)\n")
s.bash("nix flake metadata 2>&1 | grep -A1 'nixpkgs-unstable'; git diff --stat flake.lock", f"├───nixpkgs-unstable: github:NixOS/nixpkgs/{UNSTABLE_REV}?narHash=sha256-8Kq2vN0xY5mB3cT7wR1eZ9uA4sD6fG2hJ0kL8pQ3oI4%3D (2026-07-19 21:40:12)\n flake.lock | 17 +++++++++++++++++\n 1 file changed, 17 insertions(+)\n")
s.bash("nix eval --raw .#packages.x86_64-linux.default.go.version 2>&1 || nix eval --raw .#packages.x86_64-linux.default.passthru.go.version", "1.23.1")
s.bash("nix build .#default -L 2>&1 | tail -40", f"""tidelog> building
tidelog> Building subPackage ./cmd/tidelog
tidelog> buildPhase completed in 38 seconds
tidelog> Running phase: checkPhase
tidelog> ok  	github.com/harbourworks/tidelog/internal/config	0.012s
tidelog> ok  	github.com/harbourworks/tidelog/internal/batch	0.104s
tidelog> --- FAIL: TestPushRetriesOnDNSFailure (0.00s)
tidelog>     push_test.go:88: unexpected error: Post "https://loki.example.invalid/loki/api/v1/push": dial tcp: lookup loki.example.invalid on [::1]:53: read udp [::1]:41877->[::1]:53: read: connection refused
tidelog> --- FAIL: TestResolveUpstreamSRV (0.00s)
tidelog>     upstream_test.go:31: lookup _loki._tcp.harbourworks.net on [::1]:53: read udp [::1]:50211->[::1]:53: read: connection refused
tidelog> FAIL
tidelog> FAIL	github.com/harbourworks/tidelog/internal/push	0.027s
tidelog> ok  	github.com/harbourworks/tidelog/internal/tail	0.341s
tidelog> ok  	github.com/harbourworks/tidelog/internal/health	0.008s
tidelog> FAIL
tidelog> checkPhase completed in 12 seconds
error: builder for '{drv('tidelog-0.9.0', 'e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9')}' failed with exit code 1;
       last 10 log lines:
       > tidelog>     upstream_test.go:31: lookup _loki._tcp.harbourworks.net on [::1]:53: read udp [::1]:50211->[::1]:53: read: connection refused
       > FAIL
       > FAIL	github.com/harbourworks/tidelog/internal/push	0.027s
       > ok  	github.com/harbourworks/tidelog/internal/tail	0.341s
       > ok  	github.com/harbourworks/tidelog/internal/health	0.008s
       > FAIL
       > checkPhase completed in 12 seconds
       For full logs, run 'nix log {drv('tidelog-0.9.0', 'e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9')}'.
""", code=1)
s.bash(f"nix log {drv('tidelog-0.9.0', 'e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9')} | grep -c -- '--- FAIL'; nix log {drv('tidelog-0.9.0', 'e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9')} | grep -c '^ok'", "2\n4\n")
s.assistant(
    "Go 1.23 builds it (buildPhase 38 s). The failure is in checkPhase, in the middle of the log: 2 tests in internal/push do DNS lookups (`TestPushRetriesOnDNSFailure`, `TestResolveUpstreamSRV`), and the Nix sandbox has no network. The other 4 packages pass. "
    "Skipping exactly those two with `checkFlags`, not disabling the whole check."
)
s.bash("grep -rn 'checkFlags\\|doCheck' nix/", "", code=1)
s.edit(PKG, """  subPackages = [ "cmd/tidelog" ];""", """  subPackages = [ "cmd/tidelog" ];

  # these two need DNS, which the build sandbox does not have
  checkFlags = [ "-skip=^(TestPushRetriesOnDNSFailure|TestResolveUpstreamSRV)$" ];""")
s.bash("nix eval --json .#packages.x86_64-linux.default.checkFlags", "[\"-skip=^(TestPushRetriesOnDNSFailure|TestResolveUpstreamSRV)$\"]")
s.bash("nix build .#default -L 2>&1 | grep -E 'FAIL|ok  |completed in'", "tidelog> buildPhase completed in 37 seconds\ntidelog> ok  \tgithub.com/harbourworks/tidelog/internal/config\t0.011s\ntidelog> ok  \tgithub.com/harbourworks/tidelog/internal/batch\t0.101s\ntidelog> ok  \tgithub.com/harbourworks/tidelog/internal/push\t0.019s\ntidelog> ok  \tgithub.com/harbourworks/tidelog/internal/tail\t0.338s\ntidelog> ok  \tgithub.com/harbourworks/tidelog/internal/health\t0.008s\ntidelog> checkPhase completed in 11 seconds\n")
s.bash("nix build .#default --rebuild 2>&1 | tail -2; echo rc=$?", "rc=0\n")
s.bash("./result/bin/tidelog --version; readlink result", "tidelog 0.9.0 (go1.23.1)\n/nix/store/x2c4v6b8n0m1q3w5e7r9t1y3u5i7o9p1-tidelog-0.9.0\n")
s.bash("nix path-info -Sh ./result; git stash -q && nix build .#default -o /tmp/old-tidelog 2>/dev/null; nix path-info -Sh /tmp/old-tidelog; git stash pop -q", "/nix/store/x2c4v6b8n0m1q3w5e7r9t1y3u5i7o9p1-tidelog-0.9.0\t  41.7M\n/nix/store/k8j6h4g2f0d8s6a4p2o0i8u6y4t2r0e8-tidelog-0.8.3\t  38.9M\n")
s.bash("nix why-depends ./result nixpkgs-unstable#go_1_23 2>&1 | tail -2; nix path-info -r ./result | wc -l", "'/nix/store/x2c4v6b8n0m1q3w5e7r9t1y3u5i7o9p1-tidelog-0.9.0' does not depend on '/nix/store/0p9o8i7u6y5t4r3e2w1q0a9s8d7f6g5h-go-1.23.1'\n4\n")
s.bash("nix store diff-closures /tmp/old-tidelog ./result", "tidelog: 0.8.3 → 0.9.0, +2841.3 KiB\n")
s.bash("go version -m result/bin/tidelog | grep -c '^\\s*dep'; go version -m /tmp/old-tidelog/bin/tidelog | grep -c '^\\s*dep'; go version -m result/bin/tidelog | grep -E 'protobuf|snappy'", "31\n23\n\tdep\tgithub.com/golang/snappy\tv0.0.4\th1:yAGX7huGHXlcLOEtBnF4w7FQwA26wojNCwOYAEhLjQM=\n\tdep\tgoogle.golang.org/protobuf\tv1.34.2\th1:6xV6lTsCfpGD21XK49h7MhtcApnLqkfYgPcdHftf6hg=\n")
s.assistant(
    "Package builds: tidelog 0.9.0 (go1.23.1), closure 41.7M (0.8.3 was 38.9M), 4 store paths, no runtime dependency on Go. The +2.8 MiB is the binary itself: 31 Go module deps vs 23, mostly protobuf and snappy for the new Loki push format. "
    "nixpkgs-unstable is locked at b1f7e2c9 (2026-07-19) and used only for `buildGo123Module`."
)

# ============================================================================================ turn 3
s.user("flake check.")
s.bash("time nix flake check -L 2>&1 | tail -45", """warning: Git tree '/home/teodor/infra/tidelog-flake' is dirty
vm-test-run-tidelog> machine # [    4.117826] systemd[1]: Starting tidelog.service...
vm-test-run-tidelog> machine # [    4.162301] systemd[1]: Started tidelog.service.
vm-test-run-tidelog> machine: waiting for unit tidelog.service
vm-test-run-tidelog> machine: waiting for TCP port 8087 on localhost
vm-test-run-tidelog> machine # [    4.409912] tidelog[713]: level=INFO msg="tidelog 0.9.0 starting" pid=713
vm-test-run-tidelog> machine # [    4.411276] tidelog[713]: level=WARN msg="unknown config key ignored" key=listen hint="renamed to http.listen in 0.9"
vm-test-run-tidelog> machine # [    4.411530] tidelog[713]: level=INFO msg="http listening" addr=127.0.0.1:9087
vm-test-run-tidelog> machine # [    4.420318] tidelog[713]: level=WARN msg="loki push failed, will retry" err="dial tcp 127.0.0.1:3100: connect: connection refused"
vm-test-run-tidelog> machine # [   14.431877] tidelog[713]: level=WARN msg="loki push failed, will retry" err="dial tcp 127.0.0.1:3100: connect: connection refused"
vm-test-run-tidelog> machine # [   34.450212] tidelog[713]: level=WARN msg="loki push failed, will retry" err="dial tcp 127.0.0.1:3100: connect: connection refused"
vm-test-run-tidelog> machine # [  304.602114] tidelog[713]: level=WARN msg="loki push failed, will retry" err="dial tcp 127.0.0.1:3100: connect: connection refused"
vm-test-run-tidelog> !!! Traceback (most recent call last):
vm-test-run-tidelog> !!!   File "<string>", line 2, in <module>
vm-test-run-tidelog> !!!     machine.wait_for_open_port(8087)
vm-test-run-tidelog> !!! Exception: timed out waiting for TCP port 8087 on localhost
vm-test-run-tidelog> cleanup
vm-test-run-tidelog> kill machine (pid 9)
vm-test-run-tidelog> (finished: cleanup, in 0.03 seconds)
error: builder for '/nix/store/r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9l0-vm-test-run-tidelog.drv' failed with exit code 1
error: 1 dependencies of derivation '/nix/store/w1e2r3t4y5u6i7o8p9a0s1d2f3g4h5j6-check-vm.drv' failed to build

real	5m41.207s
user	0m9.114s
sys	0m2.802s
""", code=1)
s.assistant(
    "The VM check fails after a 5-minute timeout on port 8087. The cause is in the journal lines in the middle, not the traceback: `unknown config key ignored key=listen hint=\"renamed to http.listen in 0.9\"`, so tidelog fell back to its new default `127.0.0.1:9087`. "
    "The Loki connection-refused warnings are expected noise (no Loki in the test VM). Fix in the module: generate `http.listen` instead of `listen`; the module's `port` option keeps its default 8087."
)
s.edit(MOD, """  configFile = settingsFormat.generate "tidelog.yaml" ({
    listen = "0.0.0.0:${toString cfg.port}";
    loki_url = cfg.lokiUrl;
  } // cfg.settings);""", """  configFile = settingsFormat.generate "tidelog.yaml" (lib.recursiveUpdate {
    # 0.9 moved `listen` under `http:` and only warns about the old key
    http.listen = "0.0.0.0:${toString cfg.port}";
    loki_url = cfg.lokiUrl;
  } cfg.settings);""")
s.bash("git diff nix/module.nix", """diff --git a/nix/module.nix b/nix/module.nix
index 2c7e1a0..b94d3f2 100644
--- a/nix/module.nix
+++ b/nix/module.nix
@@ -4,10 +4,11 @@ self:
 let
   cfg = config.services.tidelog;
   settingsFormat = pkgs.formats.yaml { };
-  configFile = settingsFormat.generate "tidelog.yaml" ({
-    listen = "0.0.0.0:${toString cfg.port}";
+  configFile = settingsFormat.generate "tidelog.yaml" (lib.recursiveUpdate {
+    # 0.9 moved `listen` under `http:` and only warns about the old key
+    http.listen = "0.0.0.0:${toString cfg.port}";
     loki_url = cfg.lokiUrl;
-  } // cfg.settings);
+  } cfg.settings);
 in
 {
   options.services.tidelog = {
""")
s.bash("nix eval --raw --impure --expr 'let f = builtins.getFlake (toString ./.); in (f.inputs.nixpkgs.lib.nixosSystem { system = \"x86_64-linux\"; modules = [ f.nixosModules.default { services.tidelog = { enable = true; lokiUrl = \"http://x\"; }; boot.isContainer = true; system.stateVersion = \"24.05\"; } ]; }).config.systemd.services.tidelog.serviceConfig.ExecStart' | xargs -n1 | tail -1 | xargs cat", "http:\n  listen: 0.0.0.0:8087\nloki_url: http://x\n")
s.bash("time nix flake check -L 2>&1 | tail -14", """vm-test-run-tidelog> machine # [    4.398120] tidelog[712]: level=INFO msg="tidelog 0.9.0 starting" pid=712
vm-test-run-tidelog> machine # [    4.399871] tidelog[712]: level=INFO msg="http listening" addr=0.0.0.0:8087
vm-test-run-tidelog> machine: waiting for TCP port 8087 on localhost
vm-test-run-tidelog> machine: (finished: waiting for TCP port 8087 on localhost, in 0.41 seconds)
vm-test-run-tidelog> machine: must succeed: curl -sf http://127.0.0.1:8087/healthz
vm-test-run-tidelog> machine: (finished: must succeed: curl -sf http://127.0.0.1:8087/healthz, in 0.07 seconds)
vm-test-run-tidelog> (finished: run the VM test script, in 9.88 seconds)
vm-test-run-tidelog> test script finished in 9.91s
vm-test-run-tidelog> cleanup
vm-test-run-tidelog> kill machine (pid 9)
vm-test-run-tidelog> (finished: cleanup, in 0.02 seconds)

real	1m48.330s
user	0m8.402s
sys	0m2.511s
""")
s.bash("nix run nixpkgs#nixfmt-rfc-style -- --check flake.nix nix/", "nix/module.nix: not formatted\n", code=1)
s.bash("git stash -q && nix run nixpkgs#nixfmt-rfc-style -- --check flake.nix nix/; echo rc=$?; git stash pop -q", "rc=0\n")
s.assistant("CI runs `nixfmt-rfc-style --check` before the flake check, and my edit to module.nix is not formatted its way (the base commit is clean). Formatting it.")
s.bash("nix run nixpkgs#nixfmt-rfc-style -- nix/module.nix && nix run nixpkgs#nixfmt-rfc-style -- --check flake.nix nix/ && git diff --stat", " flake.lock      | 17 +++++++++++++++++\n flake.nix       |  8 ++++++--\n nix/module.nix  |  9 +++++----\n nix/package.nix | 11 +++++++----\n 4 files changed, 35 insertions(+), 9 deletions(-)\n")
s.bash("grep -rn 'listen' README.md nix/", "README.md:10:  port = 8087;            # listen port (default 8087)\nREADME.md:13:    listen = \"0.0.0.0:8087\";   # overrides port\nnix/module.nix:9:    # 0.9 moved `listen` under `http:` and only warns about the old key\nnix/module.nix:10:    http.listen = \"0.0.0.0:${toString cfg.port}\";\n")
s.bash("nix path-info -Sh .#checks.x86_64-linux.vm 2>/dev/null | awk '{print $2}'", "1.3G\n")
s.bash("nix flake check --all-systems --no-build 2>&1 | tail -4", "warning: Git tree '/home/teodor/infra/tidelog-flake' is dirty\nchecking flake output 'checks'...\nchecking derivation checks.aarch64-linux.vm...\nchecking flake output 'nixosModules'...\n")
s.assistant(
    "flake check green: the VM test passes in 1m48s total (test script 9.9 s; tidelog listens on 0.0.0.0:8087 again). Module now writes `http.listen`; settings are merged with `lib.recursiveUpdate` so a user's `settings.http` does not drop the listen address. "
    "`--all-systems --no-build` evaluates aarch64 too. No IFD: the YAML comes from `pkgs.formats.yaml`, which is only built, never read at eval time."
)

s.user("README too.")
s.read(README)
s.edit(README, """  settings = {
    listen = "0.0.0.0:8087";   # overrides port
    batch_bytes = 1048576;
  };""", """  settings = {
    http.listen = "0.0.0.0:8087";   # overrides port (tidelog >= 0.9; plain `listen` is ignored)
    batch_bytes = 1048576;
  };""")
s.edit(README, """Check everything with `nix flake check -L` (builds the package and runs the VM test).""", """Check everything with `nix flake check -L` (builds the package and runs the VM test).

tidelog >= 0.9 needs Go 1.23, which nixos-24.05 does not have: the package is built with
`buildGo123Module` from the `nixpkgs-unstable` input; everything else uses nixos-24.05.""")
s.bash("grep -n 'listen\\|unstable' README.md", "10:  port = 8087;            # listen port (default 8087)\n13:    http.listen = \"0.0.0.0:8087\";   # overrides port (tidelog >= 0.9; plain `listen` is ignored)\n21:tidelog >= 0.9 needs Go 1.23, which nixos-24.05 does not have: the package is built with\n22:`buildGo123Module` from the `nixpkgs-unstable` input; everything else uses nixos-24.05.\n")
s.assistant("README: the settings example uses `http.listen` now, plus a note on why the package comes from nixpkgs-unstable's Go.")

# ============================================================================================ turn 4
s.user("Also /metrics. Scrape it from the VM test. And golangci-lint in the dev shell.")
s.edit(TEST, """    machine.succeed("curl -sf http://127.0.0.1:8087/healthz")""", """    machine.succeed("curl -sf http://127.0.0.1:8087/healthz")
    metrics = machine.succeed("curl -sf http://127.0.0.1:8087/metrics")
    assert "tidelog_lines_shipped_total" in metrics, metrics[:500]""")
s.bash("nix eval --raw nixpkgs#golangci-lint.version; echo; nix eval --raw nixpkgs-unstable#golangci-lint.version 2>/dev/null || nix eval --raw github:NixOS/nixpkgs/nixos-unstable#golangci-lint.version", "1.59.1\n1.60.3")
s.edit(FLAKE, """        devShells.default = pkgs.mkShell { packages = [ pkgs.go pkgs.gopls ]; };""", """        devShells.default = pkgs.mkShell {
          packages = [ unstable.go_1_23 pkgs.gopls pkgs.golangci-lint ];
        };""")
s.bash("nix flake check -L 2>&1 | grep -E 'Traceback|Error|assert|finished: run the VM|metrics' | head", """vm-test-run-tidelog> machine: must succeed: curl -sf http://127.0.0.1:8087/metrics
vm-test-run-tidelog> machine: (finished: must succeed: curl -sf http://127.0.0.1:8087/metrics, in 0.05 seconds)
vm-test-run-tidelog> !!! Traceback (most recent call last):
vm-test-run-tidelog> !!!     assert "tidelog_lines_shipped_total" in metrics, metrics[:500]
vm-test-run-tidelog> !!! AssertionError: # HELP tidelog_build_info Build information.
vm-test-run-tidelog> !!! # TYPE tidelog_build_info gauge
vm-test-run-tidelog> !!! tidelog_build_info{go="go1.23.1",version="0.9.0"} 1
vm-test-run-tidelog> !!! # HELP tidelog_push_errors_total Failed pushes to Loki.
vm-test-run-tidelog> !!! # TYPE tidelog_push_errors_total counter
vm-test-run-tidelog> !!! tidelog_push_errors_total 3
""", code=1)
s.bash("nix log /nix/store/t7y8u9i0o1p2a3s4d5f6g7h8j9k0l1z2-vm-test-run-tidelog.drv | grep -o 'tidelog_[a-z_]*' | sort -u", "tidelog_build_info\ntidelog_push_errors_total\ntidelog_push_queue_bytes\ntidelog_sources_watched\n")
s.assistant("The metric names differ from what I guessed: 0.9.0 exposes `tidelog_build_info`, `tidelog_push_errors_total`, `tidelog_push_queue_bytes`, `tidelog_sources_watched` (a lines counter only appears after the first shipped line, and nothing ships without Loki). Asserting on `tidelog_build_info` with the version instead.")
s.edit(TEST, """    assert "tidelog_lines_shipped_total" in metrics, metrics[:500]""", """    assert 'tidelog_build_info{go="go1.23.1",version="0.9.0"} 1' in metrics, metrics[:500]""")
s.bash("nix flake check -L 2>&1 | grep -E 'Traceback|finished: run the VM|error:'", "vm-test-run-tidelog> (finished: run the VM test script, in 10.02 seconds)\n")
s.bash("nix flake check -L 2>&1 | grep -c 'must succeed'", "3\n")
s.bash("nix develop -c sh -c 'go version; golangci-lint --version; gopls version | head -1'", "go version go1.23.1 linux/amd64\ngolangci-lint has version 1.59.1 built with go1.22.5 from v1.59.1 on 19700101-00:00:00\ngolang.org/x/tools/gopls v0.15.3\n")
s.assistant(
    "VM test now also scrapes /metrics and checks `tidelog_build_info{go=\"go1.23.1\",version=\"0.9.0\"} 1`; passes (script 10.0 s). Dev shell: Go 1.23.1 (from unstable, same as the package), golangci-lint 1.59.1, gopls 0.15.3. "
    "Note: the go version asserted in the test changes with every unstable bump of go_1_23."
)

# ============================================================================================ turn 5
s.user("Drop the go part of that assert. Renovate will bump unstable weekly.")
s.edit(TEST, """    assert 'tidelog_build_info{go="go1.23.1",version="0.9.0"} 1' in metrics, metrics[:500]""", """    assert 'version="0.9.0"' in metrics and "tidelog_build_info" in metrics, metrics[:500]""")
s.bash("nix flake check -L 2>&1 | grep -E 'Traceback|finished: run the VM|error:'", "vm-test-run-tidelog> (finished: run the VM test script, in 9.95 seconds)\n")
s.bash("git diff nix/test.nix | grep '^[-+] '", "+    metrics = machine.succeed(\"curl -sf http://127.0.0.1:8087/metrics\")\n+    assert 'version=\"0.9.0\"' in metrics and \"tidelog_build_info\" in metrics, metrics[:500]\n")
s.assistant("Done; the assert checks the build-info metric and `version=\"0.9.0\"` only. Green.")

# ============================================================================================ turn 6
s.user("aarch64?")
s.bash("nix build .#packages.aarch64-linux.default -L 2>&1 | tail -3", "error: a 'aarch64-linux' with features {} is required to build '/nix/store/h3j4k5l6z7x8c9v0b1n2m3q4w5e6r7t8-tidelog-0.9.0-go-modules.drv', but I am a 'x86_64-linux' with features {benchmark, big-parallel, kvm, nixos-test}\n", code=1)
s.bash("cat /etc/nix/machines 2>/dev/null; grep -n 'extra-platforms\\|builders' /etc/nix/nix.conf", "")
s.bash("grep -n 'runs-on\\|nix build\\|flake check' .github/workflows/*.yml", ".github/workflows/ci.yml:9:    runs-on: ${{ matrix.runner }}\n.github/workflows/ci.yml:12:        runner: [ubuntu-24.04, ubuntu-24.04-arm]\n.github/workflows/ci.yml:21:      - run: nix flake check -L\n")
s.assistant("Can't build aarch64 here: no remote builders and no binfmt emulation on this machine. CI runs `nix flake check -L` on ubuntu-24.04 and ubuntu-24.04-arm, so the arm runner will build and test it. The vendorHash is platform-independent, so the arm build should use the same hash.")
s.user("Fine, CI will tell. Commit and push to a new branch.")
s.bash("nix run nixpkgs#nixfmt-rfc-style -- --check flake.nix nix/ && echo fmt ok", "fmt ok\n")
s.bash("nix flake check -L 2>&1 | tail -3", "vm-test-run-tidelog> kill machine (pid 9)\nvm-test-run-tidelog> (finished: cleanup, in 0.02 seconds)\n")
s.bash("git add -A && git status --short", "M  README.md\nM  flake.lock\nM  flake.nix\nM  nix/module.nix\nM  nix/package.nix\nM  nix/test.nix\n")
s.bash("git diff --cached --stat", " README.md       |  6 +++++-\n flake.lock      | 17 +++++++++++++++++\n flake.nix       | 12 +++++++++---\n nix/module.nix  |  7 ++++---\n nix/package.nix | 11 +++++++----\n nix/test.nix    |  2 ++\n 6 files changed, 44 insertions(+), 11 deletions(-)\n")
s.bash("git log --oneline -1; git branch --show-current", "3f0c9a1 tidelog 0.8.3\nmain\n")
s.bash("git switch -c tidelog-0.9 && git commit -qm 'tidelog 0.9.0: Go 1.23 from nixpkgs-unstable, http.listen, /metrics in VM test' && git push -u origin tidelog-0.9 2>&1 | tail -2 && git log --oneline -1", "remote: Create a pull request for 'tidelog-0.9' on GitHub by visiting:\nremote:      https://github.com/harbourworks/tidelog-flake/pull/new/tidelog-0.9\nbranch 'tidelog-0.9' set up to track 'origin/tidelog-0.9'.\n8d21f6e tidelog 0.9.0: Go 1.23 from nixpkgs-unstable, http.listen, /metrics in VM test\n")
s.bash("sleep 240; gh run list --branch tidelog-0.9 --limit 2", "STATUS  TITLE                                                                     WORKFLOW  BRANCH       EVENT  ID          ELAPSED  AGE\nX       tidelog 0.9.0: Go 1.23 from nixpkgs-unstable, http.listen, /metrics in…  ci        tidelog-0.9  push   10244871930  3m52s    4m\n")
s.bash("gh run view 10244871930 --log-failed | grep -v '^\\s*$' | sed -n '1,40p' | cut -c1-220", """check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:11.4418210Z tidelog-go-modules> go: downloading github.com/golang/snappy v0.0.4
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:13.0912248Z tidelog> Running phase: checkPhase
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:19.7710936Z tidelog> ok  	github.com/harbourworks/tidelog/internal/config	0.019s
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:20.1181735Z tidelog> --- FAIL: TestTailRotation (2.01s)
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:20.1182212Z tidelog>     tail_test.go:64: timed out after 2s waiting for line 3 after rotation
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:20.1190321Z tidelog> FAIL	github.com/harbourworks/tidelog/internal/tail	2.388s
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:21.5562011Z tidelog> ok  	github.com/harbourworks/tidelog/internal/push	0.031s
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:21.6025117Z tidelog> checkPhase completed in 9 seconds
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:21.6771923Z error: builder for '/nix/store/a8s7d6f5g4h3j2k1l0z9x8c7v6b5n4m3-tidelog-0.9.0.drv' failed with exit code 1;
check (ubuntu-24.04-arm)	Run nix flake check -L	2026-07-21T16:02:21.7002143Z ##[error]Process completed with exit code 1.
""")
s.bash("gh run view 10244871930 --log-failed | grep -c 'TestTailRotation'; gh run view 10244871930 --log | grep 'internal/tail' | grep -v FAIL | head -2 | cut -c1-160", "2\ncheck (ubuntu-24.04)\tRun nix flake check -L\t2026-07-21T16:01:48.2210931Z tidelog> ok  \tgithub.com/harbourworks/tidelog/internal/tail\t0.352s\n")
s.bash("gh run view 10244871930 --json jobs -q '.jobs[] | \"\\(.name) \\(.conclusion)\"'", "check (ubuntu-24.04) success\ncheck (ubuntu-24.04-arm) failure\n")
s.assistant(
    "CI: x86_64 job green, arm job red. Not the hash: the vendor step passed on arm. The failure is `TestTailRotation` in internal/tail (`timed out after 2s waiting for line 3 after rotation`), a timing-sensitive upstream test on the slower arm runner; it passed on x86_64 (0.34 s). "
    "Options: skip it on aarch64 via `checkFlags` like the DNS tests, or report it upstream and retry. Haven't changed anything."
)
s.user("Rerun once. If it fails again skip it on aarch64 only and open an upstream issue. Not today though, I'm out. Leave it.")
s.bash("gh run rerun 10244871930 --failed && echo requested", "requested\n")
s.bash("sleep 60; gh run view 10244871930 --json jobs -q '.jobs[] | \"\\(.name) \\(.status) \\(.conclusion)\"'", "check (ubuntu-24.04) completed success\ncheck (ubuntu-24.04-arm) in_progress \n")
s.assistant("Rerun of the failed arm job requested (run 10244871930); still in progress when I last looked. If it fails again: skip `TestTailRotation` on aarch64 only and open an upstream issue; left for next time as you said.")

s.save(HERE / "session.jsonl")
