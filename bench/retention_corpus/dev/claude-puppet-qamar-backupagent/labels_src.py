# ruff: noqa: E501
"""Labels for claude-puppet-qamar-backupagent, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "puppet-qamar_backup (Puppet module, security finding SEC-114): Sensitive API token, 0600 config without diffs, verify exec removed, Puppet 7 support, log_level fixed, 2.4.0",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7a test split",
    "voice": "Arabic-flavoured English security reviewer; every rule asked as a question (\"shall we not log the token?\"), pastes CI logs",
    "toolchain": "PDK 3.3.0 (pdk validate, pdk test unit --puppet-version=7/8), rspec-puppet, puppet-lint 4.2.4, puppet-strings, GitLab CI, puppetlabs/stdlib",
}
COMPACTIONS = [
    ("Evaluated 28 tests in 5.104 seconds", 1200),
    ("Locally `pdk validate` is clean now", 1200),
    ("One `.fixtures.yml` (stdlib 8.6.0) works for both", 1200),
]
FACTS = [
    f("e01", "request", "must", "finding SEC-114", "Security finding SEC-114: the backup API token is visible in Puppet reports and agent logs; fix it in the module.", [r"SEC-114", r"token"], "done"),
    f("e02", "constraint", "must", "Shall we not log the token at all", "The token must never be logged: not in --debug, not in the report diff.", [r"token", r"log|debug|diff|report"]),
    f("e03", "constraint", "must", "Can we keep /etc/qamar/agent.conf 0600 owned by root", "/etc/qamar/agent.conf must be 0600 owned by root (was group-readable).", [r"0600", r"agent\.conf|root|config"]),
    f("e04", "constraint", "must", "do not rename any public parameter", "No public parameter may be renamed: other teams set qamar_backup::api_token in hiera.", [r"rename|parameter|api_token", r"\bnot?\b|keep|hiera|unchanged"]),
    f("e05", "finding", "must", "the token leaks in three places", "Leaks: the agent.conf diff (no show_diff => false), Exec['qamar-agent-verify'] with --token on the command line and logoutput, and a plain String parameter in the catalog; agent.conf was 0644 root:qamar (world-readable).", [r"show_diff|diff|exec|catalog", r"token|leak"]),
    f("e06", "value", "nice", "Evaluated 8 tests in 4.215 seconds", "Baseline: pdk 3.3.0, Puppet 8.10.0, Ruby 3.2.5, 8 unit tests passing.", [r"8\.10\.0|3\.2\.5|8 tests"]),
    f("e07", "finding", "should", "unit-puppet7:\n  stage: test", "GitLab CI: validate, unit-puppet8, unit-puppet7 (allow_failure: true); metadata required Puppet >= 8 < 9.", [r"unit-puppet7|puppet7|allow_failure", r"allow_failure|true|\b7\b"]),
    f("e08", "decision", "must", "So shall we remove the exec completely?", "Exec['qamar-agent-verify'] removed entirely: the service verifies the token at start and fails loudly.", [r"exec|verify", r"remov|drop|delet"]),
    f("e09", "constraint", "should", "can we avoid exec resources when possible", "Avoid exec resources in modules wherever possible.", [r"exec", r"avoid|less"]),
    f("e10", "constraint", "must", "they have lookup_options convert_to Sensitive", "Both hiera forms must work: plain (eyaml) strings and values converted with lookup_options convert_to Sensitive.", [r"convert_to|Sensitive|eyaml", r"both|string|work"]),
    f("e11", "decision", "must", "make the parameter `Variant[String, Sensitive[String]]`", "api_token typed Variant[String[1], Sensitive[String[1]]] (same name), wrapped as Sensitive in $qamar_backup::token, unwrapped only inside the epp() call; file content Sensitive(epp(...)), show_diff => false, 0600 root:root.", [r"Variant|Sensitive", r"api_token|unwrap|parameter|show_diff"]),
    f("e12", "path", "should", "manifests/config.pp\", \"content\"", "manifests/config.pp rewritten: agent.conf 0600 root:root, show_diff false, Sensitive content; verify exec gone. init.pp: Variant type and $token wrapper.", [r"config\.pp", r"0600|show_diff|Sensitive|exec"]),
    f("e13", "error", "should", "but it is set to Sensitive [value redacted]", "rspec-puppet: with_content(sensitive(/regex/)) failed ('it is set to Sensitive [value redacted]'): sensitive() compares exact values, not regexes.", [r"Sensitive|redacted", r"content|regex|with_content"], "fixed"),
    f("e14", "fix", "should", "\"new_string\": \"      it 'writes the token, wrapped as Sensitive", "spec/classes/config_spec.rb reads catalogue.resource('File', ...)[:content], checks it is Sensitive and its unwrap matches; also checks mode/owner/show_diff, no verify exec, Sensitive hiera input.", [r"unwrap|Sensitive", r"spec|test|token|content"]),
    f("e15", "command", "must", "Evaluated 28 tests in 5.188 seconds", "pdk test unit --puppet-version=8 and --puppet-version=7: 28 tests, 0 failures each.", [r"\b28\b", r"failures|tests"]),
    f("e16", "error", "must", "Why did pdk validate not fail on your side?", "CI validate red: puppet-lint arrow alignment in manifests/config.pp:17-18 (expected column 21); fixed by aligning the epp hash arrows.", [r"arrow|aligned|puppet-lint|alignment", r"config\.pp|\b17\b|\b21\b"], "fixed"),
    f("e17", "constraint", "must", "Shall we always run pdk validate before we push?", "Always run pdk validate (and pdk test unit) before pushing or calling something done.", [r"pdk validate|validate", r"push|before|always"]),
    f("e18", "finding", "should", "I can't reproduce the init.pp selector warning", "The pasted init.pp 'selector inside resource block' warning could not be reproduced (line looked cut/merged; puppet-lint 4.2.4 with param-docs 2.0.0 and manifest_whitespace-check 0.3.0); user to paste the raw line if it recurs.", [r"selector|init\.pp", r"reproduc|cut|merged|paste"]),
    f("e19", "command", "should", "\"description\": \"Validate\"}", "pdk validate --format=text is clean.", [r"pdk validate|validate"]),
    f("e20", "state", "should", "WIP commit to a CI branch ci/sec-114", "The user pushes the working tree to CI branch ci/sec-114 to run CI (he has the rights).", [r"ci/sec-114"]),
    f("e21", "request", "must", "40% of our fleet is still on Puppet 7.8", "Support Puppet 7 again and make unit-puppet7 green (40% of the fleet is on Puppet 7.8).", [r"Puppet 7|puppet7|puppet-version=7|7\.8", r"support|green|fleet|40"], "done"),
    f("e22", "constraint", "must", "Shall we also not remove the allow_failure", "Keep allow_failure on unit-puppet7 until it has been green for one week.", [r"allow_failure", r"week|keep|not remove"]),
    f("e23", "error", "should", "Unknown function: 'stdlib::ensure_packages'", "Puppet 7 unit run: 28 failures, stdlib 9.6.0 requires Puppet >= 8.0.0; Unknown function 'stdlib::ensure_packages'.", [r"stdlib", r"9\.6\.0|Puppet >= 8|ensure_packages"], "fixed"),
    f("e24", "decision", "must", "I'd take B: smallest", "Option B: a plain package resource instead of stdlib::ensure_packages (smallest, no deprecated function); safe because the control repo declares the package nowhere else.", [r"package|ensure_packages", r"plain|resource|\bB\b"]),
    f("e25", "decision", "should", "via a second fixtures file", "A second fixtures file pinning stdlib 8.6.0 for the Puppet 7 job: rejected by the user (less moving parts).", [r"second fixtures|fixtures file|second"], "reversed"),
    f("e26", "decision", "must", "One `.fixtures.yml` (stdlib 8.6.0) works for both", "One .fixtures.yml with stdlib 8.6.0 for Puppet 7 and 8; metadata requirements puppet >= 7.0.0 < 9.0.0, stdlib >= 8.6.0 < 10.0.0.", [r"8\.6\.0|>= 7\.0\.0", r"stdlib|fixtures|puppet"]),
    f("e27", "finding", "nice", "api_token => lookup('profile::backup::qamar_token')", "Control repo: only profile::backup declares class qamar_backup, with api_token => lookup('profile::backup::qamar_token').", [r"profile::backup|qamar_token"]),
    f("e28", "path", "should", "manifests/install.pp\", \"content\"", "manifests/install.pp: plain package { 'qamar-agent': ensure => $qamar_backup::package_ensure }.", [r"install\.pp|qamar-agent", r"package"]),
    f("e29", "state", "should", "unit-puppet7: Evaluated 28 tests in 7.1 seconds", "CI on ci/sec-114: unit-puppet8, unit-puppet7 and validate all succeeded.", [r"unit-puppet7|puppet7|validate", r"succeeded|green|0 failures"]),
    f("e30", "constraint", "must", "Can we set log_level = info always, and not a parameter", "Agent log_level = info always, not a parameter, so nobody can switch it to debug via hiera (the agent logs its config at debug).", [r"log_level|info", r"parameter|always|fixed|debug|hiera"]),
    f("e31", "path", "should", "\"new_string\": \"schedule = <%= $schedule_cron", "templates/agent.conf.epp: hard-coded 'log_level = info' with a SEC-114 comment; spec asserts it.", [r"log_level", r"info"]),
    f("e32", "error", "nice", "in file `manifests/init.pp' near line 11", "puppet-strings warned '@param tag has unknown parameter name: api_token'; fixed by one space after the name in the @param line.", [r"@param|unknown parameter|strings", r"api_token"], "fixed"),
    f("e33", "command", "should", "Classes:          4 (    0 undocumented)", "pdk bundle exec puppet strings generate --format markdown --out REFERENCE.md: 4 classes, 0 undocumented; REFERENCE.md regenerated.", [r"undocumented|REFERENCE|strings|Classes"]),
    f("e34", "decision", "must", "Is 3.0.0 really necessary?", "Version 2.4.0, not 3.0.0: parameters unchanged and hiera keeps working; behaviour changes go in CHANGELOG.md.", [r"2\.4\.0|3\.0\.0", r"version|CHANGELOG|necessary"]),
    f("e35", "decision", "should", "I'd bump metadata version to 3.0.0", "Assistant's proposal of a 3.0.0 major bump, replaced by 2.4.0.", [r"3\.0\.0"], "reversed"),
    f("e36", "path", "should", "CHANGELOG.md\", \"content\"", "New CHANGELOG.md 2.4.0 section: Sensitive token, 0600 root:root with show_diff false, verify exec removed, log_level info, Puppet 7 and stdlib ranges, plain package resource.", [r"CHANGELOG", r"2\.4\.0|SEC-114"]),
    f("e37", "state", "must", "d3a81f6 SEC-114", "Committed d3a81f6 on sec/token-hardening (version 2.4.0), not pushed.", [r"d3a81f6"]),
    f("e38", "state", "should", "I will push and close SEC-114", "The user pushes, closes SEC-114 after one green week of unit-puppet7, then removes allow_failure himself.", [r"allow_failure|close|SEC-114", r"week|push|myself|himself|user"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
