# ruff: noqa: E501
"""Labels for pi-pulumi-ledgerbox, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "ledgerbox-infra (Pulumi Python, fintech reconciliation): exports bucket from AES256 to SSE-KMS with a customer-managed key; dev and staging applied, prod previewed only after a near bucket replace",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6b test split",
    "voice": "polite, every rule phrased as a question (\"shouldn't we…?\", \"could we avoid…?\"), changes the key deletion window after security weighs in",
    "toolchain": "Pulumi 3.137 (Python 3.11, pulumi_aws 6.56), CrossGuard policy pack, pyright, aws CLI (s3api, kms, lambda invoke, logs tail, transfer)",
}
COMPACTIONS = [
    ("dev is on SSE-KMS:", 1200),
    ("Staging done:", 1200),
]
FACTS = [
    f("l01", "request", "must", "move from AES256 to SSE-KMS with our own customer-managed key", "Compliance: the reconciliation exports bucket moves from AES256 to SSE-KMS with a customer-managed key, key rotation on.", [r"SSE-KMS|aws:kms|KMS", r"bucket|exports|AES256|rotation"], "done"),
    f("l02", "constraint", "must", "shouldn't the bucket name stay exactly the same", "The bucket name must not change: the bank's SFTP connector writes to it and renaming needs a ticket at the bank.", [r"bucket( name)?|name", r"same|unchanged|keep|stay|bank|rename"]),
    f("l03", "constraint", "must", "don't run pulumi up on prod at all today, only preview", "No pulumi up on prod (preview only); dev and staging may be updated.", [r"prod", r"preview|not|no|never"]),
    f("l04", "constraint", "should", "can we avoid adding new pip dependencies", "No new pip dependencies.", [r"dependenc|\bpip\b|requirements", r"\bno\b|avoid|without|new"]),
    f("l05", "constraint", "should", "should we keep everything compatible with 3.11", "Everything stays Python 3.11 compatible (the Lambda runtime is python3.11).", [r"3\.11"]),
    f("l06", "finding", "must", "How it is set up (nothing changed yet):", "Bucket naming: config ledgerbox:bucketName or ledgerbox-recon-exports-<stack>; only prod sets bucketName, to the legacy ledgerbox-recon-exports (commit 3e81c4d).", [r"bucketName|legacy|3e81c4d", r"prod|bucket"]),
    f("l07", "finding", "should", "Pulumi.staging.yaml has **no `ledgerbox:sftpRoleArn`**", "Pulumi.staging.yaml had no ledgerbox:sftpRoleArn (dev and prod have one).", [r"sftpRoleArn", r"staging"]),
    f("l08", "value", "nice", "v3.137.0\nUser: sanne-ledgerbox", "Pulumi 3.137.0 on Pulumi Cloud org ledgerbox, Python 3.11.9 venv, pulumi_aws 6.56.1, pulumi_policy 1.13.0.", [r"3\.137|6\.56\.1|3\.11\.9"]),
    f("l09", "value", "nice", "lifecycle expiring after 2555 days (7 years)", "Lifecycle: objects expire after 2555 days (7 years, bookkeeping law), noncurrent versions after 30 days; versioning on.", [r"2555|7 years|seven years", r"expir|retention|lifecycle"]),
    f("l10", "finding", "nice", "A CrossGuard pack in policy/ (`ledgerbox-policies`", "policy/ holds the CrossGuard pack ledgerbox-policies (mandatory): KMS key policies must not use a wildcard principal.", [r"ledgerbox-policies|CrossGuard|policy pack", r"wildcard|mandatory|KMS"]),
    f("l11", "decision", "should", "should we use 7 days, so we can clean up dev keys quickly", "First: KMS key deletion window of 7 days (to clean up dev keys quickly); replaced by 30 days.", [r"\b7\b|seven", r"deletion|window"], "reversed"),
    f("l12", "decision", "should", "could the alias be alias/ledgerbox-recon-exports-<stack>", "Alias alias/ledgerbox-recon-exports-<stack> on every stack, with the suffix also on prod (even though prod's bucket has none).", [r"alias", r"suffix|<stack>|-prod|stack"], "done"),
    f("l13", "path", "should", "new `ledgerbox/kms.py`: `aws.kms.Key` recon-exports-key", "New ledgerbox/kms.py: exports_key(stack, sftp_role_arn) creates recon-exports-key (rotation on) + alias, key policy for the account root and the SFTP connector role (kms:GenerateDataKey, kms:Encrypt); __main__.py requires ledgerbox:sftpRoleArn and exports exports_key_arn; storage.py SSE rule aws:kms with bucket_key_enabled.", [r"kms\.py|exports_key", r"key|alias|rotation|policy"]),
    f("l14", "error", "should", "error: No parameter named \"bucket_key_enabled\"", "pyright: 'No parameter named \"bucket_key_enabled\"': it belongs on the SSE rule args, not inside apply_server_side_encryption_by_default; moved.", [r"bucket_key_enabled", r"parameter|rule|pyright"], "fixed"),
    f("l15", "error", "should", "[mandatory]  ledgerbox-policies v0.3.0  kms-key-policy-no-wildcard-principal", "Policy violation kms-key-policy-no-wildcard-principal: the key policy used Principal AWS '*' with a kms:CallerAccount condition; fixed with the account root arn:aws:iam::<account>:root.", [r"wildcard", r"principal|policy|root"], "fixed"),
    f("l16", "command", "should", "pulumi preview --stack dev --diff --policy-pack policy", "Preview/apply always with the policy pack: pulumi preview|up --stack <dev|staging|prod> --policy-pack policy.", [r"--policy-pack|policy pack", r"pulumi|preview|up"]),
    f("l17", "command", "nice", "pyright --version && pyright", "Type check: pyright (1.1.386), 0 errors at the end.", [r"pyright"]),
    f("l18", "error", "must", "recon-matcher-dev is not authorized to perform: kms:Decrypt", "matcher Lambda failed with AccessDenied on GetObject: not authorized to perform kms:Decrypt (no identity-based policy); fixed by adding kms:Decrypt on the key to the recon-matcher-s3 role policy.", [r"kms:Decrypt", r"not authorized|AccessDenied|identity-based|role"], "fixed"),
    f("l19", "value", "should", "dev key: `arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a", "dev key arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43 (account 418273645501).", [r"5e0c2b7a", r"dev|key|kms"]),
    f("l20", "value", "nice", "the matcher matched 1,284 of 1,291 lines", "Matcher check on the 2 Nov test statement (NL91ABNA0417164300_20261102): 1,284 of 1,291 lines matched, 7 unmatched worth 4312.87 EUR, on dev and staging.", [r"1,?284|1,?291|4312\.87", r"match|lines|unmatched"]),
    f("l21", "finding", "should", "Note: the 214 existing objects stay AES256", "The 214 existing dev objects stay AES256: changing default encryption does not re-encrypt existing objects.", [r"AES256|existing|old objects", r"re-?encrypt|stay|214"]),
    f("l22", "decision", "should", "should we re-encrypt them now, or is that something for later", "Re-encrypting the old AES256 objects is for later, with S3 Batch Operations, not in this change.", [r"re-?encrypt|Batch Operations", r"later|not (now|in this)|open"], "open"),
    f("l23", "error", "should", "error: Missing required configuration variable 'ledgerbox:sftpRoleArn'", "Staging preview failed: Missing required configuration variable 'ledgerbox:sftpRoleArn'; set from IAM/Transfer (connector c-3f1a9e07d2b54c61, sftp-acc.bank.example).", [r"sftpRoleArn", r"missing|required|config"], "fixed"),
    f("l24", "value", "should", "pulumi config set ledgerbox:sftpRoleArn arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging", "Staging SFTP connector role: arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging (now in Pulumi.staging.yaml).", [r"ledgerbox-sftp-connector-staging"]),
    f("l25", "constraint", "must", "Anouk from security says all our KMS keys must have a 30 day deletion window", "Security (Anouk): every KMS key has a 30-day deletion window, on all stacks including dev.", [r"\b30\b|thirty", r"deletion|window"]),
    f("l26", "value", "should", "staging key `b81d6f3c-07a2-4e95-9c4d-5a2f8e0b6c17`", "staging key b81d6f3c-07a2-4e95-9c4d-5a2f8e0b6c17, rotation enabled every 365 days.", [r"b81d6f3c", r"staging|key|rotation"]),
    f("l27", "state", "should", "418273645501:key/b81d6f3c", "dev and staging are applied (staging: 2 created, 2 updated; dev key window updated to 30).", [r"staging", r"created|updated|applied"]),
    f("l28", "error", "must", "~ bucket: \"ledgerbox-recon-exports\" => \"ledgerbox-recon-exports-prod\"", "Prod preview wanted to replace the bucket (ledgerbox-recon-exports => ledgerbox-recon-exports-prod) and 4 attached resources: the new bucket_name() had dropped the ledgerbox:bucketName override.", [r"replace", r"bucket"], "fixed"),
    f("l29", "fix", "must", "Prod preview is now what we want", "bucket_name() reads ledgerbox:bucketName again; prod preview: + key, + alias, ~ role policy, ~ SSE config, no replace; dev/staging previews unchanged.", [r"replace|keeps its name|bucketName", r"prod|bucket"]),
    f("l30", "value", "nice", "--save-plan /tmp/prod-kms.plan.json", "Prod plan saved in /tmp/prod-kms.plan.json (for pulumi up --plan).", [r"prod-kms\.plan\.json|save-plan|--plan"]),
    f("l31", "request", "must", "I'll do the prod up myself on Thursday with the change ticket CHG-2291", "Commit on branch kms-exports, message says prod not applied; the user runs the prod pulumi up herself on Thursday under change ticket CHG-2291.", [r"CHG-2291|Thursday", r"prod|up|ticket"], "done"),
    f("l32", "state", "must", "Switched to a new branch 'kms-exports'", "Committed 8d3f6a2 on branch kms-exports (not pushed).", [r"8d3f6a2|kms-exports"]),
    f("l33", "request", "nice", "On the policy question: I think it is worth it but agree it can wait", "Protect the prod bucket against replace (protect=True plus a policy requiring it): later, not now.", [r"protect|replace", r"later|open|wait|policy"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
