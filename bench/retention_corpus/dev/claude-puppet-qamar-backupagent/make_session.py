# ruff: noqa: E501
"""Writes session.jsonl: a Claude Code session written by hand for the heldout7a split.

An Arabic-flavoured English security reviewer, who asks every rule as a question and pastes CI
logs, has Claude harden `qamar_backup`, a Puppet module that installs a backup agent with an API
token: Sensitive token, no diffs, 0600 config, parameter names kept, Puppet 7 and 8. PDK,
rspec-puppet, puppet-lint. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/rana/src/puppet-qamar_backup"
s = ClaudeSession(CWD, "2026-10-19T08:31:00", seed="puppet-qamar-backupagent", branch="sec/token-hardening")

INIT = "manifests/init.pp"
CONF = "manifests/config.pp"
SVC = "manifests/service.pp"
TPL = "templates/agent.conf.epp"
META = "metadata.json"
S_INIT = "spec/classes/qamar_backup_spec.rb"
S_CONF = "spec/classes/config_spec.rb"
HIERA = "data/common.yaml"
FIX = ".fixtures.yml"

s.files.update({
    META: """{
  "name": "qamar-qamar_backup",
  "version": "2.3.1",
  "author": "qamar",
  "summary": "Installs and configures the Qamar backup agent",
  "license": "Apache-2.0",
  "source": "https://git.qamar.example/infra/puppet-qamar_backup",
  "dependencies": [
    { "name": "puppetlabs/stdlib", "version_requirement": ">= 9.0.0 < 10.0.0" }
  ],
  "operatingsystem_support": [
    { "operatingsystem": "Debian", "operatingsystemrelease": ["11", "12"] },
    { "operatingsystem": "RedHat", "operatingsystemrelease": ["8", "9"] }
  ],
  "requirements": [
    { "name": "puppet", "version_requirement": ">= 8.0.0 < 9.0.0" }
  ],
  "pdk-version": "3.3.0",
  "template-url": "https://github.com/puppetlabs/pdk-templates#3.3.0",
  "template-ref": "tags/3.3.0-0-g1d3c7b8"
}
""",
    INIT: """# @summary Installs and configures the Qamar backup agent.
#
# @param api_token   Token the agent uses against the backup API.
# @param api_url     Base URL of the backup API.
# @param package_ensure  Version or 'installed'.
# @param schedule_cron   Cron expression for backups.
class qamar_backup (
  String $api_token,
  Stdlib::HTTPSUrl $api_url = 'https://backup.qamar.example/api/v1',
  String $package_ensure = 'installed',
  String $schedule_cron = '30 2 * * *',
) {
  contain qamar_backup::install
  contain qamar_backup::config
  contain qamar_backup::service

  Class['qamar_backup::install']
  -> Class['qamar_backup::config']
  ~> Class['qamar_backup::service']
}
""",
    CONF: """# @summary Writes /etc/qamar/agent.conf
class qamar_backup::config {
  file { '/etc/qamar':
    ensure => directory,
    owner  => 'root',
    group  => 'root',
    mode   => '0755',
  }

  file { '/etc/qamar/agent.conf':
    ensure  => file,
    owner   => 'root',
    group   => 'qamar',
    mode    => '0644',
    content => epp('qamar_backup/agent.conf.epp', {
      'api_token' => $qamar_backup::api_token,
      'api_url' => $qamar_backup::api_url,
      'schedule_cron' => $qamar_backup::schedule_cron,
    }),
  }

  exec { 'qamar-agent-verify':
    command     => "/usr/bin/qamar-agent verify --token ${qamar_backup::api_token}",
    refreshonly => true,
    subscribe   => File['/etc/qamar/agent.conf'],
    logoutput   => true,
  }
}
""",
    SVC: """# @summary Runs the agent service.
class qamar_backup::service {
  service { 'qamar-agent':
    ensure => running,
    enable => true,
  }
}
""",
    TPL: """<%- | String $api_token, String $api_url, String $schedule_cron | -%>
# Managed by Puppet
api_url = <%= $api_url %>
token = <%= $api_token %>
schedule = <%= $schedule_cron %>
""",
    S_CONF: """# frozen_string_literal: true

require 'spec_helper'

describe 'qamar_backup::config' do
  on_supported_os.each do |os, os_facts|
    context "on #{os}" do
      let(:facts) { os_facts }
      let(:pre_condition) { "class { 'qamar_backup': api_token => 'tok-123' }" }

      it { is_expected.to compile.with_all_deps }
      it { is_expected.to contain_file('/etc/qamar/agent.conf').with_content(/token = tok-123/) }
    end
  end
end
""",
    "manifests/install.pp": """# @summary Installs the agent package.
class qamar_backup::install {
  # ensure_packages avoids duplicate declarations when other modules also want qamar-agent
  stdlib::ensure_packages(['qamar-agent'], { 'ensure' => $qamar_backup::package_ensure })
}
""",
    HIERA: """---
qamar_backup::api_url: 'https://backup.qamar.example/api/v1'
""",
})

# ------------------------------------------------------------------ turn 1
s.user("""Salam. I am reviewing puppet-qamar_backup for the security audit, finding SEC-114: the backup API token is visible in the puppet reports and in the agent logs. I would like your help to fix it in the module. Some questions before we start:

- Shall we not log the token at all, also not in --debug or in the report diff?
- Can we keep /etc/qamar/agent.conf 0600 owned by root? Now it is readable by the group.
- Is it possible that we do not rename any public parameter? Other teams set qamar_backup::api_token in their hiera and we cannot coordinate a rename now.

Please look at the module first and tell me what you see.""", pause=0)
s.bash("ls -a; git log --oneline -6; pdk --version", """.
..
.fixtures.yml
.git
.gitlab-ci.yml
.pdkignore
.rubocop.yml
Gemfile
Rakefile
data
hiera.yaml
manifests
metadata.json
spec
templates
b9e2f70 service: enable on boot
62d1a08 config: schedule from cron param
f04c3b5 install: package_ensure param
1aa7e39 pdk convert to 3.3.0
7c0d52e initial module
3.3.0""", description="Look at the module")
s.reads([INIT, CONF, SVC, TPL])
s.reads([META, S_CONF, HIERA])
s.bash("cat .gitlab-ci.yml | sed -n 1,40p", """stages: [validate, test]

validate:
  stage: validate
  image: puppet/pdk:3.3.0
  script:
    - pdk validate --format=text

unit-puppet8:
  stage: test
  image: puppet/pdk:3.3.0
  script:
    - pdk test unit --puppet-version=8

unit-puppet7:
  stage: test
  image: puppet/pdk:3.3.0
  allow_failure: true
  script:
    - pdk test unit --puppet-version=7""", description="Read CI config")
s.bash("pdk test unit 2>&1 | tail -6", """pdk (INFO): Using Ruby 3.2.5
pdk (INFO): Using Puppet 8.10.0
[✔] Preparing to run the unit tests.
[✔] Running unit tests in parallel.
  Run options: exclude {:bolt=>true}
  Evaluated 8 tests in 4.215 seconds: 0 failures, 0 pending.""", description="Baseline unit tests")
s.assistant("""What I see — the token leaks in three places:

1. **Report diff**: `/etc/qamar/agent.conf` has the token in plain text and `show_diff` is not disabled, so every token change writes a diff (with old and new token) to the report and to `puppet agent --debug` output.
2. **Exec**: `exec { 'qamar-agent-verify': command => "... --token ${api_token}", logoutput => true }` — the whole command line, token included, is logged on every refresh ("Exec[qamar-agent-verify]/returns: executed successfully" plus the command in debug), and it's visible in `ps` while running.
3. **Type**: `$api_token` is a plain `String`, so it's also in the catalog in clear text (PuppetDB, catalog cache).

Plus the mode: agent.conf is `0644` owner root group `qamar` — world readable, not only group.

Other observations: metadata says Puppet `>= 8.0.0 < 9.0.0`, CI has an `unit-puppet7` job with `allow_failure: true`. Baseline: `pdk test unit` 8 examples, 0 failures (Puppet 8.10.0, Ruby 3.2.5). pdk 3.3.0.

Plan: make the parameter `Variant[String, Sensitive[String]]` (keeps the name `api_token` and accepts existing hiera strings), wrap it in `Sensitive` internally, `unwrap` only inside the EPP call, `show_diff => false` on the file, mode `0600` owner root, and replace the token-on-command-line exec. Is the exec needed at all — what does `qamar-agent verify` do?""")

# ------------------------------------------------------------------ turn 2
s.user("""The verify only checks that the token works, the service does the same at start and fails loudly. So shall we remove the exec completely? I prefer less exec in our modules in general, can we avoid exec resources when possible?

Also the hiera in other teams is encrypted with eyaml, they have lookup_options convert_to Sensitive in some places and not in others. Both must work.""")
s.edit(INIT, """# @param api_token   Token the agent uses against the backup API.""", """# @param api_token   Token the agent uses against the backup API. Accepts a plain String
#   (wrapped internally) or a Sensitive[String] (e.g. from lookup_options convert_to).""")
s.edit(INIT, """class qamar_backup (
  String $api_token,""", """class qamar_backup (
  Variant[String[1], Sensitive[String[1]]] $api_token,""")
s.edit(INIT, """) {
  contain qamar_backup::install""", """) {
  # SEC-114: never let the token reach logs, reports or diffs as clear text.
  $token = $api_token ? {
    Sensitive => $api_token,
    default   => Sensitive($api_token),
  }

  contain qamar_backup::install""")
s.write(CONF, """# @summary Writes /etc/qamar/agent.conf
class qamar_backup::config {
  file { '/etc/qamar':
    ensure => directory,
    owner  => 'root',
    group  => 'root',
    mode   => '0755',
  }

  file { '/etc/qamar/agent.conf':
    ensure    => file,
    owner     => 'root',
    group     => 'root',
    mode      => '0600',
    show_diff => false,
    content   => Sensitive(epp('qamar_backup/agent.conf.epp', {
      'api_token' => $qamar_backup::token.unwrap,
      'api_url' => $qamar_backup::api_url,
      'schedule_cron' => $qamar_backup::schedule_cron,
    })),
  }
}
""")
s.edit(S_CONF, """      it { is_expected.to contain_file('/etc/qamar/agent.conf').with_content(/token = tok-123/) }""", """      it { is_expected.to contain_file('/etc/qamar/agent.conf').with_content(sensitive(/token = tok-123/)) }

      it do
        is_expected.to contain_file('/etc/qamar/agent.conf').with(
          owner: 'root', group: 'root', mode: '0600', show_diff: false,
        )
      end

      it { is_expected.not_to contain_exec('qamar-agent-verify') }

      context 'with a Sensitive token from hiera' do
        let(:pre_condition) { "class { 'qamar_backup': api_token => Sensitive('tok-456') }" }

        it { is_expected.to contain_file('/etc/qamar/agent.conf').with_content(sensitive(/token = tok-456/)) }
      end""")
s.bash("pdk test unit --tests=spec/classes/config_spec.rb 2>&1 | tail -22", """pdk (INFO): Using Ruby 3.2.5
pdk (INFO): Using Puppet 8.10.0
[✔] Preparing to run the unit tests.
[✖] Running unit tests.
  Evaluated 20 tests in 3.902 seconds: 4 failures, 0 pending.
failed: rspec: ./spec/classes/config_spec.rb:13: expected that the catalogue would contain File[/etc/qamar/agent.conf] with content supplied string "(?-mix:token = tok-123)" but it is set to Sensitive [value redacted]
  qamar_backup::config on debian-12-x86_64 is expected to contain File[/etc/qamar/agent.conf] with content supplied string "(?-mix:token = tok-123)"
  Failure/Error: is_expected.to contain_file('/etc/qamar/agent.conf').with_content(sensitive(/token = tok-123/))

failed: rspec: ./spec/classes/config_spec.rb:13: (same on debian-11, redhat-8, redhat-9)""", code=1, description="Run config spec")
s.assistant("""The content assertion fails: rspec-puppet's `sensitive()` helper wraps the *expected* value as `Sensitive`, but it compares exact values, not a regex — a `Sensitive(/regex/)` never equals `Sensitive("...file text...")`. The other assertions (mode, owner, show_diff, no exec, Sensitive input) pass. I'll match the unwrapped content with a block instead.""")
s.edit(S_CONF, """      it { is_expected.to contain_file('/etc/qamar/agent.conf').with_content(sensitive(/token = tok-123/)) }
""", """      it 'writes the token, wrapped as Sensitive' do
        content = catalogue.resource('File', '/etc/qamar/agent.conf')[:content]
        expect(content).to be_a(Puppet::Pops::Types::PSensitiveType::Sensitive)
        expect(content.unwrap).to match(%r{^token = tok-123$})
      end
""")
s.edit(S_CONF, """        it { is_expected.to contain_file('/etc/qamar/agent.conf').with_content(sensitive(/token = tok-456/)) }""", """        it 'unwraps the hiera Sensitive into the file' do
          content = catalogue.resource('File', '/etc/qamar/agent.conf')[:content]
          expect(content.unwrap).to match(%r{^token = tok-456$})
        end""")
s.bash("pdk test unit --tests=spec/classes/config_spec.rb 2>&1 | tail -3", """[✔] Running unit tests.
  Evaluated 20 tests in 3.811 seconds: 0 failures, 0 pending.""", description="Run config spec")
s.bash("pdk test unit 2>&1 | tail -3", """[✔] Running unit tests.
  Evaluated 28 tests in 5.104 seconds: 0 failures, 0 pending.""", description="All unit tests")

# ------------------------------------------------------------------ turn 3
s.user("""Good. I pushed your working tree as a WIP commit to a CI branch ci/sec-114 to test (I have the rights). The validate job is red, here is the log:

```
$ pdk validate --format=text
pdk (INFO): Using Ruby 3.2.5
pdk (INFO): Using Puppet 8.10.0
[✔] Checking metadata syntax (metadata.json tasks/*.json).
[✔] Checking module metadata style (metadata.json).
[✖] Checking Puppet manifest style (**/*.pp).
warning: puppet-lint: manifests/config.pp:17:10: indentation of => is not properly aligned (expected in column 21, but found it in column 19)
warning: puppet-lint: manifests/config.pp:18:14: indentation of => is not properly aligned (expected in column 21, but found it in column 25)
warning: puppet-lint: manifests/init.pp:22:3: case statement without a default case... no: manifests/init.pp:22:14: selector inside resource block
[✔] Checking Ruby code style (**/**.rb).
ERROR: Job failed: exit code 1
```

Why did pdk validate not fail on your side? Shall we always run pdk validate before we push?""")
s.bash("pdk validate --format=text 2>&1 | tail -8", """pdk (INFO): Using Ruby 3.2.5
pdk (INFO): Using Puppet 8.10.0
[✔] Checking metadata syntax (metadata.json tasks/*.json).
[✔] Checking module metadata style (metadata.json).
[✖] Checking Puppet manifest style (**/*.pp).
warning: puppet-lint: manifests/config.pp:17:10: indentation of => is not properly aligned (expected in column 21, but found it in column 19)
warning: puppet-lint: manifests/config.pp:18:14: indentation of => is not properly aligned (expected in column 21, but found it in column 25)
[✔] Checking Ruby code style (**/**.rb).""", code=1, description="Run pdk validate locally")
s.assistant("""It does fail here too — I hadn't run `pdk validate`, only `pdk test unit`. That's my miss; from now on I run both before saying something is done.

Two real findings: arrow alignment in the EPP hash inside `config.pp` (lines 17–18). The third line in your CI log (a selector warning in init.pp) doesn't appear locally — CI may be on a different puppet-lint plugin set; I'll check after fixing the alignment.""")
s.edit(CONF, """      'api_token' => $qamar_backup::token.unwrap,
      'api_url' => $qamar_backup::api_url,
      'schedule_cron' => $qamar_backup::schedule_cron,""", """      'api_token'     => $qamar_backup::token.unwrap,
      'api_url'       => $qamar_backup::api_url,
      'schedule_cron' => $qamar_backup::schedule_cron,""")
s.bash("pdk validate --format=text 2>&1 | tail -4; pdk bundle exec puppet-lint --version; pdk bundle exec gem list 2>/dev/null | grep puppet-lint", """[✔] Checking metadata syntax (metadata.json tasks/*.json).
[✔] Checking module metadata style (metadata.json).
[✔] Checking Puppet manifest style (**/*.pp).
[✔] Checking Ruby code style (**/**.rb).
puppet-lint 4.2.4
puppet-lint 4.2.4
puppet-lint-param-docs 2.0.0
puppet-lint-manifest_whitespace-check 0.3.0""", description="Validate and list lint plugins")
s.bash("git log -1 --format=%H origin/ci/sec-114; grep -n 'puppet-lint' Gemfile", """4e1f0c92a7b35d6e8a1c0f9b2d4e6a8c0b1d3f5e
17:  gem "puppet-lint-param-docs", '~> 2.0', require: false
18:  gem "puppet-lint-manifest_whitespace-check", '~> 0.3', require: false""", description="Check pushed commit and Gemfile")
s.assistant("""Locally `pdk validate` is clean now (puppet-lint 4.2.4 with param-docs and manifest_whitespace plugins). I can't reproduce the init.pp selector warning: no plugin here emits it, and your log line looks like it was cut/merged ("case statement without a default case... no: ... selector inside resource block"). The selector in init.pp is at class level, not inside a resource, so if CI reports it again please paste the raw line and I'll look.

On your question: yes — `pdk validate` and `pdk test unit` both, before every push.""")

# ------------------------------------------------------------------ turn 4
s.user("""OK the validate is green now in CI. Next, the puppet7 job, it is allow_failure but it is red and I want it green, because 40% of our fleet is still on Puppet 7.8. Can we support Puppet 7 also? Log:

```
$ pdk test unit --puppet-version=7
pdk (INFO): Using Ruby 2.7.8
pdk (INFO): Using Puppet 7.34.0
[✖] Running unit tests.
  Evaluated 28 tests in 6.3 seconds: 28 failures, 0 pending.
failed: rspec: ./spec/classes/config_spec.rb:11: error during compilation: Evaluation Error: Error while evaluating a Resource Statement, Unknown resource type: 'stdlib::ensure_packages' ... 
  Could not find class ::stdlib
failed: rspec: ./spec/classes/qamar_backup_spec.rb:8: error during compilation: Could not autoload puppet/functions/stdlib/to_json_pretty: stdlib 9.6.0 requires Puppet >= 8.0.0
```

Shall we also not remove the allow_failure, until it is green for one week?""")
s.bash("cat .fixtures.yml; grep -rn 'stdlib::' manifests/", """fixtures:
  forge_modules:
    stdlib:
      repo: puppetlabs/stdlib
      ref: 9.6.0
manifests/install.pp:4:  stdlib::ensure_packages(['qamar-agent'], { 'ensure' => $qamar_backup::package_ensure })""", description="Fixtures and stdlib usage")
s.bash("PUPPET_GEM_VERSION='~> 7.0' pdk test unit --puppet-version=7 2>&1 | grep -m3 -E 'Evaluated|Error|requires'", """  Evaluated 28 tests in 6.122 seconds: 28 failures, 0 pending.
failed: rspec: ./spec/classes/config_spec.rb:11: error during compilation: Evaluation Error: Unknown function: 'stdlib::ensure_packages'
failed: rspec: ./spec/classes/qamar_backup_spec.rb:8: Could not autoload puppet/functions/stdlib/to_json_pretty: stdlib 9.6.0 requires Puppet >= 8.0.0""", code=1, description="Reproduce Puppet 7 failure")
s.assistant("""Reproduced. The fixture pins puppetlabs/stdlib 9.6.0, and stdlib 9.x refuses to load on Puppet 7 in this spec setup ("stdlib 9.6.0 requires Puppet >= 8.0.0"). Our manifests only use `stdlib::ensure_packages` (namespaced; exists since stdlib 9.0) and the `Stdlib::HTTPSUrl` type (exists in 8.x too).

Options:
- A: stdlib range `>= 8.6.0 < 10.0.0` in metadata, fixtures pinned to 8.6.0 for the Puppet 7 job, and use the core `ensure_packages` spelling that both 8.6 and 9.x accept? In 9.x the non-namespaced `ensure_packages` is deprecated but still present.
- B: drop `ensure_packages` and use a plain `package` resource — it's one package, no duplicate-declaration problem in this module.

I'd take B: smallest, no deprecated function, no second fixture set. Then metadata `requirements` puppet `>= 7.0.0 < 9.0.0` and stdlib `>= 8.6.0 < 10.0.0`, and the Puppet 7 CI job pins stdlib 8.6.0 via a second fixtures file.""")
s.user("""B is good. But a second fixtures file, is it really needed? Can we use one .fixtures.yml with stdlib 8.6.0 for both, if the module works with it on puppet 8 also? Less moving parts.
And yes I asked about allow_failure: shall we keep it one more week?""")
s.read("manifests/install.pp")
s.write("manifests/install.pp", """# @summary Installs the agent package.
class qamar_backup::install {
  package { 'qamar-agent':
    ensure => $qamar_backup::package_ensure,
  }
}
""")
s.bash("grep -rln \"qamar-agent\" ../puppet-control/site ../puppet-control/Puppetfile 2>/dev/null | head", """../puppet-control/site/profile/manifests/backup.pp""", description="Who else declares the package")
s.bash("grep -n 'qamar' ../puppet-control/site/profile/manifests/backup.pp", """3:  class { 'qamar_backup':
4:    api_token => lookup('profile::backup::qamar_token'),""", description="Check the control repo usage")
s.assistant("No other module declares `Package['qamar-agent']` in the control repo (only `class { 'qamar_backup': ... }` in profile::backup), so a plain `package` resource is safe. Now one fixtures file with stdlib 8.6.0 and the metadata ranges.")
s.write(FIX, """fixtures:
  forge_modules:
    stdlib:
      repo: puppetlabs/stdlib
      ref: 8.6.0
""")
s.edit(META, """    { "name": "puppetlabs/stdlib", "version_requirement": ">= 9.0.0 < 10.0.0" }""", """    { "name": "puppetlabs/stdlib", "version_requirement": ">= 8.6.0 < 10.0.0" }""")
s.edit(META, """    { "name": "puppet", "version_requirement": ">= 8.0.0 < 9.0.0" }""", """    { "name": "puppet", "version_requirement": ">= 7.0.0 < 9.0.0" }""")
s.bash("rm -rf spec/fixtures/modules && pdk test unit --puppet-version=7 2>&1 | tail -2; pdk test unit --puppet-version=8 2>&1 | tail -2", """[✔] Running unit tests.
  Evaluated 28 tests in 6.480 seconds: 0 failures, 0 pending.
[✔] Running unit tests.
  Evaluated 28 tests in 5.233 seconds: 0 failures, 0 pending.""", description="Unit tests on Puppet 7 and 8")
s.bash("pdk validate --format=text 2>&1 | tail -4", """[✔] Checking metadata syntax (metadata.json tasks/*.json).
[✔] Checking module metadata style (metadata.json).
[✔] Checking Puppet manifest style (**/*.pp).
[✔] Checking Ruby code style (**/**.rb).""", description="Validate")
s.assistant("""One `.fixtures.yml` (stdlib 8.6.0) works for both: 28/28 on Puppet 7.34.0 and on 8.10.0, `pdk validate` clean. metadata: puppet `>= 7.0.0 < 9.0.0`, stdlib `>= 8.6.0 < 10.0.0`.

allow_failure: yes, I left `.gitlab-ci.yml` untouched — `unit-puppet7` keeps `allow_failure: true` for now, to be removed after one green week as you said.""")

# ------------------------------------------------------------------ turn 5
s.user("""Now the CI after I pushed the new working tree to ci/sec-114:

```
unit-puppet8: Evaluated 28 tests in 5.9 seconds: 0 failures, 0 pending.  Job succeeded
unit-puppet7: Evaluated 28 tests in 7.1 seconds: 0 failures, 0 pending.  Job succeeded
validate: Job succeeded
```

One more: shall we not print the token also when the agent itself logs? I saw in the template there is no log_level. The agent logs its config at level debug. Can we set log_level = info always, and not a parameter, so nobody can switch it to debug by hiera?""")
s.edit(TPL, """schedule = <%= $schedule_cron %>
""", """schedule = <%= $schedule_cron %>
# SEC-114: fixed, not a parameter; the agent dumps its config (token included) at debug.
log_level = info
""")
s.edit(S_CONF, """        expect(content.unwrap).to match(%r{^token = tok-123$})""", """        expect(content.unwrap).to match(%r{^token = tok-123$})
        expect(content.unwrap).to match(%r{^log_level = info$})""")
s.bash("pdk validate --format=text 2>&1 | grep -c '✖'; pdk test unit --puppet-version=8 2>&1 | tail -1; pdk test unit --puppet-version=7 2>&1 | tail -1", """0
  Evaluated 28 tests in 5.188 seconds: 0 failures, 0 pending.
  Evaluated 28 tests in 6.402 seconds: 0 failures, 0 pending.""", description="Validate and test both Puppet versions")
s.bash("puppet strings generate --format markdown --out REFERENCE.md 2>&1 | tail -2 || pdk bundle exec puppet strings generate --format markdown --out REFERENCE.md 2>&1 | tail -2", """[warn]: @param tag has unknown parameter name: api_token
    in file `manifests/init.pp' near line 11""", description="Regenerate REFERENCE.md")
s.read(INIT)
s.assistant("""puppet-strings warns `@param tag has unknown parameter name: api_token` — because my doc comment for `api_token` now spans two lines and the second line starts with `#   (wrapped ...` which strings reads as the end of the tag? No: strings reads the *type* change fine; the warning is about the blank `# @param api_token` spacing (three spaces after the name). I'll normalise the @param lines to one space.""")
s.edit(INIT, """# @param api_token   Token the agent uses against the backup API. Accepts a plain String""", """# @param api_token Token the agent uses against the backup API. Accepts a plain String""")
s.bash("pdk bundle exec puppet strings generate --format markdown --out REFERENCE.md 2>&1 | tail -2; git diff --stat", """Files:            4
Classes:          4 (    0 undocumented)
 .fixtures.yml                 |  2 +-
 REFERENCE.md                  | 31 +++++++++++++++++------
 manifests/config.pp           | 24 +++++++-----------
 manifests/init.pp             | 11 ++++++++-
 manifests/install.pp          |  5 ++--
 metadata.json                 |  4 ++--
 spec/classes/config_spec.rb   | 27 +++++++++++++++++++--
 templates/agent.conf.epp      |  2 ++
 8 files changed, 80 insertions(+), 26 deletions(-)""", description="Regenerate REFERENCE.md, diff stat")
s.assistant("""Done:
- `templates/agent.conf.epp`: `log_level = info` hard-coded (not a parameter), comment references SEC-114; spec asserts it.
- REFERENCE.md regenerated (puppet-strings, 4 classes, 0 undocumented).
- `pdk validate` clean, 28/28 on Puppet 7 and 8.

Commit on sec/token-hardening? I'd bump metadata version to 3.0.0: the file mode/group change and dropping the exec are behaviour changes, and the Puppet 7 support widens requirements.""")
s.user("""Is 3.0.0 really necessary? The parameters did not change, hiera of other teams keeps working. I think 2.4.0 is better, shall we add the behaviour change in CHANGELOG instead?""")
s.edit(META, """  "version": "2.3.1",""", """  "version": "2.4.0",""")
s.write("CHANGELOG.md", """# Changelog

## 2.4.0

Security (SEC-114):
- `api_token` is handled as `Sensitive` internally; accepts `String` or `Sensitive[String]` (hiera with or without `convert_to: Sensitive`). Parameter name unchanged.
- `/etc/qamar/agent.conf` is now `0600 root:root` (was `0644 root:qamar`) and written with `show_diff => false`.
- Removed `Exec['qamar-agent-verify']` (it put the token on the command line and in logs); the service verifies the token at start.
- Agent `log_level = info` is fixed in the config file.

Compatibility:
- Puppet 7 supported again (`>= 7.0.0 < 9.0.0`); stdlib `>= 8.6.0 < 10.0.0`.
- The agent package is a plain `package` resource (was `stdlib::ensure_packages`).
""")
s.bash("pdk validate --format=text 2>&1 | grep -c '✖'; git add -A && git commit -qm 'SEC-114: keep the backup token Sensitive, 0600 config, no verify exec; Puppet 7 support' && git log --oneline -2", """0
d3a81f6 SEC-114: keep the backup token Sensitive, 0600 config, no verify exec; Puppet 7 support
b9e2f70 service: enable on boot""", description="Validate and commit")
s.assistant("Committed d3a81f6 on sec/token-hardening: version 2.4.0, CHANGELOG.md with the SEC-114 behaviour changes. Not pushed (you push for CI).")
s.user("Thank you, I will push and close SEC-114 after the one week of green puppet7, then remove allow_failure myself.")

s.save(HERE / "session.jsonl")
print("calls:", s.calls)
