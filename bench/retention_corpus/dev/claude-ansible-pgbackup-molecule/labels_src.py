# ruff: noqa: E501
"""Labels for claude-ansible-pgbackup-molecule, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "ops-ansible pg_backup role: Debian 12 + PostgreSQL 16 (PGDG), lint production profile, Molecule without privileged, schedule changed twice, encrypted repository",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout4 test split",
    "voice": "long paragraphs with the key rule buried mid-paragraph, rules asked as questions (\"could we avoid ...?\"), decisions with \"so:\", changes the schedule mechanism twice",
    "toolchain": "Ansible (ansible-core 2.16.6), Molecule 24.2 with the docker driver, ansible-lint 24.2.3 (production profile), pgBackRest, PostgreSQL 16, AWX (Explore sub-agent via Task, ~30-line report)",
}
COMPACTIONS = [
    ("Molecule passes on Debian 12 without privileged", 1000),
    ("Done, the final schedule mechanism is", 1500),
]
FACTS = [
    f("a01", "request", "must", "we are now moving the database fleet to Debian 12", "Bring the pg_backup role to Debian 12 (bookworm) with PostgreSQL 16 from the PGDG apt repository (it was written for Debian 11 / PG 15).", [r"Debian 12|bookworm", r"PostgreSQL 16|\bPG ?16|postgresql-16|PGDG"], "done"),
    f("a02", "request", "must", "The schedule we want is a full backup", "Schedule: a full backup every Sunday night, a differential backup every other night.", [r"full.{0,80}(sunday|\bsun\b)|(sunday|\bsun\b).{0,80}full", r"diff"], "done"),
    f("a03", "value", "should", "and we keep four full backups", "Keep four full backups (repo1-retention-full 4; the role had 2).", [r"retention|keep", r"\b4\b|four"]),
    f("a04", "constraint", "must", "could we avoid community.general", "No community.general or any collection not already in requirements.yml: the AWX execution environment has only ansible.builtin, ansible.posix and community.postgresql.", [r"community\.general|collection", r"avoid|\bno\b|\bnot\b|only|without|requirements"]),
    f("a05", "constraint", "must", "runners refuse privileged containers", "The Molecule scenario must run without privileged: true (the GitLab runners refuse privileged containers since an incident last spring).", [r"privileged", r"without|\bno\b|\bnot\b|refuse|drop|remov"]),
    f("a06", "constraint", "must", "The CI gate is ansible-lint with the production profile", "CI gate: ansible-lint with the production profile must pass.", [r"ansible-lint|\blint", r"production"]),
    f("a07", "finding", "should", "4. tasks/main.yml:16-19", "stanza-create ran via command without creates/changed_when: no-changed-when and an idempotence failure.", [r"stanza", r"creates|changed_when|idempoten"]),
    f("a08", "finding", "should", "6. templates/pgbackrest.conf.j2:9 hardcodes", "pgbackrest.conf.j2 hardcoded pg1-path=/var/lib/postgresql/15/main although defaults had pg_backup_pg_version (now 16 and used in the template).", [r"pg1-path|postgresql/1[56]/main", r"hardcod|version|pg_backup_pg_version"]),
    f("a09", "finding", "must", "15. Inventory: db_servers = db-01..db-04", "db_servers includes db-legacy-01/02, which run Rocky Linux 9 (migrate in Q3); the role is apt-only.", [r"db-legacy|rocky", r"rocky|\bapt\b|Q3|legacy"]),
    f("a10", "value", "nice", "13. Tooling pinned in requirements-dev.txt", "Tooling: ansible-core 2.16.6, molecule 24.2.1, molecule-plugins[docker] 23.5.3, ansible-lint 24.2.3.", [r"2\.16\.6|24\.2\.1|24\.2\.3", r"ansible-core|molecule|ansible-lint"]),
    f("a11", "finding", "nice", "14. .gitlab-ci.yml: `lint` runs ansible-lint", "The molecule CI job is when: manual; only lint runs automatically.", [r"molecule", r"manual"]),
    f("a12", "constraint", "should", "just make sure the role doesn't run its apt tasks on them", "The role must fail clearly on the Rocky hosts instead of running apt tasks (it now asserts os_family == Debian first).", [r"rocky|non-debian|not Debian|os_family|Debian only", r"fail|assert"]),
    f("a13", "decision", "should", "let's keep the /etc/cron.d file from the template for now", "Keep the /etc/cron.d/pgbackrest template as the schedule mechanism; later replaced.", [r"cron\.d", r"template|keep"], "reversed"),
    f("a14", "value", "must", "full at 01:30 on Sunday, diff at 01:30 Monday to Saturday", "Backup times: full at 01:30 on Sunday, diff at 01:30 Monday to Saturday (kept through every schedule change).", [r"01:30|\b1:30|30 1 \*", r"diff|full"]),
    f("a15", "decision", "should", "add the repository with `ansible.builtin.deb822_repository`", "PGDG repository via ansible.builtin.deb822_repository (in ansible-core since 2.15, no new collection).", [r"deb822_repository"]),
    f("a16", "error", "should", "The plain debian:bookworm image has no Python", "Molecule converge on debian:bookworm failed (/usr/bin/python3 not found); the scenario uses geerlingguy/docker-debian12-ansible with command sleep infinity, without privileged or systemd.", [r"python3?|debian:bookworm", r"geerlingguy|not found|no Python|image"], "fixed"),
    f("a17", "error", "should", "pgBackRest 2.54.2 from PGDG ships its config", "'Destination directory /etc/pgbackrest does not exist': pgBackRest 2.54.2 from PGDG ships /etc/pgbackrest.conf; the role now creates /etc/pgbackrest (postgres, 0750).", [r"/etc/pgbackrest", r"director|does not exist|creat"], "fixed"),
    f("a18", "error", "must", "The interesting line is in the middle of that output", "stanza-create failed with FATAL: role \"postgres\" does not exist: the geerlingguy image's cluster has superuser molecule; prepare_pg.yml drops and recreates the cluster (pg_dropcluster / pg_createcluster) like a real server.", [r"role .?postgres.? does not exist|superuser|\bmolecule\b", r"cluster|pg_createcluster|pg_dropcluster|recreat"], "fixed"),
    f("a19", "error", "should", "risky-shell-pipe: Shells that use pipes should set the pipefail option.", "ansible-lint risky-shell-pipe on the shell block with || in prepare_pg.yml; replaced by two command tasks.", [r"risky-shell-pipe|pipefail", r"shell|command|prepare_pg"], "fixed"),
    f("a20", "fix", "nice", "lookups run on the controller", "A when: with a pipe lookup checked the controller's user; replaced with a registered psql query of the cluster superuser inside the container.", [r"lookup", r"controller"]),
    f("a21", "request", "should", "Yes please add a verify step", "verify.yml checks that the stanza exists (info status 0 or 2) and that the schedule is installed.", [r"verify", r"stanza|schedule|cron"], "done"),
    f("a22", "value", "nice", "The full `molecule test` takes 3m41s", "A full molecule test takes 3m41s locally, mostly apt from PGDG.", [r"3m ?41|3:41|3 ?min", r"molecule"]),
    f("a23", "decision", "should", "so I've changed my mind on the schedule: please use systemd timers", "Use systemd timers (service + full and diff timers) so node_exporter's systemd collector alerts on failures; later dropped.", [r"systemd", r"timers?"], "reversed"),
    f("a24", "finding", "must", "Systemd timers can't be tested in this scenario", "systemd timers cannot be tested in Molecule without privileged or a writable cgroup mount (read-only: 'Failed to allocate manager object'; without systemd: 'System has not been booted with systemd').", [r"systemd|timers?", r"privileged|cgroup|PID 1|read-only"]),
    f("a25", "decision", "must", "so: use the ansible.builtin.cron module with user postgres", "Final schedule: ansible.builtin.cron jobs in the postgres user's crontab (visible in crontab -l -u postgres); the cron.d and timer templates are dropped.", [r"ansible\.builtin\.cron|cron module|crontab", r"postgres"]),
    f("a26", "constraint", "should", "make the jobs write to syslog with the tag pgbackrest", "The jobs log to syslog with tag pgbackrest via logger (Loki picks it up; Jana builds her alert on it).", [r"syslog|logger|loki", r"pgbackrest|\btag"]),
    f("a27", "constraint", "should", "remove /etc/cron.d/pgbackrest on hosts", "Remove /etc/cron.d/pgbackrest on hosts that still have it.", [r"cron\.d", r"remov|absent|delet|drop|gone"]),
    f("a28", "error", "should", "cron runs jobs with /bin/sh (dash), which has no `PIPESTATUS`", "cron runs jobs with /bin/sh (dash): PIPESTATUS gives 'Bad substitution'; fixed with SHELL=/bin/bash in the postgres crontab (cron module env: true).", [r"PIPESTATUS|bad substitution|dash", r"bash|SHELL"], "fixed"),
    f("a29", "value", "should", "Done, the final schedule mechanism is", "Output goes to syslog local0.info with tag pgbackrest; a failed backup logs '<type> backup failed' at local0.err.", [r"local0|backup failed", r"\berr|alert|syslog|logger"]),
    f("a30", "constraint", "must", "It must never end up in plain text anywhere", "The repository cipher passphrase (vault_pgbackrest_cipher_pass) must never be in plain text in the role, defaults or logs, nor printed by Ansible; Molecule uses a dummy value.", [r"cipher|passphrase|vault_pgbackrest_cipher_pass", r"plain ?text|never|no_log|not print|\blogs?\b"]),
    f("a31", "fix", "should", "The passphrase never shows up", "The config template task has no_log: true and diff: false (no trace with -v or --diff); aes-256-cbc only when pg_backup_cipher_pass is non-empty.", [r"no_log", r"diff|template|passphrase|cipher"]),
    f("a32", "finding", "should", "it's in the AWX inventory source", "vault_pgbackrest_cipher_pass comes from the AWX inventory source (not this repo); group_vars maps pg_backup_cipher_pass to it.", [r"AWX", r"vault|inject|inventory"]),
    f("a33", "request", "must", "Let's keep Rocky for next week", "Rocky 9 support and its Molecule scenario: next week (the legacy hosts migrate in Q3); the rocky9 scenario folder was removed.", [r"rocky", r"next week|later|open|not (yet|now)|postpon"], "open"),
    f("a34", "finding", "nice", "Supporting Rocky means a second path", "Rocky needs the PGDG yum repository, dnf, and the cluster at /var/lib/pgsql/16/data.", [r"rocky", r"pgsql/16/data|\bdnf\b|yum"]),
    f("a35", "value", "should", "Committed 6a2d4f1", "Committed 6a2d4f1 on branch pg-backup-bookworm, not pushed.", [r"6a2d4f1"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
