# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout4 split.

An ops engineer writing long paragraphs (the rule about privileged containers buried mid-paragraph,
rules asked as questions) has Claude Code bring an Ansible role for pgBackRest to Debian 12 and
PostgreSQL 16, pass ansible-lint's production profile and a Molecule scenario without privileged
containers, after an Explore sub-agent survey (Task, ~30-line report). The backup schedule changes
twice (cron.d template -> systemd timers -> ansible.builtin.cron). Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/srv/git/ops-ansible"
s = ClaudeSession(CWD, "2026-01-21T13:40:05", seed="ops-pgbackup", branch="pg-backup-bookworm")

TASKS = "roles/pg_backup/tasks/main.yml"
DEF = "roles/pg_backup/defaults/main.yml"
CONF = "roles/pg_backup/templates/pgbackrest.conf.j2"
CRONT = "roles/pg_backup/templates/pgbackrest.cron.j2"
MOL = "roles/pg_backup/molecule/default/molecule.yml"
CONV = "roles/pg_backup/molecule/default/converge.yml"
VER = "roles/pg_backup/molecule/default/verify.yml"
META = "roles/pg_backup/meta/main.yml"

s.files.update({
    TASKS: """---
- name: install pgbackrest
  apt:
    name: pgbackrest
    state: present
    update_cache: true

- name: Configure pgbackrest
  template:
    src: pgbackrest.conf.j2
    dest: /etc/pgbackrest/pgbackrest.conf
    owner: postgres
    group: postgres
    mode: 0640

- name: Create stanza
  command: pgbackrest --stanza={{ pg_backup_stanza }} stanza-create
  become: true
  become_user: postgres

- name: Install backup schedule
  template:
    src: pgbackrest.cron.j2
    dest: /etc/cron.d/pgbackrest
    mode: "0644"
""",
    DEF: """---
pg_backup_stanza: main
pg_backup_pg_version: 15
pg_backup_repo_path: /var/lib/pgbackrest
pg_backup_retention_full: 2
pg_backup_process_max: 2
""",
    CONF: """[global]
repo1-path={{ pg_backup_repo_path }}
repo1-retention-full={{ pg_backup_retention_full }}
process-max={{ pg_backup_process_max }}
log-level-console=info
start-fast=y

[{{ pg_backup_stanza }}]
pg1-path=/var/lib/postgresql/15/main
""",
    CRONT: """# managed by ansible (pg_backup)
30 2 * * * postgres pgbackrest --stanza={{ pg_backup_stanza }} --type=full backup
""",
    MOL: """---
driver:
  name: docker
platforms:
  - name: debian11
    image: geerlingguy/docker-debian11-ansible:latest
    privileged: true
    volumes:
      - /sys/fs/cgroup:/sys/fs/cgroup:rw
    cgroupns_mode: host
    command: /lib/systemd/systemd
provisioner:
  name: ansible
verifier:
  name: ansible
""",
    CONV: """---
- name: Converge
  hosts: all
  become: true
  pre_tasks:
    - name: Install PostgreSQL
      ansible.builtin.apt:
        name: postgresql
        update_cache: true
  roles:
    - role: pg_backup
""",
    META: """---
galaxy_info:
  role_name: pg_backup
  author: ops
  description: pgBackRest backups for our PostgreSQL servers
  license: proprietary
  min_ansible_version: "2.14"
  platforms:
    - name: Debian
      versions: [bullseye]
dependencies: []
""",
})


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text)


def molecule(out: str, code: int = 0, cmd: str = "cd roles/pg_backup && molecule test", text: str | None = None) -> None:
    sh(cmd, out, code=code, desc="Molecule", text=text)


# ============================================================================================ turn 1
s.user(
    "Hi Claude. I need help with our pg_backup role in this repo (roles/pg_backup). It installs pgBackRest on our PostgreSQL servers, and it was written two years ago for Debian 11 and "
    "PostgreSQL 15; we are now moving the database fleet to Debian 12 (bookworm) with PostgreSQL 16 from the PGDG apt repository, and the role has to follow. The schedule we want is a full "
    "backup every Sunday night and a differential backup every other night, and we keep four full backups. The role is run from AWX, and here is the part that bites people: the AWX "
    "execution environment only has ansible.builtin, ansible.posix and community.postgresql installed, so could we avoid community.general and anything else that would need a new "
    "collection in requirements.yml? I'd also like the molecule scenario to actually test bookworm instead of bullseye; when you touch molecule.yml please remember that our GitLab "
    "runners refuse privileged containers since the incident last spring, so privileged: true has to go and the scenario must run without it, which is probably also why nobody has run "
    "it in a while. The CI gate is ansible-lint with the production profile, and it currently fails on this role. Could you first send a sub-agent to look through the role, the "
    "inventory and the CI config, and then tell me how you would go about it before you change anything?",
    pause=0,
)
(tid,) = s.assistant(
    "I'll start with a sub-agent survey.",
    calls=[("Task", {"description": "Survey pg_backup role", "prompt": "In /srv/git/ops-ansible, survey roles/pg_backup for a move to Debian 12 + PostgreSQL 16 (PGDG): tasks, defaults, templates, handlers, meta, molecule scenario (drivers, privileged settings), the collections in requirements.yml and the AWX execution environment definition, ansible-lint config and profile, CI jobs, and which inventory hosts use the role. Numbered findings with file paths and line numbers, then risks. Change nothing.", "subagent_type": "Explore"})],
)
AG = "7d2e90b4"
s.user("In /srv/git/ops-ansible, survey roles/pg_backup for a move to Debian 12 + PostgreSQL 16 (PGDG) ... Numbered findings with file paths and line numbers, then risks. Change nothing.", agent=AG)
s.bash("find roles/pg_backup -type f | sort && cat requirements.yml .ansible-lint", "roles/pg_backup/defaults/main.yml\nroles/pg_backup/meta/main.yml\nroles/pg_backup/molecule/default/converge.yml\nroles/pg_backup/molecule/default/molecule.yml\nroles/pg_backup/tasks/main.yml\nroles/pg_backup/templates/pgbackrest.conf.j2\nroles/pg_backup/templates/pgbackrest.cron.j2\n---\ncollections:\n  - name: ansible.posix\n    version: 1.5.4\n  - name: community.postgresql\n    version: 3.4.0\n---\nprofile: production\nexclude_paths:\n  - .cache/\n  - collections/\n", agent=AG)
s.bash("grep -rn 'pg_backup' inventories/ playbooks/ | head; grep -n 'ansible-core\\|molecule\\|ansible-lint' execution-environment.yml requirements-dev.txt", "playbooks/db.yml:9:    - role: pg_backup\ninventories/prod/group_vars/db_servers.yml:4:pg_backup_stanza: \"{{ inventory_hostname_short }}\"\ninventories/prod/hosts.yml:31:    db_servers:\nexecution-environment.yml:7:    ansible_core: ansible-core==2.16.6\nrequirements-dev.txt:1:ansible-core==2.16.6\nrequirements-dev.txt:2:molecule==24.2.1\nrequirements-dev.txt:3:molecule-plugins[docker]==23.5.3\nrequirements-dev.txt:4:ansible-lint==24.2.3\n", agent=AG)
s.bash("yq '.all.children.db_servers.hosts | keys' inventories/prod/hosts.yml; grep -rn 'os_family\\|rocky' inventories/prod/host_vars | head -4", "- db-01\n- db-02\n- db-03\n- db-04\n- db-legacy-01\n- db-legacy-02\ninventories/prod/host_vars/db-legacy-01.yml:2:# Rocky Linux 9, migrates in Q3\ninventories/prod/host_vars/db-legacy-02.yml:2:# Rocky Linux 9, migrates in Q3\n", agent=AG)
s.bash("sed -n '1,40p' .gitlab-ci.yml | grep -A4 'lint\\|molecule'", "lint:\n  image: registry.internal/ops/ee-ansible:2.16.6\n  script:\n    - ansible-lint\nmolecule:\n  image: registry.internal/ops/molecule-dind:24.2\n  script:\n    - cd roles/pg_backup && molecule test\n  when: manual\n", agent=AG)
REPORT = """Survey of roles/pg_backup (nothing changed).

Findings
1. tasks/main.yml:2-6 uses short module names (`apt`, `template`, `command`): fqcn[action-core] under the production profile.
2. tasks/main.yml:2 task name "install pgbackrest" starts lower-case: name[casing].
3. tasks/main.yml:14 `mode: 0640` is an unquoted octal: risky-octal.
4. tasks/main.yml:16-19 `pgbackrest stanza-create` via command with no `creates`/`changed_when`: no-changed-when, and it reports changed on every run (Molecule idempotence will fail).
5. tasks/main.yml:21-25 installs /etc/cron.d/pgbackrest from templates/pgbackrest.cron.j2: one line, full backup daily at 02:30, no differential.
6. templates/pgbackrest.conf.j2:9 hardcodes `pg1-path=/var/lib/postgresql/15/main`; defaults has `pg_backup_pg_version: 15` but the template does not use it.
7. defaults/main.yml: stanza main, repo /var/lib/pgbackrest, retention_full 2 (you want 4), process_max 2.
8. No PGDG repository setup in the role; pgbackrest comes from whatever apt sources the host has.
9. No handlers, no verify.yml in molecule/default.
10. molecule/default/molecule.yml: image geerlingguy/docker-debian11-ansible, `privileged: true`, /sys/fs/cgroup mounted rw, `command: /lib/systemd/systemd`.
11. meta/main.yml lists only Debian bullseye; min_ansible_version 2.14.
12. requirements.yml: ansible.posix 1.5.4, community.postgresql 3.4.0 (no community.general).
13. Tooling pinned in requirements-dev.txt: ansible-core 2.16.6, molecule 24.2.1, molecule-plugins[docker] 23.5.3, ansible-lint 24.2.3; .ansible-lint sets profile production.
14. .gitlab-ci.yml: `lint` runs ansible-lint in ee-ansible:2.16.6; `molecule` job is `when: manual` in image molecule-dind:24.2.
15. Inventory: db_servers = db-01..db-04 plus db-legacy-01/02, which are Rocky Linux 9 (host_vars say "migrates in Q3"); the role uses apt only.
16. inventories/prod/group_vars/db_servers.yml:4 sets `pg_backup_stanza` to the short hostname.

Risks
- Dropping privileged means no systemd as PID 1 in the container; anything that needs systemd (services, timers) cannot be tested there.
- The two Rocky 9 hosts would break on apt tasks if the play runs on them.
- Changing the schedule changes when load hits the database servers.
"""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": "In /srv/git/ops-ansible, survey roles/pg_backup ...", "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 52004, "totalTokens": 21630, "totalToolUseCount": 13})
s.reads([TASKS, DEF, MOL])
sh("ansible-lint roles/pg_backup 2>&1 | tail -12", """Read documentation for instructions on how to ignore specific rule violations.

                      Rule Violation Summary
 count tag               profile    rule associated tags
     1 name[casing]      moderate   idiom
     1 risky-octal       safety     formatting
     1 no-changed-when   shared     command-shell, idempotency
     4 fqcn[action-core] production formatting

Failed: 7 failure(s), 0 warning(s) on 8 files. Last profile that met the validation criteria was 'min'.
""", code=2, desc="ansible-lint baseline")
s.assistant(
    "Plan, nothing changed yet:\n\n"
    "1. Lint: FQCN everywhere, quoted modes, task names capitalised, `creates:` on stanza-create so it is idempotent.\n"
    "2. PGDG: add the repository with `ansible.builtin.deb822_repository` (in ansible-core since 2.15, so no new collection), PostgreSQL version from `pg_backup_pg_version` (16) used in pg1-path.\n"
    "3. Retention 4 full, full backup on Sunday, differential the other nights.\n"
    "4. Molecule: Debian 12 image, no `privileged`, no cgroup mount, no systemd as PID 1. That means the scenario can't start a real PostgreSQL service through systemd; I'd start it with `pg_ctlcluster` in converge's pre_tasks.\n\n"
    "One thing to decide: the schedule currently is a template for /etc/cron.d/pgbackrest. Keep that mechanism and just change the times, or something else?"
)

# ============================================================================================ turn 2
s.user(
    "Sounds right. For the schedule: let's keep the /etc/cron.d file from the template for now, it's what the other roles do as well, so: full at 01:30 on Sunday, diff at 01:30 Monday to Saturday. "
    "The two Rocky hosts I will deal with separately, just make sure the role doesn't run its apt tasks on them, a clear failure is better than half a run."
)
s.write(TASKS, """---
- name: Fail on hosts that are not Debian
  ansible.builtin.assert:
    that: ansible_facts['os_family'] == 'Debian'
    fail_msg: "pg_backup supports Debian only ({{ inventory_hostname }} is {{ ansible_facts['distribution'] }} {{ ansible_facts['distribution_major_version'] }})"

- name: Add the PGDG apt repository
  ansible.builtin.deb822_repository:
    name: pgdg
    types: [deb]
    uris: https://apt.postgresql.org/pub/repos/apt
    suites: ["{{ ansible_facts['distribution_release'] }}-pgdg"]
    components: [main]
    signed_by: https://www.postgresql.org/media/keys/ACCC4CF8.asc

- name: Install pgbackrest
  ansible.builtin.apt:
    name: pgbackrest
    state: present
    update_cache: true

- name: Configure pgbackrest
  ansible.builtin.template:
    src: pgbackrest.conf.j2
    dest: /etc/pgbackrest/pgbackrest.conf
    owner: postgres
    group: postgres
    mode: "0640"

- name: Create stanza
  ansible.builtin.command: pgbackrest --stanza={{ pg_backup_stanza }} stanza-create
  args:
    creates: "{{ pg_backup_repo_path }}/backup/{{ pg_backup_stanza }}/backup.info"
  become: true
  become_user: postgres

- name: Install backup schedule
  ansible.builtin.template:
    src: pgbackrest.cron.j2
    dest: /etc/cron.d/pgbackrest
    mode: "0644"
""", text="Rewriting tasks/main.yml: assert Debian, PGDG via deb822_repository, FQCN, quoted modes, creates on stanza-create.")
s.write(CRONT, """# managed by ansible (pg_backup)
30 1 * * 0 postgres pgbackrest --stanza={{ pg_backup_stanza }} --type=full backup
30 1 * * 1-6 postgres pgbackrest --stanza={{ pg_backup_stanza }} --type=diff backup
""")
s.multi_edit(DEF, [("pg_backup_pg_version: 15\n", "pg_backup_pg_version: 16\n"), ("pg_backup_retention_full: 2\n", "pg_backup_retention_full: 4\n")])
s.edit(CONF, "pg1-path=/var/lib/postgresql/15/main\n", "pg1-path=/var/lib/postgresql/{{ pg_backup_pg_version }}/main\n")
s.edit(META, "      versions: [bullseye]\n", "      versions: [bookworm]\n")
s.write(MOL, """---
driver:
  name: docker
platforms:
  - name: debian12
    image: debian:bookworm
    pre_build_image: false
provisioner:
  name: ansible
  inventory:
    host_vars:
      debian12:
        pg_backup_stanza: molecule
verifier:
  name: ansible
""", text="Molecule: plain debian:bookworm, no privileged, no cgroup mount, no systemd.")
s.write(CONV, """---
- name: Converge
  hosts: all
  become: true
  pre_tasks:
    - name: Install PostgreSQL 16 from PGDG and start the cluster without systemd
      ansible.builtin.include_tasks: prepare_pg.yml
  roles:
    - role: pg_backup
""")
s.write("roles/pg_backup/molecule/default/prepare_pg.yml", """---
- name: Add the PGDG apt repository
  ansible.builtin.deb822_repository:
    name: pgdg
    types: [deb]
    uris: https://apt.postgresql.org/pub/repos/apt
    suites: ["{{ ansible_facts['distribution_release'] }}-pgdg"]
    components: [main]
    signed_by: https://www.postgresql.org/media/keys/ACCC4CF8.asc

- name: Install PostgreSQL 16
  ansible.builtin.apt:
    name: [postgresql-16, cron]
    update_cache: true

- name: Start the cluster with pg_ctlcluster (no systemd in the container)
  ansible.builtin.command: pg_ctlcluster 16 main start
  args:
    creates: /var/run/postgresql/16-main.pid
""")
sh("ansible-lint roles/pg_backup 2>&1 | tail -3", "\nPassed: 0 failure(s), 0 warning(s) on 10 files. Profile 'production' was required, and it passed.\n", desc="ansible-lint")
molecule("""INFO     default scenario test matrix: dependency, cleanup, destroy, syntax, create, prepare, converge, idempotence, side_effect, verify, cleanup, destroy
INFO     Running default > create
PLAY [Create] ******************************************************************
TASK [Create docker instances] *************************************************
changed: [localhost] => (item=debian12)
PLAY RECAP *********************************************************************
localhost                  : ok=7    changed=2    unreachable=0    failed=0    skipped=3    rescued=0    ignored=0

INFO     Running default > converge
PLAY [Converge] ****************************************************************
TASK [Gathering Facts] *********************************************************
fatal: [debian12]: FAILED! => {"ansible_facts": {}, "changed": false, "failed_modules": {"ansible.legacy.setup": {"failed": true, "module_stderr": "/bin/sh: 1: /usr/bin/python3: not found\\n", "module_stdout": "", "msg": "The module failed to execute correctly, you probably need to set the interpreter.\\nSee stdout/stderr for the exact error", "rc": 127}}, "msg": "The following modules failed to execute correctly: ansible.legacy.setup\\n"}

PLAY RECAP *********************************************************************
debian12                   : ok=0    changed=0    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0

CRITICAL Ansible return code was 2, command was: ansible-playbook --inventory /home/lukas/.cache/molecule/pg_backup/default/inventory --skip-tags molecule-notest,notest /srv/git/ops-ansible/roles/pg_backup/molecule/default/converge.yml
WARNING  An error occurred during the test sequence action: 'converge'. Cleaning up.
INFO     Running default > cleanup
INFO     Running default > destroy
""", code=1)
s.assistant("The plain debian:bookworm image has no Python, so fact gathering fails (`/usr/bin/python3: not found`). The geerlingguy image ships Python and does not need privileged to run Ansible; it is only privileged for systemd. I'll use geerlingguy/docker-debian12-ansible without privileged and keep its default command off systemd.")
s.edit(MOL, "    image: debian:bookworm\n    pre_build_image: false\n", "    image: geerlingguy/docker-debian12-ansible:latest\n    pre_build_image: true\n    command: sleep infinity\n")
molecule("""INFO     Running default > converge
PLAY [Converge] ****************************************************************
TASK [Gathering Facts] *********************************************************
ok: [debian12]
TASK [Install PostgreSQL 16 from PGDG and start the cluster without systemd] ***
included: /srv/git/ops-ansible/roles/pg_backup/molecule/default/prepare_pg.yml for debian12
TASK [Add the PGDG apt repository] *********************************************
changed: [debian12]
TASK [Install PostgreSQL 16] ***************************************************
changed: [debian12]
TASK [Start the cluster with pg_ctlcluster (no systemd in the container)] ******
changed: [debian12]
TASK [pg_backup : Fail on hosts that are not Debian] ***************************
ok: [debian12] => {"changed": false, "msg": "All assertions passed"}
TASK [pg_backup : Add the PGDG apt repository] *********************************
ok: [debian12]
TASK [pg_backup : Install pgbackrest] ******************************************
changed: [debian12]
TASK [pg_backup : Configure pgbackrest] ****************************************
fatal: [debian12]: FAILED! => {"changed": false, "checksum": "5b1f0a4c3e08d6a0cc1b8d7e2b0f3f3e7c5ad6a1", "msg": "Destination directory /etc/pgbackrest does not exist"}
PLAY RECAP *********************************************************************
debian12                   : ok=8    changed=4    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0

CRITICAL Ansible return code was 2, command was: ansible-playbook --inventory /home/lukas/.cache/molecule/pg_backup/default/inventory --skip-tags molecule-notest,notest /srv/git/ops-ansible/roles/pg_backup/molecule/default/converge.yml
""", code=1, cmd="cd roles/pg_backup && molecule converge")
sh("docker exec debian12 dpkg -L pgbackrest | grep -E '^/etc|conf' ; docker exec debian12 pgbackrest version", "/etc/pgbackrest.conf\npgBackRest 2.54.2\n", desc="Where the package puts its config")
s.assistant("pgBackRest 2.54.2 from PGDG ships its config as /etc/pgbackrest.conf and does not create /etc/pgbackrest/. I'll create the directory (owned by postgres) before templating, and keep /etc/pgbackrest/pgbackrest.conf, which pgBackRest reads first.")
s.edit(TASKS, "- name: Configure pgbackrest\n", "- name: Create the configuration directory\n  ansible.builtin.file:\n    path: /etc/pgbackrest\n    state: directory\n    owner: postgres\n    group: postgres\n    mode: \"0750\"\n\n- name: Configure pgbackrest\n")
molecule("""INFO     Running default > converge
TASK [pg_backup : Create the configuration directory] **************************
changed: [debian12]
TASK [pg_backup : Configure pgbackrest] ****************************************
changed: [debian12]
TASK [pg_backup : Create stanza] ***********************************************
fatal: [debian12]: FAILED! => {"changed": true, "cmd": ["pgbackrest", "--stanza=molecule", "stanza-create"], "delta": "0:00:00.062114", "end": "2026-01-21 14:22:41.170201", "msg": "non-zero return code", "rc": 28, "start": "2026-01-21 14:22:41.108087", "stderr": "", "stderr_lines": [], "stdout": "2026-01-21 14:22:41.109 P00   INFO: stanza-create command begin 2.54.2: --exec-id=1291-5c0a2f1e --log-level-console=info --pg1-path=/var/lib/postgresql/16/main --process-max=2 --repo1-path=/var/lib/pgbackrest --stanza=molecule\\nWARN: unable to check pg1: [DbConnectError] unable to connect to 'dbname='postgres' port=5432': connection to server on socket \\"/var/run/postgresql/.s.PGSQL.5432\\" failed: FATAL:  role \\"postgres\\" does not exist\\nERROR: [056]: unable to find primary cluster - cannot proceed\\n       HINT: are all available clusters in recovery?\\n2026-01-21 14:22:41.170 P00   INFO: stanza-create command end: aborted with exception [056]", "stdout_lines": ["..."]}
PLAY RECAP *********************************************************************
debian12                   : ok=12   changed=6    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0
""", code=1, cmd="cd roles/pg_backup && molecule converge")
sh("docker exec debian12 bash -c 'id postgres; ls /var/run/postgresql; ps -ef | grep [p]ostgres | head -3'", "uid=101(postgres) gid=103(postgres) groups=103(postgres),102(ssl-cert)\n16-main.pid\n.s.PGSQL.5432\npostgres   412     1  0 14:21 ?        00:00:00 /usr/lib/postgresql/16/bin/postgres -D /var/lib/postgresql/16/main -c config_file=/etc/postgresql/16/main/postgresql.conf\n", desc="Inspect the container")
sh("docker exec debian12 bash -c 'su postgres -c \"psql -Atc \\\"select rolname from pg_roles where rolsuper\\\"\"'", "molecule\n", desc="Superuser role in the image")
s.assistant(
    "The interesting line is in the middle of that output: `FATAL: role \"postgres\" does not exist`. The geerlingguy image pre-creates a cluster whose superuser is `molecule` (its initdb ran as a different user), so pgBackRest, which connects as role postgres, can't check the primary. "
    "That is an artefact of the test image, not of the role: on the real servers the cluster comes from postgresql-16 with role postgres. I'll drop and recreate the cluster in prepare_pg.yml with `pg_dropcluster`/`pg_createcluster` so it matches a real server."
)
s.edit("roles/pg_backup/molecule/default/prepare_pg.yml", """- name: Start the cluster with pg_ctlcluster (no systemd in the container)
  ansible.builtin.command: pg_ctlcluster 16 main start
  args:
    creates: /var/run/postgresql/16-main.pid
""", """- name: Recreate the cluster as on a real server (the image's cluster has no postgres role)
  ansible.builtin.shell: |
    pg_dropcluster --stop 16 main || true
    pg_createcluster 16 main
  args:
    creates: /var/lib/postgresql/16/main/.recreated-by-molecule
  notify: Mark cluster recreated

- name: Start the cluster with pg_ctlcluster (no systemd in the container)
  ansible.builtin.command: pg_ctlcluster 16 main start
  args:
    creates: /var/run/postgresql/16-main.pid
""")
sh("ansible-lint roles/pg_backup 2>&1 | tail -14", """WARNING  Listing 1 violation(s) that are fatal
risky-shell-pipe: Shells that use pipes should set the pipefail option.
roles/pg_backup/molecule/default/prepare_pg.yml:17 Task/Handler: Recreate the cluster as on a real server (the image's cluster has no postgres role)

Read documentation for instructions on how to ignore specific rule violations.

                   Rule Violation Summary
 count tag              profile rule associated tags
     1 risky-shell-pipe safety  command-shell

Failed: 1 failure(s), 0 warning(s) on 11 files. Last profile that met the validation criteria was 'moderate'. Rating: 4/5 star
""", code=2, desc="ansible-lint")
s.assistant("ansible-lint treats the `||` in that shell block as a pipe. Two plain command tasks are cleaner anyway, and a notify to a handler that doesn't exist would have failed too.")
s.edit("roles/pg_backup/molecule/default/prepare_pg.yml", """- name: Recreate the cluster as on a real server (the image's cluster has no postgres role)
  ansible.builtin.shell: |
    pg_dropcluster --stop 16 main || true
    pg_createcluster 16 main
  args:
    creates: /var/lib/postgresql/16/main/.recreated-by-molecule
  notify: Mark cluster recreated
""", """- name: Drop the image's cluster (its superuser is molecule, not postgres)
  ansible.builtin.command: pg_dropcluster --stop 16 main
  args:
    removes: /var/lib/postgresql/16/main/PG_VERSION
  when: "'molecule' in lookup('ansible.builtin.pipe', 'id -un')"

- name: Create the cluster as on a real server
  ansible.builtin.command: pg_createcluster 16 main
  args:
    creates: /var/lib/postgresql/16/main/PG_VERSION
""")
sh("ansible-lint roles/pg_backup 2>&1 | tail -2", "\nPassed: 0 failure(s), 0 warning(s) on 11 files. Profile 'production' was required, and it passed.\n", desc="ansible-lint")
s.assistant("Hmm, that `when` looks at the controller's user via a lookup, which is wrong (lookups run on the controller). Replacing it with a check of the cluster's owner inside the container.")
s.edit("roles/pg_backup/molecule/default/prepare_pg.yml", """  args:
    removes: /var/lib/postgresql/16/main/PG_VERSION
  when: "'molecule' in lookup('ansible.builtin.pipe', 'id -un')"
""", """  args:
    removes: /var/lib/postgresql/16/main/PG_VERSION
  when: image_cluster_owner.stdout == 'molecule'
""")
s.edit("roles/pg_backup/molecule/default/prepare_pg.yml", "- name: Drop the image's cluster (its superuser is molecule, not postgres)\n", """- name: Find the superuser of the image's cluster
  ansible.builtin.command: psql -Atc "select rolname from pg_roles where oid = 10"
  become: true
  become_user: postgres
  register: image_cluster_owner
  changed_when: false
  failed_when: false

- name: Drop the image's cluster (its superuser is molecule, not postgres)
""")
molecule("""INFO     Running default > converge
TASK [pg_backup : Create stanza] ***********************************************
changed: [debian12]
TASK [pg_backup : Install backup schedule] *************************************
changed: [debian12]
PLAY RECAP *********************************************************************
debian12                   : ok=16   changed=8    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0

INFO     Running default > idempotence
PLAY RECAP *********************************************************************
debian12                   : ok=15   changed=0    unreachable=0    failed=0    skipped=1    rescued=0    ignored=0

INFO     Idempotence completed successfully.
INFO     Running default > verify
INFO     Verifier completed successfully.
INFO     Running default > destroy
""")
s.assistant(
    "Molecule passes on Debian 12 without privileged (converge, idempotence, verify) and ansible-lint passes the production profile.\n\n"
    "- PGDG via `ansible.builtin.deb822_repository` (no new collection), PostgreSQL 16 in pg1-path, retention 4 full.\n"
    "- /etc/cron.d/pgbackrest: full at 01:30 on Sunday, diff at 01:30 Monday-Saturday.\n"
    "- The role asserts `os_family == 'Debian'` first, so the Rocky hosts fail clearly before any apt task.\n"
    "- Molecule uses geerlingguy/docker-debian12-ansible with `command: sleep infinity`: no systemd, no privileged. The image's own cluster has superuser `molecule`, so prepare_pg.yml recreates it the way a real server has it.\n\n"
    "verify.yml doesn't exist yet (the verify step is empty); I'd add one next."
)

# ============================================================================================ turn 3
s.user("Great, thank you! Yes please add a verify step. Check that the stanza exists and that the schedule is installed.")
s.write(VER, """---
- name: Verify
  hosts: all
  become: true
  tasks:
    - name: Stanza info
      ansible.builtin.command: pgbackrest --stanza=molecule info --output=json
      become_user: postgres
      register: info
      changed_when: false

    - name: The stanza exists and is ok
      ansible.builtin.assert:
        that: (info.stdout | from_json)[0].status.code in [0, 2]

    - name: Read the schedule
      ansible.builtin.slurp:
        src: /etc/cron.d/pgbackrest
      register: cron

    - name: Full on Sunday and diff on the other days
      ansible.builtin.assert:
        that:
          - "'30 1 * * 0 postgres pgbackrest --stanza=molecule --type=full backup' in (cron.content | b64decode)"
          - "'30 1 * * 1-6 postgres pgbackrest --stanza=molecule --type=diff backup' in (cron.content | b64decode)"
""")
molecule("""INFO     Running default > verify
TASK [Stanza info] *************************************************************
ok: [debian12]
TASK [The stanza exists and is ok] *********************************************
ok: [debian12] => {"changed": false, "msg": "All assertions passed"}
TASK [Read the schedule] *******************************************************
ok: [debian12]
TASK [Full on Sunday and diff on the other days] *******************************
ok: [debian12] => {"changed": false, "msg": "All assertions passed"}
PLAY RECAP *********************************************************************
debian12                   : ok=4    changed=0    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0

INFO     Verifier completed successfully.
""", cmd="cd roles/pg_backup && molecule verify")
sh("cd roles/pg_backup && time molecule test 2>&1 | tail -3", "INFO     Running default > destroy\nINFO     Pruning extra files from scenario ephemeral directory\n\nreal\t3m41.208s\nuser\t0m38.114s\nsys\t0m6.902s\n", desc="Full molecule test")
s.assistant("verify.yml checks the stanza (status code 0 = ok or 2 = no backups yet) and both cron lines. The full `molecule test` takes 3m41s locally, most of it apt from PGDG.")

# ============================================================================================ turn 4
s.user(
    "I talked to Jana from monitoring and she made a good point: we don't see failed backups at the moment because cron mails go nowhere. Our node_exporter has the systemd collector enabled "
    "and alerts on failed units, so I've changed my mind on the schedule: please use systemd timers (a service plus a timer for full and one for diff) instead of the cron.d file, and remove "
    "the /etc/cron.d/pgbackrest file on hosts that still have it. Logging then goes to the journal, which is also nicer."
)
s.write("roles/pg_backup/templates/pgbackrest-backup@.service.j2", """# managed by ansible (pg_backup)
[Unit]
Description=pgBackRest %i backup of stanza {{ pg_backup_stanza }}
After=postgresql.service

[Service]
Type=oneshot
User=postgres
ExecStart=/usr/bin/pgbackrest --stanza={{ pg_backup_stanza }} --type=%i backup
""")
s.write("roles/pg_backup/templates/pgbackrest-full.timer.j2", "# managed by ansible (pg_backup)\n[Unit]\nDescription=Weekly full pgBackRest backup\n\n[Timer]\nOnCalendar=Sun *-*-* 01:30:00\nUnit=pgbackrest-backup@full.service\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n")
s.write("roles/pg_backup/templates/pgbackrest-diff.timer.j2", "# managed by ansible (pg_backup)\n[Unit]\nDescription=Daily differential pgBackRest backup\n\n[Timer]\nOnCalendar=Mon..Sat *-*-* 01:30:00\nUnit=pgbackrest-backup@diff.service\nPersistent=true\n\n[Install]\nWantedBy=timers.target\n")
s.edit(TASKS, """- name: Install backup schedule
  ansible.builtin.template:
    src: pgbackrest.cron.j2
    dest: /etc/cron.d/pgbackrest
    mode: "0644"
""", """- name: Remove the old cron.d schedule
  ansible.builtin.file:
    path: /etc/cron.d/pgbackrest
    state: absent

- name: Install the backup service and timers
  ansible.builtin.template:
    src: "{{ item.src }}"
    dest: "/etc/systemd/system/{{ item.dest }}"
    mode: "0644"
  loop:
    - { src: pgbackrest-backup@.service.j2, dest: pgbackrest-backup@.service }
    - { src: pgbackrest-full.timer.j2, dest: pgbackrest-full.timer }
    - { src: pgbackrest-diff.timer.j2, dest: pgbackrest-diff.timer }

- name: Enable the timers
  ansible.builtin.systemd_service:
    name: "{{ item }}"
    enabled: true
    state: started
    daemon_reload: true
  loop: [pgbackrest-full.timer, pgbackrest-diff.timer]
""")
molecule("""INFO     Running default > converge
TASK [pg_backup : Install the backup service and timers] ***********************
changed: [debian12] => (item={'src': 'pgbackrest-backup@.service.j2', 'dest': 'pgbackrest-backup@.service'})
changed: [debian12] => (item={'src': 'pgbackrest-full.timer.j2', 'dest': 'pgbackrest-full.timer'})
changed: [debian12] => (item={'src': 'pgbackrest-diff.timer.j2', 'dest': 'pgbackrest-diff.timer'})
TASK [pg_backup : Enable the timers] *******************************************
failed: [debian12] (item=pgbackrest-full.timer) => {"ansible_loop_var": "item", "changed": false, "item": "pgbackrest-full.timer", "msg": "failure 1 during daemon-reload: System has not been booted with systemd as init system (PID 1). Can't operate.\\nFailed to connect to bus: Host is down\\n"}
failed: [debian12] (item=pgbackrest-diff.timer) => {"ansible_loop_var": "item", "changed": false, "item": "pgbackrest-diff.timer", "msg": "failure 1 during daemon-reload: System has not been booted with systemd as init system (PID 1). Can't operate.\\nFailed to connect to bus: Host is down\\n"}
PLAY RECAP *********************************************************************
debian12                   : ok=17   changed=4    unreachable=0    failed=1    skipped=0    rescued=0    ignored=0
""", code=1, cmd="cd roles/pg_backup && molecule converge")
s.edit(MOL, "    command: sleep infinity\n", "    command: /lib/systemd/systemd\n    cgroupns_mode: host\n    volumes:\n      - /sys/fs/cgroup:/sys/fs/cgroup:ro\n    tmpfs:\n      - /run\n      - /tmp\n")
sh("cd roles/pg_backup && molecule destroy >/dev/null && molecule create 2>&1 | tail -4 && docker logs debian12 2>&1 | head -6", """PLAY RECAP *********************************************************************
localhost                  : ok=7    changed=2    unreachable=0    failed=0    skipped=3    rescued=0    ignored=0

systemd 252.33-1~deb12u1 running in system mode (+PAM +AUDIT +SELINUX +APPARMOR +IMA +SMACK +SECCOMP +GCRYPT -GNUTLS +OPENSSL +ACL +BLKID +CURL +ELFUTILS +FIDO2 +IDN2 -IDN +IPTC +KMOD +LIBCRYPTSETUP +LIBFDISK +PCRE2 -PWQUALITY +P11KIT +QRENCODE +TPM2 +BZIP2 +LZ4 +XZ +ZLIB +ZSTD -BPF_FRAMEWORK -XKBCOMMON +UTMP +SYSVINIT default-hierarchy=unified)
Detected virtualization docker.
Failed to create /init.scope control group: Read-only file system
Failed to allocate manager object: Read-only file system
[!!!!!!] Failed to allocate manager object.
Exiting PID 1...
""", code=0, desc="systemd in the container without privileged")
s.assistant(
    "Systemd timers can't be tested in this scenario without breaking your runner rule. Without `privileged` systemd can only run as PID 1 with a writable cgroup mount (`/sys/fs/cgroup:rw` plus cgroupns host); read-only it exits with "
    "'Failed to allocate manager object: Read-only file system' (in the middle of that log), and without systemd `systemd_service` can't daemon-reload ('System has not been booted with systemd as init system').\n\n"
    "Options: (a) timers, with the Molecule scenario skipping the enable step (tag `molecule-notest`), so the timers are only really tested on the first real host; (b) a writable cgroup mount, which is a privilege in all but name and probably not what your runners allow; (c) back to cron, with monitoring done differently. "
    "I haven't changed anything further; molecule.yml is back to `sleep infinity`."
)
s.edit(MOL, "    command: /lib/systemd/systemd\n    cgroupns_mode: host\n    volumes:\n      - /sys/fs/cgroup:/sys/fs/cgroup:ro\n    tmpfs:\n      - /run\n      - /tmp\n", "    command: sleep infinity\n")

# ============================================================================================ turn 5
s.user(
    "Ugh, I had forgotten that timers need systemd running inside the container, and no, a writable cgroup mount won't get past the runner admins either, I asked last year. "
    "So let's not do timers after all. I'd still like Jana's point covered somehow, though, and I remember that the cron module can set a MAILTO-like environment, so: use the "
    "ansible.builtin.cron module with user postgres, so each job shows up in `crontab -l -u postgres`, drop the cron.d template and the timer templates, remove /etc/cron.d/pgbackrest on hosts "
    "that have it, and make the jobs write to syslog with the tag pgbackrest (logger), which our Loki picks up. Jana will build her alert on that."
)
sh("git status --short roles/pg_backup", " M roles/pg_backup/defaults/main.yml\n M roles/pg_backup/meta/main.yml\n M roles/pg_backup/molecule/default/converge.yml\n M roles/pg_backup/molecule/default/molecule.yml\n M roles/pg_backup/tasks/main.yml\n M roles/pg_backup/templates/pgbackrest.conf.j2\n M roles/pg_backup/templates/pgbackrest.cron.j2\n?? roles/pg_backup/molecule/default/prepare_pg.yml\n?? roles/pg_backup/molecule/default/verify.yml\n?? roles/pg_backup/templates/pgbackrest-backup@.service.j2\n?? roles/pg_backup/templates/pgbackrest-diff.timer.j2\n?? roles/pg_backup/templates/pgbackrest-full.timer.j2\n", desc="Status")
sh("git rm -q roles/pg_backup/templates/pgbackrest.cron.j2 && rm roles/pg_backup/templates/pgbackrest-backup@.service.j2 roles/pg_backup/templates/pgbackrest-full.timer.j2 roles/pg_backup/templates/pgbackrest-diff.timer.j2", "", desc="Drop cron.d and timer templates")
s.edit(TASKS, """- name: Install the backup service and timers
  ansible.builtin.template:
    src: "{{ item.src }}"
    dest: "/etc/systemd/system/{{ item.dest }}"
    mode: "0644"
  loop:
    - { src: pgbackrest-backup@.service.j2, dest: pgbackrest-backup@.service }
    - { src: pgbackrest-full.timer.j2, dest: pgbackrest-full.timer }
    - { src: pgbackrest-diff.timer.j2, dest: pgbackrest-diff.timer }

- name: Enable the timers
  ansible.builtin.systemd_service:
    name: "{{ item }}"
    enabled: true
    state: started
    daemon_reload: true
  loop: [pgbackrest-full.timer, pgbackrest-diff.timer]
""", """- name: Schedule the backups in the postgres crontab
  ansible.builtin.cron:
    name: "pgbackrest {{ item.type }}"
    user: postgres
    minute: "30"
    hour: "1"
    weekday: "{{ item.weekday }}"
    job: >-
      pgbackrest --stanza={{ pg_backup_stanza }} --type={{ item.type }} backup 2>&1
      | logger -t pgbackrest -p local0.info; test ${PIPESTATUS[0]} -eq 0
      || logger -t pgbackrest -p local0.err "{{ item.type }} backup failed"
  loop:
    - { type: full, weekday: "0" }
    - { type: diff, weekday: "1-6" }
""", text="Replacing the timers with two ansible.builtin.cron jobs in the postgres crontab, output and failures to syslog via logger -t pgbackrest.")
sh("cd roles/pg_backup && molecule converge 2>&1 | tail -4 && docker exec debian12 crontab -l -u postgres", "PLAY RECAP *********************************************************************\ndebian12                   : ok=17   changed=3    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0\n\n#Ansible: pgbackrest full\n30 1 * * 0 pgbackrest --stanza=molecule --type=full backup 2>&1 | logger -t pgbackrest -p local0.info; test ${PIPESTATUS[0]} -eq 0 || logger -t pgbackrest -p local0.err \"full backup failed\"\n#Ansible: pgbackrest diff\n30 1 * * 1-6 pgbackrest --stanza=molecule --type=diff backup 2>&1 | logger -t pgbackrest -p local0.info; test ${PIPESTATUS[0]} -eq 0 || logger -t pgbackrest -p local0.err \"diff backup failed\"\n", desc="Converge and show the crontab")
sh("docker exec -u postgres debian12 bash -c 'sh -c \"false | true; test \\${PIPESTATUS[0]} -eq 0\"; echo rc=$?'; docker exec debian12 grep SHELL /var/spool/cron/crontabs/postgres", "sh: 1: Bad substitution\nrc=2\n", desc="Does PIPESTATUS work under cron's sh?")
s.assistant("Caught before it mattered: cron runs jobs with /bin/sh (dash), which has no `PIPESTATUS` ('Bad substitution'), so the failure line would never be logged. Setting `SHELL=/bin/bash` in the postgres crontab with the cron module's `env: true`.")
s.edit(TASKS, "- name: Schedule the backups in the postgres crontab\n", """- name: Run the postgres crontab with bash (PIPESTATUS)
  ansible.builtin.cron:
    name: SHELL
    env: true
    job: /bin/bash
    user: postgres

- name: Schedule the backups in the postgres crontab
""")
s.write(VER, s.files[VER].replace("""    - name: Read the schedule
      ansible.builtin.slurp:
        src: /etc/cron.d/pgbackrest
      register: cron

    - name: Full on Sunday and diff on the other days
      ansible.builtin.assert:
        that:
          - "'30 1 * * 0 postgres pgbackrest --stanza=molecule --type=full backup' in (cron.content | b64decode)"
          - "'30 1 * * 1-6 postgres pgbackrest --stanza=molecule --type=diff backup' in (cron.content | b64decode)"
""", """    - name: Read the postgres crontab
      ansible.builtin.command: crontab -l -u postgres
      register: cron
      changed_when: false

    - name: Bash, full on Sunday and diff on the other days, no cron.d file
      ansible.builtin.assert:
        that:
          - "'SHELL=/bin/bash' in cron.stdout"
          - "'30 1 * * 0 pgbackrest --stanza=molecule --type=full backup' in cron.stdout"
          - "'30 1 * * 1-6 pgbackrest --stanza=molecule --type=diff backup' in cron.stdout"
          - "not ('/etc/cron.d/pgbackrest' is exists)"
"""))
sh("ansible-lint roles/pg_backup 2>&1 | tail -2", "\nPassed: 0 failure(s), 0 warning(s) on 9 files. Profile 'production' was required, and it passed.\n", desc="ansible-lint")
molecule("""INFO     Running default > idempotence
PLAY RECAP *********************************************************************
debian12                   : ok=17   changed=0    unreachable=0    failed=0    skipped=1    rescued=0    ignored=0

INFO     Idempotence completed successfully.
INFO     Running default > verify
TASK [Bash, full on Sunday and diff on the other days, no cron.d file] *********
ok: [debian12] => {"changed": false, "msg": "All assertions passed"}
INFO     Verifier completed successfully.
INFO     Running default > destroy
""")
sh("docker run --rm -v $PWD:/w -w /w geerlingguy/docker-debian12-ansible:latest bash -c 'echo \"x\" | logger -t pgbackrest -p local0.err --stderr 2>&1'", "<131>Jan 21 15:02:13 pgbackrest: x\n", desc="logger tag format")
s.assistant(
    "Done, the final schedule mechanism is `ansible.builtin.cron` in the postgres crontab:\n\n"
    "- `SHELL=/bin/bash` (cron module env entry) because dash has no PIPESTATUS.\n"
    "- `pgbackrest full`: 30 1 * * 0; `pgbackrest diff`: 30 1 * * 1-6. Output goes to syslog with tag `pgbackrest` at local0.info; a failing backup logs `<type> backup failed` at local0.err, which is what Jana can alert on in Loki.\n"
    "- /etc/cron.d/pgbackrest is removed on hosts that still have it; the cron.d and timer templates are gone.\n\n"
    "ansible-lint production passes, Molecule (converge, idempotence, verify) passes without privileged."
)

# ============================================================================================ turn 6
s.user("thanks, this looks good")

# ============================================================================================ turn 7
s.user(
    "Next: the repository on the backup host is going to be encrypted. The cipher passphrase lives in our vault as vault_pgbackrest_cipher_pass (ansible-vault, in inventories/prod/group_vars/db_servers/vault.yml). "
    "It must never end up in plain text anywhere in the role, defaults or logs, could we make sure Ansible doesn't print it either? In Molecule just use a dummy value."
)
s.edit(CONF, "repo1-retention-full={{ pg_backup_retention_full }}\n", "repo1-retention-full={{ pg_backup_retention_full }}\n{% if pg_backup_cipher_pass | default('') | length > 0 %}\nrepo1-cipher-type=aes-256-cbc\nrepo1-cipher-pass={{ pg_backup_cipher_pass }}\n{% endif %}\n")
s.edit(TASKS, """    dest: /etc/pgbackrest/pgbackrest.conf
    owner: postgres
    group: postgres
    mode: "0640"
""", """    dest: /etc/pgbackrest/pgbackrest.conf
    owner: postgres
    group: postgres
    mode: "0640"
  diff: false
  no_log: true
""")
s.edit(DEF, "pg_backup_process_max: 2\n", "pg_backup_process_max: 2\n# set from the vault (vault_pgbackrest_cipher_pass); empty = unencrypted repository\npg_backup_cipher_pass: \"\"\n")
sh("cat inventories/prod/group_vars/db_servers.yml", "---\npg_backup_repo_path: /var/lib/pgbackrest\npg_backup_retention_full: 4\npg_backup_stanza: \"{{ inventory_hostname_short }}\"\n", desc="Group vars")
s.files["inventories/prod/group_vars/db_servers.yml"] = "---\npg_backup_repo_path: /var/lib/pgbackrest\npg_backup_retention_full: 4\npg_backup_stanza: \"{{ inventory_hostname_short }}\"\n"
s.edit("inventories/prod/group_vars/db_servers.yml", "pg_backup_stanza: \"{{ inventory_hostname_short }}\"\n", "pg_backup_stanza: \"{{ inventory_hostname_short }}\"\npg_backup_cipher_pass: \"{{ vault_pgbackrest_cipher_pass }}\"\n")
s.edit(MOL, "        pg_backup_stanza: molecule\n", "        pg_backup_stanza: molecule\n        pg_backup_cipher_pass: molecule-dummy-not-secret\n")
sh("ls inventories/prod/group_vars/", "db_servers.yml\nweb.yml\n", desc="Where is the vault file?")
s.assistant("Note: inventories/prod/group_vars/ has db_servers.yml as a file, not a db_servers/ directory, so a db_servers/vault.yml next to it would not be loaded. Is the vault variable defined somewhere else (another inventory repo, AWX credentials)?")
s.user("Oh, right, it's in the AWX inventory source, not in this repo. Leave the reference to vault_pgbackrest_cipher_pass as you wrote it, AWX injects it.")
molecule("""INFO     Running default > converge
TASK [pg_backup : Configure pgbackrest] ****************************************
changed: [debian12]
TASK [pg_backup : Create stanza] ***********************************************
changed: [debian12]
PLAY RECAP *********************************************************************
debian12                   : ok=18   changed=9    unreachable=0    failed=0    skipped=0    rescued=0    ignored=0
INFO     Idempotence completed successfully.
INFO     Verifier completed successfully.
""")
sh("cd roles/pg_backup && molecule converge -- -v 2>&1 | grep -c 'molecule-dummy-not-secret'; molecule converge -- --diff 2>&1 | grep -A2 'Configure pgbackrest'", "0\nTASK [pg_backup : Configure pgbackrest] ****************************************\nok: [debian12] => {\"censored\": \"the output has been hidden due to the fact that 'no_log: true' was specified for this result\", \"changed\": false}\n", desc="Is the passphrase printed?")
s.assistant("The passphrase never shows up: the template task has `no_log: true` and `diff: false`, so even `-v` and `--diff` print nothing of it (0 hits for the dummy value). Encryption is aes-256-cbc, and only switched on when `pg_backup_cipher_pass` is non-empty; prod group_vars map it to `vault_pgbackrest_cipher_pass`, which AWX injects.")

# ============================================================================================ turn 8
s.user("Could we also get a Molecule scenario for Rocky 9 now? Then the legacy hosts are covered too.")
sh("mkdir -p roles/pg_backup/molecule/rocky9 && cp roles/pg_backup/molecule/default/*.yml roles/pg_backup/molecule/rocky9/ && sed -i 's/debian12/rocky9/; s/docker-debian12-ansible/docker-rockylinux9-ansible/' roles/pg_backup/molecule/rocky9/molecule.yml && cd roles/pg_backup && molecule converge -s rocky9 2>&1 | sed -n '/Fail on hosts/,/RECAP/p'",
   "TASK [pg_backup : Fail on hosts that are not Debian] ***************************\nfatal: [rocky9]: FAILED! => {\"assertion\": \"ansible_facts['os_family'] == 'Debian'\", \"changed\": false, \"evaluated_to\": false, \"msg\": \"pg_backup supports Debian only (rocky9 is Rocky 9)\"}\nPLAY RECAP *********************************************************************\n", code=1, desc="Rocky 9 scenario")
s.assistant(
    "The Rocky scenario runs and stops at the assert, as intended today. Supporting Rocky means a second path: the PGDG yum repository (`ansible.builtin.yum_repository` with the PGDG RPM key), `dnf` instead of apt, pgbackrest from PGDG's EL-9 repo, and the cluster at /var/lib/pgsql/16/data instead of /var/lib/postgresql/16/main. "
    "It's about as much work again as the Debian part. Shall I start, or keep the Rocky scenario for later?"
)
s.user("Let's keep Rocky for next week, they only migrate in Q3 anyway. Remove the rocky9 folder for now so it doesn't confuse CI, and commit the rest.")
sh("rm -rf roles/pg_backup/molecule/rocky9 && git add -A roles/pg_backup inventories/prod/group_vars/db_servers.yml && git commit -qm 'pg_backup: Debian 12 + PG16 (PGDG), cron module schedule with syslog, encrypted repo, molecule without privileged' && git log --oneline -1", "6a2d4f1 pg_backup: Debian 12 + PG16 (PGDG), cron module schedule with syslog, encrypted repo, molecule without privileged\n", desc="Commit")
sh("git show --stat HEAD | tail -4", " roles/pg_backup/templates/pgbackrest.conf.j2       |  6 +++-\n roles/pg_backup/templates/pgbackrest.cron.j2       |  2 -\n inventories/prod/group_vars/db_servers.yml         |  1 +\n 13 files changed, 171 insertions(+), 24 deletions(-)\n", desc="Commit contents")
s.assistant(
    "Committed 6a2d4f1 on pg-backup-bookworm, not pushed. The rocky9 scenario is removed.\n\n"
    "Open: Rocky 9 support for db-legacy-01/02 (yum repo, dnf, /var/lib/pgsql/16/data), planned for next week; the molecule CI job is still `when: manual`."
)
s.user("perfect, thanks a lot!")

s.save(HERE / "session.jsonl")
