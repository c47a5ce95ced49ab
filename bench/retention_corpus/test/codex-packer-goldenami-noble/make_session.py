# ruff: noqa: E501
"""Writes session.jsonl and labels.json: a Codex CLI rollout written by hand for the heldout8b split.

A platform engineer who writes the must-rules in ALL CAPS has Codex move Fernhill's golden AMI
(HashiCorp Packer HCL2, amazon-ebs) from Ubuntu 22.04 to 24.04, add node_exporter with goss tests
and fix shellcheck findings in the provisioners; an eu-central-1 copy is requested and withdrawn.
packer init/validate/build, goss in docker, shellcheck, aws CLI. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

CWD = "/home/ops/repos/golden-ami"
r = Rollout(CWD, "2026-05-11T09:30:00", seed="goldenami-noble", repo_url="git@gitlab.fernhill.example:platform/golden-ami.git")

PK = "ubuntu.pkr.hcl"
VARS = "variables.pkr.hcl"
AUTO = "fernhill.auto.pkrvars.hcl"
P1 = "provisioners/base.sh"
P2 = "provisioners/node_exporter.sh"
GOSS = "goss/goss.yaml"
MK = "Makefile"

r.files.update({
    PK: """packer {
  required_plugins {
    amazon = {
      source  = "github.com/hashicorp/amazon"
      version = "~> 1.2"
    }
  }
}

source "amazon-ebs" "golden" {
  region        = var.region
  instance_type = "t3.small"
  ssh_username  = "ubuntu"
  subnet_id     = var.subnet_id
  ami_name      = "fernhill-golden-jammy-{{timestamp}}"
  encrypt_boot  = true
  kms_key_id    = var.kms_key_id
  source_ami_filter {
    filters = {
      name                = "ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"
      virtualization-type = "hvm"
    }
    owners      = ["099720720109"]
    most_recent = true
  }
  tags = {
    Name       = "fernhill-golden-jammy"
    CostCenter = "platform-42"
  }
}

build {
  sources = ["source.amazon-ebs.golden"]
  provisioner "shell" {
    script          = "provisioners/base.sh"
    execute_command = "sudo -E bash '{{.Path}}'"
  }
}
""",
    VARS: """variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "subnet_id" {
  type = string
}
""",
    AUTO: """subnet_id = "subnet-0a7c3e51d9b24f816"
""",
    P1: """#!/usr/bin/env bash
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get -y upgrade
apt-get -y install chrony auditd unattended-upgrades
PKGS=$(cat <<EOF
curl jq
EOF
)
apt-get -y install $PKGS
systemctl enable chrony auditd
""",
    MK: """validate:
\tpacker validate .

build:
\tpacker build .
""",
})

# ===================================================================== turn 1
r.user(
    "Morning. Our golden AMI is still on Ubuntu 22.04, move it to 24.04 (noble). While you're in there: add prometheus node_exporter 1.8.2 as a systemd service on :9100, and goss tests for the image, we've never had any. Also shellcheck the provisioners, CI is going to start running it.\n\n"
    "Rules, and I mean these: the AMI must NEVER BE PUBLIC. It must ALWAYS be encrypted with our KMS key, alias/ami-golden. Region is eu-west-1 ONLY. And DO NOT RUN `packer build` WITHOUT ASKING ME, this account is shared with prod and a build launches an instance in the prod VPC. Validate as much as you like.\n\n"
    "Oh and also copy the finished AMI to eu-central-1, the Frankfurt team wants it."
)
r.run("ls -la; git log --oneline -5; cat Makefile", """total 40
drwxr-xr-x 5 ops ops 4096 May 11 09:20 .
-rw-r--r-- 1 ops ops   46 Apr  2 10:11 Makefile
-rw-r--r-- 1 ops ops   41 Apr  2 10:11 fernhill.auto.pkrvars.hcl
drwxr-xr-x 2 ops ops 4096 Apr  2 10:11 provisioners
-rw-r--r-- 1 ops ops  812 Apr  2 10:11 ubuntu.pkr.hcl
-rw-r--r-- 1 ops ops  118 Apr  2 10:11 variables.pkr.hcl
e4d9c02 (HEAD -> main, origin/main) build in private subnet
7a18b3f kms encryption
22c0e9d initial jammy image
validate:
\tpacker validate .

build:
\tpacker build .
""", reasoning="**Exploring the Packer repo**")
r.cat(PK)
r.cat(VARS)
r.cat(AUTO)
r.cat(P1)
r.run("packer version; shellcheck --version | sed -n 2p; goss --version; aws --version; aws sts get-caller-identity --query Arn --output text", """Packer v1.11.2
version: 0.10.0
goss version v0.4.9
aws-cli/2.17.20 Python/3.11.9 Linux/6.8.0 exe/x86_64.ubuntu.24
arn:aws:sts::481203377614:assumed-role/platform-engineer/ops
""")
r.run("packer init . && packer validate .", """Installed plugin github.com/hashicorp/amazon v1.3.3 in "/home/ops/.config/packer/plugins/github.com/hashicorp/amazon/packer-plugin-amazon_v1.3.3_x5.0_linux_amd64"
Error: Reference to undeclared input variable

  on ubuntu.pkr.hcl line 17:
  (source code: ubuntu.pkr.hcl:17,19-29)

An input variable with the name "kms_key_id" has not been declared. This
variable can be declared with a variable "kms_key_id" {} block.
""", code=1)
r.run("git show 7a18b3f --stat; git log -p -1 --format=%h -- variables.pkr.hcl | head -20", """commit 7a18b3f
    kms encryption
 ubuntu.pkr.hcl | 2 ++
e4d9c02
-variable "kms_key_id" {
-  type    = string
-  default = "alias/ami-golden"
-}
""")
r.say(
    "State of main: `packer validate` already fails: `Reference to undeclared input variable ... \"kms_key_id\"` (ubuntu.pkr.hcl:17). Commit e4d9c02 (\"build in private subnet\") removed the `kms_key_id` variable (default `alias/ami-golden`) from variables.pkr.hcl, probably by accident while adding subnet_id. So the current main can't build at all.\n\n"
    "Also noticed: `encrypt_boot = true` + `kms_key_id` encrypts the AMI, and there is no `ami_groups`/`ami_users`, so it's private by default. To make 'never public' explicit I'd add a guard in the build (a post-processor check with the aws CLI that fails if the image is public or unencrypted). Tools: Packer 1.11.2, amazon plugin 1.3.3, shellcheck 0.10.0, goss 0.4.9, aws-cli 2.17.20, role platform-engineer in account 481203377614."
)

# ===================================================================== turn 2
r.user("Good catch on kms_key_id, put it back. The guard: yes please, belt and braces. Region variable: make it NOT overridable to anything but eu-west-1, validation block.")
r.patch([("update", VARS, [("""variable "region" {
  type    = string
  default = "eu-west-1"
}""", """variable "region" {
  type    = string
  default = "eu-west-1"
  validation {
    condition     = var.region == "eu-west-1"
    error_message = "Golden AMIs are built in eu-west-1 only."
  }
}

variable "kms_key_id" {
  type        = string
  default     = "alias/ami-golden"
  description = "KMS key for the AMI's EBS snapshots (restored: dropped by accident in e4d9c02)."
}""")])], reasoning="**Restore kms_key_id, pin region**")
r.run("packer validate . && packer validate -var region=eu-central-1 . ; echo rc=$?", """The configuration is valid.
Error: Invalid value for variable

  on variables.pkr.hcl line 1:
   1: variable "region" {

Golden AMIs are built in eu-west-1 only.

This was checked by the validation rule at variables.pkr.hcl:4,3-13.
rc=1
""")
r.say("Validate passes again, and `-var region=eu-central-1` is rejected by the validation block. Now noble, node_exporter and the guard.")
r.patch([("update", PK, [("""  ami_name      = "fernhill-golden-jammy-{{timestamp}}\"""", """  ami_name      = "fernhill-golden-noble-{{timestamp}}\""""),
    ("""      name                = "ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*\"""", """      name                = "ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*\""""),
    ("""    Name       = "fernhill-golden-jammy\"""", """    Name       = "fernhill-golden-noble"
    BaseOS     = "ubuntu-24.04\""""),
    ("""    execute_command = "sudo -E bash '{{.Path}}'"
  }
}""", """    execute_command = "sudo -E bash '{{.Path}}'"
  }
  provisioner "shell" {
    script          = "provisioners/node_exporter.sh"
    execute_command = "sudo -E bash '{{.Path}}'"
    environment_vars = ["NODE_EXPORTER_VERSION=1.8.2"]
  }
  provisioner "file" {
    source      = "goss/goss.yaml"
    destination = "/tmp/goss.yaml"
  }
  provisioner "shell" {
    inline = [
      "curl -fsSL -o /tmp/goss https://github.com/goss-org/goss/releases/download/v0.4.9/goss-linux-amd64",
      "chmod +x /tmp/goss",
      "sudo /tmp/goss -g /tmp/goss.yaml validate --format documentation",
      "sudo rm -f /tmp/goss /tmp/goss.yaml",
    ]
  }
  post-processor "shell-local" {
    # belt and braces: fail the build if the image is public or not encrypted
    environment_vars = ["REGION=${var.region}"]
    script           = "scripts/check-ami.sh"
  }
}""")])])
r.patch([("add", P2, """#!/usr/bin/env bash
set -euo pipefail
: "${NODE_EXPORTER_VERSION:?}"
cd /tmp
curl -fsSLO https://github.com/prometheus/node_exporter/releases/download/v${NODE_EXPORTER_VERSION}/node_exporter-${NODE_EXPORTER_VERSION}.linux-amd64.tar.gz
tar xzf node_exporter-$NODE_EXPORTER_VERSION.linux-amd64.tar.gz
install -m 0755 node_exporter-$NODE_EXPORTER_VERSION.linux-amd64/node_exporter /usr/local/bin/node_exporter
useradd --system --no-create-home --shell /usr/sbin/nologin node_exporter || true
cat > /etc/systemd/system/node_exporter.service <<'UNIT'
[Unit]
Description=Prometheus node_exporter
After=network-online.target

[Service]
User=node_exporter
ExecStart=/usr/local/bin/node_exporter --web.listen-address=:9100
Restart=on-failure

[Install]
WantedBy=multi-user.target
UNIT
systemctl daemon-reload
systemctl enable --now node_exporter
"""), ("add", GOSS, """package:
  chrony: {installed: true}
  auditd: {installed: true}
service:
  chrony: {enabled: true, running: true}
  auditd: {enabled: true, running: true}
  node_exporter: {enabled: true, running: true}
file:
  /usr/local/bin/node_exporter: {exists: true, mode: "0755"}
port:
  tcp:9100: {listening: true}
http:
  http://localhost:9100/metrics:
    status: 200
    body: ["node_exporter_build_info"]
command:
  node-exporter-version:
    exec: /usr/local/bin/node_exporter --version
    exit-status: 0
    stderr: ["version 1.8.2"]
"""), ("add", "scripts/check-ami.sh", """#!/usr/bin/env bash
# Post-processor guard: the AMI must never be public and must be KMS-encrypted.
set -euo pipefail
ami=$(jq -r '.builds[-1].artifact_id' packer-manifest.json | cut -d: -f2)
public=$(aws ec2 describe-images --region "$REGION" --image-ids "$ami" --query 'Images[0].Public' --output text)
enc=$(aws ec2 describe-images --region "$REGION" --image-ids "$ami" --query 'Images[0].BlockDeviceMappings[0].Ebs.Encrypted' --output text)
if [ "$public" != "False" ] || [ "$enc" != "True" ]; then
  echo "GUARD: $ami public=$public encrypted=$enc" >&2
  exit 1
fi
echo "guard ok: $ami private and encrypted"
""")])
r.run("shellcheck provisioners/*.sh scripts/*.sh", """
In provisioners/base.sh line 10:
apt-get -y install $PKGS
                   ^---^ SC2086 (info): Double quote to prevent globbing and word splitting.

Did you mean:
apt-get -y install "$PKGS"


In provisioners/node_exporter.sh line 6:
tar xzf node_exporter-$NODE_EXPORTER_VERSION.linux-amd64.tar.gz
                      ^---------------------^ SC2086 (info): Double quote to prevent globbing and word splitting.

In provisioners/node_exporter.sh line 7:
install -m 0755 node_exporter-$NODE_EXPORTER_VERSION.linux-amd64/node_exporter /usr/local/bin/node_exporter
                              ^---------------------^ SC2086 (info): Double quote to prevent globbing and word splitting.

For more information:
  https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...
""", code=1)
r.say("shellcheck: three SC2086. In node_exporter.sh, quoting is right. In base.sh, `apt-get install $PKGS` relies on word splitting on purpose (a list of packages), so quoting would break it; the clean fix is an array instead of a heredoc string.")
r.patch([("update", P1, [("""PKGS=$(cat <<EOF
curl jq
EOF
)
apt-get -y install $PKGS""", """pkgs=(curl jq)
apt-get -y install "${pkgs[@]}\"""")]), ("update", P2, [("""tar xzf node_exporter-$NODE_EXPORTER_VERSION.linux-amd64.tar.gz
install -m 0755 node_exporter-$NODE_EXPORTER_VERSION.linux-amd64/node_exporter /usr/local/bin/node_exporter""", """tar xzf "node_exporter-${NODE_EXPORTER_VERSION}.linux-amd64.tar.gz"
install -m 0755 "node_exporter-${NODE_EXPORTER_VERSION}.linux-amd64/node_exporter" /usr/local/bin/node_exporter""")])])
r.run("shellcheck provisioners/*.sh scripts/*.sh && echo shellcheck-clean", "shellcheck-clean\n")
r.run("packer fmt -check -diff . ; packer validate .", """ubuntu.pkr.hcl
--- old/ubuntu.pkr.hcl
+++ new/ubuntu.pkr.hcl
@@ -41,7 +41,7 @@
   provisioner "shell" {
-    script          = "provisioners/node_exporter.sh"
-    execute_command = "sudo -E bash '{{.Path}}'"
-    environment_vars = ["NODE_EXPORTER_VERSION=1.8.2"]
+    script           = "provisioners/node_exporter.sh"
+    execute_command  = "sudo -E bash '{{.Path}}'"
+    environment_vars = ["NODE_EXPORTER_VERSION=1.8.2"]
   }
The configuration is valid.
""", code=3)
r.run("packer fmt . && packer fmt -check . && echo fmt-ok", "ubuntu.pkr.hcl\nfmt-ok\n")
r.say("shellcheck clean, `packer fmt` applied (alignment), `packer validate` passes. The guard post-processor reads `packer-manifest.json`, which needs a manifest post-processor before it; adding that. Then I want to run the provisioners + goss locally in an ubuntu:24.04 container, which costs nothing and doesn't touch AWS.")
r.patch([("update", PK, [("""  post-processor "shell-local" {""", """  post-processor "manifest" {
    output = "packer-manifest.json"
  }
  post-processor "shell-local" {""")])])
r.run("packer validate . && docker run --rm -v $PWD:/src -w /src ubuntu:24.04 bash -c 'apt-get -qq update >/dev/null && apt-get -qq -y install curl >/dev/null && bash provisioners/base.sh >/dev/null 2>&1; NODE_EXPORTER_VERSION=1.8.2 bash provisioners/node_exporter.sh; echo rc=$?' 2>&1 | tail -6", """The configuration is valid.
useradd: group node_exporter exists - if you want to add this user to that group, use -g.
System has not been booted with systemd as init system (PID 1). Can't operate.
Failed to connect to bus: Host is down
rc=1
""", secs=74.0)
r.say("In a plain container systemd isn't PID 1, so `systemctl daemon-reload` fails; that's the container, not the script. Also `useradd: group node_exporter exists` is swallowed by `|| true`, fine but noisy. For a meaningful local goss run I'll use a systemd-enabled container (jrei/systemd-ubuntu:24.04, privileged) — privileged docker on your laptop is OK?")

# ===================================================================== turn 3
r.user("Privileged locally is fine. And forget the eu-central-1 copy, Frankfurt migration got cancelled on Friday, nobody told me until just now.")
r.run("docker run -d --name goss-noble --privileged --cgroupns=host -v /sys/fs/cgroup:/sys/fs/cgroup:rw -v $PWD:/src jrei/systemd-ubuntu:24.04 && sleep 5 && docker exec goss-noble bash -c 'apt-get -qq update >/dev/null && apt-get -qq -y install curl >/dev/null && cd /src && bash provisioners/base.sh >/dev/null 2>&1 && NODE_EXPORTER_VERSION=1.8.2 bash provisioners/node_exporter.sh && echo prov-ok'", """5b0f8e21c7a9d4e3f1a6b2c8d0e7f9a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1
prov-ok
""", secs=96.0)
r.run("docker exec goss-noble bash -c 'curl -fsSL -o /tmp/goss https://github.com/goss-org/goss/releases/download/v0.4.9/goss-linux-amd64 && chmod +x /tmp/goss && /tmp/goss -g /src/goss/goss.yaml validate --format documentation' 2>&1 | tail -22", """Package: chrony: installed: matches expectation: true
Package: auditd: installed: matches expectation: true
Service: chrony: enabled: matches expectation: true
Service: chrony: running: matches expectation: true
Service: auditd: enabled: matches expectation: true
Service: auditd: running: doesn't match, expect: true found: false
Service: node_exporter: enabled: matches expectation: true
Service: node_exporter: running: matches expectation: true
File: /usr/local/bin/node_exporter: exists: matches expectation: true
File: /usr/local/bin/node_exporter: mode: matches expectation: "0755"
Port: tcp:9100: listening: matches expectation: true
HTTP: http://localhost:9100/metrics: status: matches expectation: 200
HTTP: http://localhost:9100/metrics: Body: matches expectation: ["node_exporter_build_info"]
Command: node-exporter-version: exit-status: matches expectation: 0
Command: node-exporter-version: stderr: patterns not found: [version 1.8.2]


Failures/Skipped:

Service: auditd: running: doesn't match, expect: true found: false

Command: node-exporter-version: stderr: patterns not found: [version 1.8.2]

Total Duration: 0.211s
Count: 15, Failed: 2, Skipped: 0
""", secs=8.0)
r.run("docker exec goss-noble bash -c '/usr/local/bin/node_exporter --version 2>/dev/null | head -1; systemctl status auditd --no-pager | sed -n 3,6p'", """node_exporter, version 1.8.2 (branch: HEAD, revision: f1e0e8360aa60b6cb5e5cc1560bed348fc2c1895)
     Active: failed (Result: exit-code) since Mon 2026-05-11 07:58:21 UTC; 2min ago
    Process: 312 ExecStart=/sbin/auditd (code=exited, status=6)
May 11 07:58:21 5b0f8e21c7a9 auditd[312]: Error - audit support not in kernel
""")
r.say(
    "goss: 13/15 pass in the systemd container. The two failures:\n"
    "1. `node-exporter-version: stderr: patterns not found: [version 1.8.2]`: node_exporter 1.8.2 prints `--version` to **stdout**, not stderr (older releases used stderr). Fix the goss check to `stdout`.\n"
    "2. `auditd running: false`: `audit support not in kernel` — containers can't run auditd. That's container-only; on the EC2 build instance it runs. I'll keep the check (it matters on the real image) and not chase it locally.\n\n"
    "eu-central-1 copy dropped; I hadn't added `ami_regions` yet, so nothing to remove."
)
r.patch([("update", GOSS, [("""    stderr: ["version 1.8.2"]""", """    stdout: ["version 1.8.2"]   # 1.8.x prints --version on stdout""")])])
r.run("docker exec goss-noble /tmp/goss -g /src/goss/goss.yaml validate --format tap 2>&1 | grep -v '^ok' ; docker rm -f goss-noble >/dev/null", """1..15
not ok 6 - Service: auditd: running: doesn't match, expect: true found: false
""", secs=3.0)
r.say("14/15 locally; the only failure is auditd in the container (no kernel audit support), expected to pass on EC2. Container removed. Ready for a real `packer build` whenever you say so — it will launch a t3.small in subnet-0a7c3e51d9b24f816 (your prod VPC) for ~15 minutes.")

# ===================================================================== turn 4
r.user("OK go, build it. ONE build. Watch it, and if it fails DON'T retry without telling me.")
r.run("packer build -color=false . 2>&1 | tee /tmp/packer-build-1.log | tail -5", """==> amazon-ebs.golden: Terminating the source AWS instance...
==> amazon-ebs.golden: Cleaning up any extra volumes...
==> amazon-ebs.golden: Deleting temporary security group...
==> amazon-ebs.golden: Deleting temporary keypair...
Build 'amazon-ebs.golden' errored after 6 minutes 41 seconds: Script exited with non-zero exit status: 100. Allowed exit codes are: [0]
""", secs=402.0)
r.run("grep -n 'E: \\|error\\|Error' /tmp/packer-build-1.log | head -8; wc -l /tmp/packer-build-1.log", """212:    amazon-ebs.golden: E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1687 (unattended-upgr)
213:    amazon-ebs.golden: E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?
431:Build 'amazon-ebs.golden' errored after 6 minutes 41 seconds: Script exited with non-zero exit status: 100. Allowed exit codes are: [0]
431 /tmp/packer-build-1.log
""")
r.run("sed -n '200,214p' /tmp/packer-build-1.log", """    amazon-ebs.golden: Reading package lists...
    amazon-ebs.golden: Building dependency tree...
    amazon-ebs.golden: Reading state information...
    amazon-ebs.golden: Calculating upgrade...
    amazon-ebs.golden: The following packages will be upgraded:
    amazon-ebs.golden:   libnss-systemd libpam-systemd libsystemd-shared libsystemd0 libudev1 systemd systemd-dev systemd-resolved systemd-sysv udev
    amazon-ebs.golden: 10 upgraded, 0 newly installed, 0 to remove and 0 not held back.
    amazon-ebs.golden: Need to get 8,214 kB of archives.
    amazon-ebs.golden: After this operation, 12.3 kB of additional space will be used.
    amazon-ebs.golden: Get:1 http://eu-west-1.ec2.archive.ubuntu.com/ubuntu noble-updates/main amd64 libsystemd0 amd64 255.4-1ubuntu8.6 [434 kB]
    amazon-ebs.golden: Fetched 8,214 kB in 0s (41.2 MB/s)
    amazon-ebs.golden: Waiting for cache lock: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1687 (unattended-upgr)... 120s
    amazon-ebs.golden: E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1687 (unattended-upgr)
    amazon-ebs.golden: E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?
""")
r.run("aws ec2 describe-instances --region eu-west-1 --filters Name=tag:Name,Values='Packer Builder' Name=instance-state-name,Values=pending,running --query 'Reservations[].Instances[].InstanceId' --output text; aws ec2 describe-images --region eu-west-1 --owners self --filters Name=name,Values='fernhill-golden-noble-*' --query 'Images[].ImageId' --output text", "\n\n")
r.say(
    "The build failed after 6m41s and Packer cleaned up (no leftover builder instance, no AMI created; checked). Salient line, deep in the log (line 212 of 431): `E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1687 (unattended-upgr)`, in base.sh's `apt-get -y upgrade`. On first boot, noble's unattended-upgrades runs immediately (22.04 images waited longer), and apt gave up after 120 s.\n\n"
    "Proposed fix, not applied to AWS yet: at the top of base.sh wait for cloud-init (`cloud-init status --wait`), then stop and mask unattended-upgrades while provisioning (`systemctl stop unattended-upgrades; systemd-run --property=... `) and give apt a lock timeout (`-o DPkg::Lock::Timeout=600`). The service is re-enabled at the end, since we install unattended-upgrades on purpose. Not retrying until you say so."
)

# ===================================================================== turn 5
r.user("Do the fix. Then yes, one more build. Tag it also with Owner=platform, I forgot that last time. STILL NO PUBLIC, check it after.")
r.patch([("update", P1, [("""export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get -y upgrade
apt-get -y install chrony auditd unattended-upgrades""", """export DEBIAN_FRONTEND=noninteractive
# noble runs unattended-upgrades on first boot and holds the dpkg lock (build 1 failed on it)
cloud-init status --wait >/dev/null
systemctl stop unattended-upgrades.service apt-daily.timer apt-daily-upgrade.timer || true
APT=(apt-get -o DPkg::Lock::Timeout=600 -y)
"${APT[@]}" update
"${APT[@]}" upgrade
"${APT[@]}" install chrony auditd unattended-upgrades"""), ("""pkgs=(curl jq)
apt-get -y install "${pkgs[@]}"
systemctl enable chrony auditd""", """pkgs=(curl jq)
"${APT[@]}" install "${pkgs[@]}"
systemctl enable chrony auditd unattended-upgrades.service apt-daily.timer apt-daily-upgrade.timer""")]),
    ("update", PK, [("""    BaseOS     = "ubuntu-24.04\"""", """    BaseOS     = "ubuntu-24.04"
    Owner      = "platform\"""")])], reasoning="**dpkg lock fix + Owner tag**")
r.run("shellcheck provisioners/*.sh scripts/*.sh && packer fmt -check . && packer validate . && echo all-ok", "The configuration is valid.\nall-ok\n")
r.run("packer build -color=false . 2>&1 | tee /tmp/packer-build-2.log | tail -9", """    amazon-ebs.golden: Count: 15, Failed: 0, Skipped: 0
==> amazon-ebs.golden: Stopping the source instance...
==> amazon-ebs.golden: Creating AMI fernhill-golden-noble-1778494511 from instance i-0e2d7b19a4c3f5608
==> amazon-ebs.golden: AMI: ami-0f3c91d2e7a8b4c65
==> amazon-ebs.golden: Waiting for AMI to become ready...
==> amazon-ebs.golden (manifest): 
==> amazon-ebs.golden (shell-local): guard ok: ami-0f3c91d2e7a8b4c65 private and encrypted
Build 'amazon-ebs.golden' finished after 14 minutes 6 seconds.
--> amazon-ebs.golden: AMIs were created:
eu-west-1: ami-0f3c91d2e7a8b4c65
""", secs=846.0)
r.run("aws ec2 describe-images --region eu-west-1 --image-ids ami-0f3c91d2e7a8b4c65 --query 'Images[0].{Public:Public,Enc:BlockDeviceMappings[0].Ebs.Encrypted,Kms:BlockDeviceMappings[0].Ebs.KmsKeyId,Tags:Tags}' --output json; aws ec2 describe-image-attribute --region eu-west-1 --image-id ami-0f3c91d2e7a8b4c65 --attribute launchPermission --query LaunchPermissions", """{
    "Public": false,
    "Enc": true,
    "Kms": "arn:aws:kms:eu-west-1:481203377614:key/7d2e9b40-5c1a-4f3e-8a6b-0c9d1e2f3a4b",
    "Tags": [
        {"Key": "Name", "Value": "fernhill-golden-noble"},
        {"Key": "BaseOS", "Value": "ubuntu-24.04"},
        {"Key": "Owner", "Value": "platform"},
        {"Key": "CostCenter", "Value": "platform-42"}
    ]
}
[]
""")
r.run("aws kms describe-key --region eu-west-1 --key-id alias/ami-golden --query KeyMetadata.KeyId --output text", "7d2e9b40-5c1a-4f3e-8a6b-0c9d1e2f3a4b\n")
r.say(
    "Build 2 finished in 14m06s: **ami-0f3c91d2e7a8b4c65** (fernhill-golden-noble-1778494511, eu-west-1). goss ran on the instance: 15/15, auditd included. Checked after: Public false, launchPermission empty, encrypted with key 7d2e9b40-… which is alias/ami-golden; tags Name, BaseOS, Owner=platform, CostCenter=platform-42. The guard post-processor also reported private and encrypted. No copy to eu-central-1."
)

# ===================================================================== turn 6
r.user("Great. Add packer-manifest.json to gitignore, commit on a branch feat/noble, push, I'll open the MR. And put the AMI id in the MR description text for me, just print it.")
r.run("printf 'packer-manifest.json\\n' >> .gitignore && git switch -c feat/noble && git add -A && git status --short", """Switched to a new branch 'feat/noble'
A  .gitignore
M  Makefile
A  goss/goss.yaml
M  provisioners/base.sh
A  provisioners/node_exporter.sh
A  scripts/check-ami.sh
M  ubuntu.pkr.hcl
M  variables.pkr.hcl
""")
r.run("git diff --cached Makefile", """diff --git a/Makefile b/Makefile
--- a/Makefile
+++ b/Makefile
@@ -1,5 +1,8 @@
+lint:
+\tshellcheck provisioners/*.sh scripts/*.sh
+\tpacker fmt -check .
+
 validate:
 \tpacker validate .
""")
r.say("Note: the Makefile diff shows a `lint` target I didn't write in this session; it must have been in your working tree already (uncommitted). It matches what CI will run, so I'm leaving it in the commit unless you object.")
r.run("git commit -qm 'Golden AMI on Ubuntu 24.04: node_exporter 1.8.2, goss tests, KMS var restored, public/encryption guard' && git push -u origin feat/noble 2>&1 | tail -3; git log --oneline -1", """remote: To create a merge request for feat/noble, visit:
remote:   https://gitlab.fernhill.example/platform/golden-ami/-/merge_requests/new?merge_request%5Bsource_branch%5D=feat/noble
branch 'feat/noble' set up to track 'origin/feat/noble'.
5e81c0a Golden AMI on Ubuntu 24.04: node_exporter 1.8.2, goss tests, KMS var restored, public/encryption guard
""")
r.say(
    "Pushed `5e81c0a` on feat/noble. MR description text:\n\n"
    "> Golden AMI moves to Ubuntu 24.04 (noble). Built and verified: **ami-0f3c91d2e7a8b4c65** (eu-west-1), private, encrypted with alias/ami-golden, tags Name/BaseOS/Owner/CostCenter. Adds node_exporter 1.8.2 on :9100, goss suite (15 checks, run during the build), shellcheck-clean provisioners, and a post-processor guard that fails the build if the AMI is public or unencrypted. Restores the kms_key_id variable lost in e4d9c02 (main could not validate). Region pinned to eu-west-1 by a validation rule. First build failed on the dpkg lock held by unattended-upgrades on first boot; base.sh now waits for cloud-init and stops apt timers during provisioning."
)

r.save(HERE / "session.jsonl")
print("tool calls:", r.calls)

META = {
    "title": "golden-ami (Packer HCL2, amazon-ebs): Ubuntu 22.04 -> 24.04, node_exporter 1.8.2, goss suite, shellcheck fixes, kms_key_id restored, region pinned, public/encryption guard; build 2 = ami-0f3c91d2e7a8b4c65; eu-central-1 copy withdrawn",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8b test split",
    "voice": "platform engineer, normal prose with must-rules in ALL CAPS; withdraws the eu-central-1 copy request",
    "toolchain": "Packer 1.11.2 + amazon plugin 1.3.3, goss 0.4.9 (docker jrei/systemd-ubuntu:24.04 and on the builder), shellcheck 0.10.0, aws-cli 2.17.20",
}
COMPACTIONS = [
    ("shellcheck clean, `packer fmt` applied (alignment)", 1200),
    ("14/15 locally; the only failure is auditd in the container", 1200),
    ("The build failed after 6m41s and Packer cleaned up", 1200),
]
FACTS = [
    f("g01", "request", "must", "Our golden AMI is still on Ubuntu 22.04, move it to 24.04 (noble)", "Move the golden AMI from Ubuntu 22.04 to 24.04 (noble).", [r"24\.04|noble", r"AMI|Ubuntu|move|golden"], "done"),
    f("g02", "request", "must", "add prometheus node_exporter 1.8.2 as a systemd service on :9100", "Add Prometheus node_exporter 1.8.2 as a systemd service on :9100.", [r"node_exporter", r"1\.8\.2|9100"], "done"),
    f("g03", "request", "should", "and goss tests for the image, we've never had any", "Add goss tests for the image (none existed).", [r"goss"], "done"),
    f("g04", "request", "should", "Also shellcheck the provisioners, CI is going to start running it", "Make the provisioners shellcheck-clean (CI will run shellcheck).", [r"shellcheck"], "done"),
    f("g05", "constraint", "must", "the AMI must NEVER BE PUBLIC", "The AMI must never be public.", [r"public", r"never|not|private|false"]),
    f("g06", "constraint", "must", "It must ALWAYS be encrypted with our KMS key, alias/ami-golden", "Always encrypt with the KMS key alias/ami-golden.", [r"alias/ami-golden|KMS", r"encrypt"]),
    f("g07", "constraint", "must", "Region is eu-west-1 ONLY", "eu-west-1 only; pinned with a validation block on var.region.", [r"eu-west-1", r"only|pin|validation"]),
    f("g08", "constraint", "must", "DO NOT RUN `packer build` WITHOUT ASKING ME", "Never run packer build without asking (account shared with prod; the builder launches in the prod VPC). Validate freely. After a failed build, don't retry without telling.", [r"packer build", r"ask|permission|prod|without"]),
    f("g09", "request", "should", "Oh and also copy the finished AMI to eu-central-1", "Copy the AMI to eu-central-1 for Frankfurt: withdrawn (Frankfurt migration cancelled); never added.", [r"eu-central-1|Frankfurt", r"copy|cancel|drop|withdraw|forget|no"], "reversed"),
    f("g10", "error", "must", "An input variable with the name \"kms_key_id\" has not been declared", "packer validate failed on main: 'Reference to undeclared input variable' kms_key_id (ubuntu.pkr.hcl:17).", [r"kms_key_id", r"undeclared|not been declared|validate"], "fixed"),
    f("g11", "finding", "should", "Commit e4d9c02 (\"build in private subnet\") removed the `kms_key_id` variable", "Commit e4d9c02 dropped the kms_key_id variable (default alias/ami-golden) from variables.pkr.hcl by accident; restored.", [r"e4d9c02|kms_key_id", r"remov|dropp|restor|accident"], "fixed"),
    f("g12", "decision", "should", "The guard: yes please, belt and braces", "Add a guard: scripts/check-ami.sh as a shell-local post-processor (after a manifest post-processor writing packer-manifest.json) fails the build if the AMI is public or not encrypted.", [r"guard|check-ami", r"public|encrypt|post-processor|belt"]),
    f("g13", "path", "should", "*** Add File: provisioners/node_exporter.sh", "New provisioners/node_exporter.sh (downloads NODE_EXPORTER_VERSION, installs /usr/local/bin/node_exporter, node_exporter user, systemd unit on :9100).", [r"node_exporter\.sh"]),
    f("g14", "path", "should", "*** Add File: goss/goss.yaml", "New goss/goss.yaml: chrony/auditd packages and services, node_exporter service, binary mode 0755, port 9100, /metrics body, version check (15 checks); run during the build via file + inline shell provisioners.", [r"goss\.yaml|goss"]),
    f("g15", "finding", "should", "shellcheck: three SC2086", "shellcheck found SC2086 three times; node_exporter.sh vars quoted, base.sh package list turned into a bash array instead of relying on word splitting.", [r"SC2086|shellcheck", r"array|quot|word split"], "fixed"),
    f("g16", "command", "should", "shellcheck provisioners/*.sh scripts/*.sh && packer fmt -check . && packer validate . && echo all-ok", "Checks: shellcheck provisioners/*.sh scripts/*.sh && packer fmt -check . && packer validate . (all ok).", [r"shellcheck|packer (fmt|validate)", r"fmt|validate|ok"]),
    f("g17", "finding", "nice", "packer validate -var region=eu-central-1", "The region validation rejects -var region=eu-central-1 ('Golden AMIs are built in eu-west-1 only.').", [r"eu-central-1|eu-west-1 only", r"validat|reject|region"]),
    f("g18", "command", "should", "/tmp/goss -g /src/goss/goss.yaml validate --format documentation", "Local goss run in a privileged jrei/systemd-ubuntu:24.04 container (provisioners + goss validate); 14/15 with auditd failing only because the container has no kernel audit support.", [r"goss|systemd-ubuntu|container", r"14/15|auditd|validate"]),
    f("g19", "finding", "should", "`node-exporter-version: stderr: patterns not found: [version 1.8.2]`", "node_exporter 1.8.2 prints --version on stdout, not stderr: goss check switched to stdout.", [r"stdout|stderr", r"version|node_exporter"], "fixed"),
    f("g20", "finding", "nice", "`audit support not in kernel`", "auditd can't run in a container ('audit support not in kernel'); the check is kept for EC2 (it passed there).", [r"auditd|audit support", r"container|kernel|EC2"]),
    f("g21", "error", "must", "Salient line, deep in the log (line 212 of 431)", "Build 1 failed after 6m41s (exit 100): 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1687 (unattended-upgr)' in base.sh's apt-get upgrade; Packer cleaned up, no AMI.", [r"dpkg|lock-frontend|unattended", r"lock|build|fail"], "fixed"),
    f("g22", "fix", "must", "# noble runs unattended-upgrades on first boot and holds the dpkg lock", "base.sh now waits for cloud-init (cloud-init status --wait), stops unattended-upgrades and apt timers during provisioning, uses apt-get -o DPkg::Lock::Timeout=600, and re-enables them at the end.", [r"cloud-init|Lock::Timeout|unattended", r"wait|stop|timeout|re-?enable"]),
    f("g23", "request", "should", "Tag it also with Owner=platform", "Tag the AMI Owner=platform too (tags: Name, BaseOS=ubuntu-24.04, Owner=platform, CostCenter=platform-42).", [r"Owner", r"platform|tag"], "done"),
    f("g24", "command", "must", "guard ok: ami-0f3c91d2e7a8b4c65 private and encrypted", "packer build -color=false . (only with permission): build 2 finished in 14m06s, goss 15/15 on the builder, guard ok.", [r"packer build|build", r"14m|14 minutes|finished|ami-0f3c91d2e7a8b4c65|guard"]),
    f("g25", "value", "must", "Build 2 finished in 14m06s: **ami-0f3c91d2e7a8b4c65**", "New AMI ami-0f3c91d2e7a8b4c65 (fernhill-golden-noble-1778494511, eu-west-1): verified Public false, no launch permissions, encrypted with alias/ami-golden (key 7d2e9b40-...).", [r"ami-0f3c91d2e7a8b4c65"]),
    f("g26", "value", "nice", "arn:aws:sts::481203377614:assumed-role/platform-engineer/ops", "AWS account 481203377614, role platform-engineer; builder subnet subnet-0a7c3e51d9b24f816 (prod VPC), t3.small.", [r"481203377614|subnet-0a7c3e51d9b24f816|platform-engineer"]),
    f("g27", "request", "should", "Add packer-manifest.json to gitignore, commit on a branch feat/noble, push", "packer-manifest.json in .gitignore; commit on branch feat/noble and push; the user opens the MR; print the MR description with the AMI id.", [r"feat/noble|packer-manifest", r"branch|push|gitignore|MR"], "done"),
    f("g28", "finding", "should", "Note: the Makefile diff shows a `lint` target I didn't write", "The Makefile lint target (shellcheck + packer fmt -check) was already uncommitted in the user's tree; included in the commit.", [r"lint", r"Makefile|uncommitted|didn.t write"]),
    f("g29", "state", "must", "Pushed `5e81c0a` on feat/noble", "Pushed 5e81c0a on feat/noble; MR description text printed (AMI ami-0f3c91d2e7a8b4c65); MR to be opened by the user.", [r"5e81c0a"]),
    f("g30", "value", "should", "Packer v1.11.2\nversion: 0.10.0\ngoss version v0.4.9", "Tools: Packer 1.11.2 (amazon plugin 1.3.3 via packer init), shellcheck 0.10.0, goss 0.4.9, aws-cli 2.17.20.", [r"1\.11\.2|0\.4\.9|0\.10\.0"]),
    f("g31", "path", "should", "hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-*", "ubuntu.pkr.hcl: source filter ubuntu/images/hvm-ssd-gp3/ubuntu-noble-24.04-amd64-server-* (owner 099720720109), ami_name fernhill-golden-noble-{{timestamp}}, new provisioners and post-processors.", [r"noble|hvm-ssd-gp3", r"filter|ami_name|source"]),
]
dump(HERE, META, COMPACTIONS, FACTS)
