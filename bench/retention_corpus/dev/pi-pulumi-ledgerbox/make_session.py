# ruff: noqa: E501
"""Writes session.jsonl: a pi v3 session written by hand for the heldout6b split.

A fintech platform engineer who phrases every rule as a question has pi move a bank-reconciliation
exports bucket to SSE-KMS with a customer-managed key in a Pulumi (Python) project: dev and staging
updated, prod only previewed. pulumi preview/up, CrossGuard policy pack, pyright, aws CLI, Lambda
invoke and CloudWatch logs. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/sanne/code/ledgerbox-infra"
s = PiSession(CWD, "2026-11-03T09:14:05", seed="ledgerbox-pulumi-kms")

MAIN = "__main__.py"
STOR = "ledgerbox/storage.py"
LAM = "ledgerbox/matcher.py"
PY = "Pulumi.yaml"
PDEV = "Pulumi.dev.yaml"
PSTG = "Pulumi.staging.yaml"
PPRD = "Pulumi.prod.yaml"
POL = "policy/__main__.py"
REQ = "requirements.txt"

s.files.update({
    PY: """name: ledgerbox-infra
runtime:
  name: python
  options:
    toolchain: pip
    virtualenv: venv
description: Ledgerbox reconciliation infrastructure (exports bucket, matcher Lambda)
""",
    PDEV: """config:
  aws:region: eu-central-1
  ledgerbox:sftpRoleArn: arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-dev
""",
    PSTG: """config:
  aws:region: eu-central-1
""",
    PPRD: """config:
  aws:region: eu-central-1
  ledgerbox:bucketName: ledgerbox-recon-exports
  ledgerbox:sftpRoleArn: arn:aws:iam::730194625118:role/ledgerbox-sftp-connector
""",
    REQ: """pulumi>=3.0.0,<4.0.0
pulumi-aws>=6.0.2,<7.0.0
""",
    MAIN: """import pulumi

from ledgerbox.storage import exports_bucket
from ledgerbox.matcher import matcher_function

stack = pulumi.get_stack()
bucket = exports_bucket(stack)
fn = matcher_function(stack, bucket)

pulumi.export("exports_bucket", bucket.bucket)
pulumi.export("matcher_function", fn.name)
""",
    STOR: """import pulumi
import pulumi_aws as aws

# Bank statements land here via the bank's SFTP connector (AWS Transfer Family).
# Bookkeeping law: statements are kept 7 years (2555 days), then expire.
RETENTION_DAYS = 2555


def exports_bucket(stack: str) -> aws.s3.BucketV2:
    cfg = pulumi.Config("ledgerbox")
    name = cfg.get("bucketName") or f"ledgerbox-recon-exports-{stack}"
    bucket = aws.s3.BucketV2("recon-exports", bucket=name)

    aws.s3.BucketPublicAccessBlock(
        "recon-exports-pab",
        bucket=bucket.id,
        block_public_acls=True,
        block_public_policy=True,
        ignore_public_acls=True,
        restrict_public_buckets=True,
    )
    aws.s3.BucketVersioningV2(
        "recon-exports-versioning",
        bucket=bucket.id,
        versioning_configuration=aws.s3.BucketVersioningV2VersioningConfigurationArgs(status="Enabled"),
    )
    aws.s3.BucketServerSideEncryptionConfigurationV2(
        "recon-exports-sse",
        bucket=bucket.id,
        rules=[
            aws.s3.BucketServerSideEncryptionConfigurationV2RuleArgs(
                apply_server_side_encryption_by_default=aws.s3.BucketServerSideEncryptionConfigurationV2RuleApplyServerSideEncryptionByDefaultArgs(
                    sse_algorithm="AES256",
                ),
            )
        ],
    )
    aws.s3.BucketLifecycleConfigurationV2(
        "recon-exports-lifecycle",
        bucket=bucket.id,
        rules=[
            aws.s3.BucketLifecycleConfigurationV2RuleArgs(
                id="expire-after-retention",
                status="Enabled",
                expiration=aws.s3.BucketLifecycleConfigurationV2RuleExpirationArgs(days=RETENTION_DAYS),
                noncurrent_version_expiration=aws.s3.BucketLifecycleConfigurationV2RuleNoncurrentVersionExpirationArgs(noncurrent_days=30),
            )
        ],
    )
    return bucket
""",
    LAM: """import json

import pulumi
import pulumi_aws as aws


def matcher_function(stack: str, bucket: aws.s3.BucketV2) -> aws.lambda_.Function:
    role = aws.iam.Role(
        "recon-matcher-role",
        name=f"recon-matcher-role-{stack}",
        assume_role_policy=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}],
        }),
    )
    aws.iam.RolePolicyAttachment(
        "recon-matcher-logs",
        role=role.name,
        policy_arn="arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
    )
    aws.iam.RolePolicy(
        "recon-matcher-s3",
        role=role.id,
        policy=bucket.arn.apply(lambda arn: json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"], "Resource": [arn, f"{arn}/*"]}],
        })),
    )
    return aws.lambda_.Function(
        "recon-matcher",
        name=f"recon-matcher-{stack}",
        runtime="python3.11",
        handler="handler.main",
        role=role.arn,
        timeout=120,
        memory_size=512,
        code=pulumi.FileArchive("../ledgerbox-matcher/build"),
        environment=aws.lambda_.FunctionEnvironmentArgs(variables={"EXPORTS_BUCKET": bucket.bucket}),
    )
""",
    POL: """from pulumi_policy import EnforcementLevel, PolicyPack, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy


def _no_wildcard_principal(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
    if args.resource_type != "aws:kms/key:Key":
        return
    import json
    policy = json.loads(args.props.get("policy") or "{}")
    for st in policy.get("Statement", []):
        principal = st.get("Principal")
        if principal == "*" or (isinstance(principal, dict) and principal.get("AWS") == "*"):
            report_violation("KMS key policies must not use a wildcard principal; name the account root or roles.")


PolicyPack(
    name="ledgerbox-policies",
    enforcement_level=EnforcementLevel.MANDATORY,
    policies=[
        ResourceValidationPolicy(
            name="kms-key-policy-no-wildcard-principal",
            description="KMS key policies name their principals.",
            validate=_no_wildcard_principal,
        ),
    ],
)
""",
})

# ===================================================================== turn 1
s.user(
    "Hi! Compliance wants the reconciliation exports bucket to move from AES256 to SSE-KMS with our own customer-managed key, with key rotation on. Could you first have a look at how ledgerbox-infra is set up? "
    "A few questions before you start: shouldn't the bucket name stay exactly the same? The bank's SFTP connector writes to it and changing it needs a ticket at the bank. "
    "And would it be OK if we don't run pulumi up on prod at all today, only preview? dev and staging are fine to update. Also, can we avoid adding new pip dependencies? The Lambda runtime is Python 3.11, so should we keep everything compatible with 3.11?",
    pause=0,
)
s.bash("ls -la; ls ledgerbox policy; git log --oneline -5", """total 44
drwxr-xr-x  7 sanne sanne 4096 Nov  3 10:12 .
drwxr-xr-x 12 sanne sanne 4096 Oct 28 16:40 ..
drwxr-xr-x  8 sanne sanne 4096 Nov  3 10:12 .git
-rw-r--r--  1 sanne sanne   74 Feb 11  2026 .gitignore
-rw-r--r--  1 sanne sanne  219 Feb 11  2026 Pulumi.yaml
-rw-r--r--  1 sanne sanne  123 Feb 11  2026 Pulumi.dev.yaml
-rw-r--r--  1 sanne sanne  168 Mar  2  2026 Pulumi.prod.yaml
-rw-r--r--  1 sanne sanne   40 Jun 19 14:02 Pulumi.staging.yaml
-rw-r--r--  1 sanne sanne  245 Feb 11  2026 __main__.py
drwxr-xr-x  2 sanne sanne 4096 Jun 19 14:02 ledgerbox
drwxr-xr-x  3 sanne sanne 4096 Apr  7  2026 policy
-rw-r--r--  1 sanne sanne   50 Feb 11  2026 requirements.txt
drwxr-xr-x  6 sanne sanne 4096 Feb 11  2026 venv
__init__.py  matcher.py  storage.py
__main__.py  PulumiPolicy.yaml  requirements.txt  venv
5c9e2d1 staging stack (no sftp yet)
a07f3b8 lifecycle: 7 years retention for statements
3e81c4d prod: keep legacy bucket name via config
91d0a6e matcher lambda python3.11
2f4b7c0 initial ledgerbox-infra""")
s.reads([MAIN, STOR, LAM])
s.reads([PY, PDEV, PSTG, PPRD, REQ])
s.read(POL)
s.bash("pulumi version; pulumi whoami -v | head -3; venv/bin/python --version; venv/bin/pip list 2>/dev/null | grep -i pulumi", """v3.137.0
User: sanne-ledgerbox
Organizations: ledgerbox
Backend URL: https://app.pulumi.com/sanne-ledgerbox
Python 3.11.9
pulumi        3.137.0
pulumi_aws    6.56.1
pulumi_policy 1.13.0""")
s.bash("pulumi stack ls", """NAME      LAST UPDATE   RESOURCE COUNT  URL
dev*      3 weeks ago   13              https://app.pulumi.com/ledgerbox/ledgerbox-infra/dev
prod      4 months ago  13              https://app.pulumi.com/ledgerbox/ledgerbox-infra/prod
staging   4 months ago  12              https://app.pulumi.com/ledgerbox/ledgerbox-infra/staging""")
s.bash("pulumi stack output --stack prod; pulumi stack output --stack dev", """Current stack outputs (2):
    OUTPUT            VALUE
    exports_bucket    ledgerbox-recon-exports
    matcher_function  recon-matcher-prod
Current stack outputs (2):
    OUTPUT            VALUE
    exports_bucket    ledgerbox-recon-exports-dev
    matcher_function  recon-matcher-dev""")
s.bash("aws s3api list-objects-v2 --bucket ledgerbox-recon-exports-dev --query 'length(Contents)'; aws s3api head-object --bucket ledgerbox-recon-exports-dev --key statements/2026/10/NL91ABNA0417164300_20261031.camt053.xml --query '{sse:ServerSideEncryption,size:ContentLength}'", """214
{
    "sse": "AES256",
    "size": 48211
}""")
s.bash("pyright --version && pyright", """pyright 1.1.386
0 errors, 0 warnings, 0 informations """)
s.assistant(
    "How it is set up (nothing changed yet):\n\n"
    "- Pulumi 3.137.0, Python 3.11.9 venv, pulumi_aws 6.56.1; stacks dev (13 resources), staging (12), prod (13) on Pulumi Cloud org `ledgerbox`. A CrossGuard pack in policy/ (`ledgerbox-policies`, mandatory: no wildcard principal in KMS key policies).\n"
    "- `ledgerbox/storage.py` builds the bucket: name = config `ledgerbox:bucketName` **or** `ledgerbox-recon-exports-<stack>`. Only prod sets bucketName, to the legacy `ledgerbox-recon-exports` (commit 3e81c4d). Public access block, versioning, SSE **AES256**, lifecycle expiring after 2555 days (7 years) and noncurrent versions after 30.\n"
    "- `ledgerbox/matcher.py`: Lambda `recon-matcher-<stack>` (python3.11) with an inline role policy for s3:GetObject/ListBucket.\n"
    "- Pulumi.staging.yaml has **no `ledgerbox:sftpRoleArn`** (dev and prod do); the code does not use it yet, but the KMS key policy will need the SFTP connector role.\n"
    "- dev bucket holds 214 objects, all AES256.\n\n"
    "Answers: yes, the bucket name stays as it is (only the encryption config changes, which is an in-place update); prod: preview only; no new dependencies needed (pulumi_aws has kms); all 3.11-compatible.\n\n"
    "Plan: a `aws.kms.Key` with rotation + alias per stack, the SSE config switched to `aws:kms` with bucket keys, key policy for account root, the matcher role and the SFTP connector role. One question: deletion window for the key?"
)

# ===================================================================== turn 2
s.user("Thanks, that matches what I thought. For the deletion window, should we use 7 days, so we can clean up dev keys quickly? And could the alias be alias/ledgerbox-recon-exports-<stack>, or is that confusing on prod where the bucket has no suffix? I think the suffix everywhere is clearer actually.")
s.write("ledgerbox/kms.py", """import json

import pulumi
import pulumi_aws as aws


def exports_key(stack: str, sftp_role_arn: str) -> aws.kms.Key:
    \"\"\"Customer-managed key for the exports bucket (SSE-KMS, yearly rotation).\"\"\"
    account = aws.get_caller_identity().account_id
    policy = {
        "Version": "2012-10-17",
        "Statement": [
            {
                "Sid": "AccountAdmin",
                "Effect": "Allow",
                "Principal": {"AWS": "*"},
                "Action": "kms:*",
                "Resource": "*",
                "Condition": {"StringEquals": {"kms:CallerAccount": account}},
            },
            {
                "Sid": "SftpConnectorWrites",
                "Effect": "Allow",
                "Principal": {"AWS": sftp_role_arn},
                "Action": ["kms:GenerateDataKey", "kms:Encrypt"],
                "Resource": "*",
            },
        ],
    }
    key = aws.kms.Key(
        "recon-exports-key",
        description=f"ledgerbox recon exports ({stack})",
        enable_key_rotation=True,
        deletion_window_in_days=7,
        policy=json.dumps(policy),
    )
    aws.kms.Alias("recon-exports-key-alias", name=f"alias/ledgerbox-recon-exports-{stack}", target_key_id=key.key_id)
    return key
""")
s.edit(STOR, """def exports_bucket(stack: str) -> aws.s3.BucketV2:
    cfg = pulumi.Config("ledgerbox")
    name = cfg.get("bucketName") or f"ledgerbox-recon-exports-{stack}"
""", """def bucket_name(stack: str) -> str:
    return f"ledgerbox-recon-exports-{stack}"


def exports_bucket(stack: str, key: aws.kms.Key) -> aws.s3.BucketV2:
    name = bucket_name(stack)
""")
s.edit(STOR, """                apply_server_side_encryption_by_default=aws.s3.BucketServerSideEncryptionConfigurationV2RuleApplyServerSideEncryptionByDefaultArgs(
                    sse_algorithm="AES256",
                ),""", """                apply_server_side_encryption_by_default=aws.s3.BucketServerSideEncryptionConfigurationV2RuleApplyServerSideEncryptionByDefaultArgs(
                    sse_algorithm="aws:kms",
                    kms_master_key_id=key.arn,
                    bucket_key_enabled=True,
                ),""")
s.edit(MAIN, """from ledgerbox.storage import exports_bucket
from ledgerbox.matcher import matcher_function

stack = pulumi.get_stack()
bucket = exports_bucket(stack)
fn = matcher_function(stack, bucket)
""", """from ledgerbox.kms import exports_key
from ledgerbox.matcher import matcher_function
from ledgerbox.storage import exports_bucket

stack = pulumi.get_stack()
cfg = pulumi.Config("ledgerbox")
key = exports_key(stack, cfg.require("sftpRoleArn"))
bucket = exports_bucket(stack, key)
fn = matcher_function(stack, bucket)
""")
s.edit(MAIN, """pulumi.export("matcher_function", fn.name)
""", """pulumi.export("matcher_function", fn.name)
pulumi.export("exports_key_arn", key.arn)
""")
s.bash("pyright", """/home/sanne/code/ledgerbox-infra/ledgerbox/storage.py
  /home/sanne/code/ledgerbox-infra/ledgerbox/storage.py:34:21 - error: No parameter named "bucket_key_enabled" (reportCallIssue)
1 error, 0 warnings, 0 informations """, code=1)
s.assistant("`bucket_key_enabled` belongs to the rule (`BucketServerSideEncryptionConfigurationV2RuleArgs`), not to `apply_server_side_encryption_by_default`. Moving it up one level.")
s.edit(STOR, """                    kms_master_key_id=key.arn,
                    bucket_key_enabled=True,
                ),""", """                    kms_master_key_id=key.arn,
                ),
                bucket_key_enabled=True,""")
s.bash("pyright", "0 errors, 0 warnings, 0 informations ")
s.bash("pulumi preview --stack dev --diff --policy-pack policy", """Previewing update (ledgerbox/dev)

View in Browser (Ctrl+O): https://app.pulumi.com/ledgerbox/ledgerbox-infra/dev/previews/6a1f0c2e-93b7-4d15-8e2a-0f4c7d9b1a36

Loading policy packs...

  pulumi:pulumi:Stack: (same)
    [urn=urn:pulumi:dev::ledgerbox-infra::pulumi:pulumi:Stack::ledgerbox-infra-dev]
    + aws:kms/key:Key: (create)
        [urn=urn:pulumi:dev::ledgerbox-infra::aws:kms/key:Key::recon-exports-key]
        deletionWindowInDays: 7
        description         : "ledgerbox recon exports (dev)"
        enableKeyRotation   : true
        policy              : "{\\"Version\\": \\"2012-10-17\\", \\"Statement\\": [{\\"Sid\\": \\"AccountAdmin\\", \\"Effect\\": \\"Allow\\", \\"Principal\\": {\\"AWS\\": \\"*\\"}, ...}]}"
Policy Violations:
    [mandatory]  ledgerbox-policies v0.3.0  kms-key-policy-no-wildcard-principal (aws:kms/key:Key: recon-exports-key)
    KMS key policies name their principals.
    KMS key policies must not use a wildcard principal; name the account root or roles.

Resources:
    + 2 to create
    ~ 1 to update
    10 unchanged

error: preview failed""", code=255)
s.assistant("Our own policy pack caught it: `Principal: {\"AWS\": \"*\"}` with a kms:CallerAccount condition is a common pattern but the pack forbids wildcards. I'll name the account root (`arn:aws:iam::<account>:root`) instead, which is the AWS default key policy.")
s.edit("ledgerbox/kms.py", """                "Principal": {"AWS": "*"},
                "Action": "kms:*",
                "Resource": "*",
                "Condition": {"StringEquals": {"kms:CallerAccount": account}},
            },""", """                "Principal": {"AWS": f"arn:aws:iam::{account}:root"},
                "Action": "kms:*",
                "Resource": "*",
            },""")
s.bash("pulumi preview --stack dev --policy-pack policy", """Previewing update (ledgerbox/dev)

View in Browser (Ctrl+O): https://app.pulumi.com/ledgerbox/ledgerbox-infra/dev/previews/0b7e4d93-2c1a-4f68-9d05-71e3a8c6f2b4

Loading policy packs...

     Type                                                       Name                     Plan       
     pulumi:pulumi:Stack                                        ledgerbox-infra-dev                 
 +   ├─ aws:kms:Key                                             recon-exports-key        create     
 +   ├─ aws:kms:Alias                                           recon-exports-key-alias  create     
 ~   └─ aws:s3:BucketServerSideEncryptionConfigurationV2        recon-exports-sse        update     [diff: ~rules]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Outputs:
  + exports_key_arn : output<string>

Resources:
    + 2 to create
    ~ 1 to update
    3 changes. 10 unchanged""")
s.bash("pulumi up --stack dev --yes --policy-pack policy --skip-preview", """Updating (ledgerbox/dev)

View in Browser (Ctrl+O): https://app.pulumi.com/ledgerbox/ledgerbox-infra/dev/updates/17

Loading policy packs...

     Type                                                       Name                     Status            
     pulumi:pulumi:Stack                                        ledgerbox-infra-dev                        
 +   ├─ aws:kms:Key                                             recon-exports-key        created (12s)     
 +   ├─ aws:kms:Alias                                           recon-exports-key-alias  created (0.41s)   
 ~   └─ aws:s3:BucketServerSideEncryptionConfigurationV2        recon-exports-sse        updated (0.88s)   [diff: ~rules]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Outputs:
    exports_bucket  : "ledgerbox-recon-exports-dev"
  + exports_key_arn : "arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43"
    matcher_function: "recon-matcher-dev"

Resources:
    + 2 created
    ~ 1 updated
    3 changes. 10 unchanged

Duration: 19s""")
s.bash("printf 'test\\n' > /tmp/kms-probe.txt && aws s3 cp /tmp/kms-probe.txt s3://ledgerbox-recon-exports-dev/probe/kms-probe.txt && aws s3api head-object --bucket ledgerbox-recon-exports-dev --key probe/kms-probe.txt --query '{sse:ServerSideEncryption,key:SSEKMSKeyId,bk:BucketKeyEnabled}'", """upload: ../../../../tmp/kms-probe.txt to s3://ledgerbox-recon-exports-dev/probe/kms-probe.txt
{
    "sse": "aws:kms",
    "key": "arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43",
    "bk": true
}""")
s.bash("aws s3 cp ../ledgerbox-matcher/tests/fixtures/NL91ABNA0417164300_20261102.camt053.xml s3://ledgerbox-recon-exports-dev/statements/2026/11/ && aws lambda invoke --function-name recon-matcher-dev --cli-binary-format raw-in-base64-out --payload '{\"key\":\"statements/2026/11/NL91ABNA0417164300_20261102.camt053.xml\"}' /tmp/out.json; cat /tmp/out.json", """upload: ../ledgerbox-matcher/tests/fixtures/NL91ABNA0417164300_20261102.camt053.xml to s3://ledgerbox-recon-exports-dev/statements/2026/11/NL91ABNA0417164300_20261102.camt053.xml
{
    "StatusCode": 200,
    "FunctionError": "Unhandled",
    "ExecutedVersion": "$LATEST"
}
{"errorMessage": "An error occurred (AccessDenied) when calling the GetObject operation: Access Denied", "errorType": "ClientError", "requestId": "c41e7a90-5b3d-4f82-9e16-a2d0b8f7c315", "stackTrace": ["  File \\"/var/task/handler.py\\", line 38, in main\\n    body = s3.get_object(Bucket=BUCKET, Key=key)[\\"Body\\"].read()\\n", "  File \\"/var/runtime/botocore/client.py\\", line 1023, in _make_api_call\\n    raise error_class(parsed_response, operation_name)\\n"]}""")
s.bash("aws logs tail /aws/lambda/recon-matcher-dev --since 5m --format short | tail -12", """2026-11-03T09:41:12 START RequestId: c41e7a90-5b3d-4f82-9e16-a2d0b8f7c315 Version: $LATEST
2026-11-03T09:41:12 [INFO]	matcher: fetching statements/2026/11/NL91ABNA0417164300_20261102.camt053.xml
2026-11-03T09:41:13 [ERROR]	ClientError: An error occurred (AccessDenied) when calling the GetObject operation: User: arn:aws:sts::418273645501:assumed-role/recon-matcher-role-dev/recon-matcher-dev is not authorized to perform: kms:Decrypt on resource: arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43 because no identity-based policy allows the kms:Decrypt action
Traceback (most recent call last):
  File "/var/task/handler.py", line 38, in main
    body = s3.get_object(Bucket=BUCKET, Key=key)["Body"].read()
  File "/var/runtime/botocore/client.py", line 1023, in _make_api_call
    raise error_class(parsed_response, operation_name)
2026-11-03T09:41:13 END RequestId: c41e7a90-5b3d-4f82-9e16-a2d0b8f7c315
2026-11-03T09:41:13 REPORT RequestId: c41e7a90-5b3d-4f82-9e16-a2d0b8f7c315	Duration: 1204.55 ms	Billed Duration: 1205 ms	Memory Size: 512 MB	Max Memory Used: 88 MB""")
s.assistant("The Lambda log has the real reason: `not authorized to perform: kms:Decrypt ... because no identity-based policy allows the kms:Decrypt action`. The key policy delegates to IAM (account root), so the matcher role needs kms:Decrypt on the key in its own policy. Old AES256 objects still read fine; only the new KMS object fails.")
s.edit(LAM, """def matcher_function(stack: str, bucket: aws.s3.BucketV2) -> aws.lambda_.Function:""", """def matcher_function(stack: str, bucket: aws.s3.BucketV2, key: aws.kms.Key) -> aws.lambda_.Function:""")
s.edit(LAM, """        policy=bucket.arn.apply(lambda arn: json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"], "Resource": [arn, f"{arn}/*"]}],
        })),""", """        policy=pulumi.Output.all(bucket.arn, key.arn).apply(lambda a: json.dumps({
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Action": ["s3:GetObject", "s3:ListBucket"], "Resource": [a[0], f"{a[0]}/*"]},
                {"Effect": "Allow", "Action": "kms:Decrypt", "Resource": a[1]},
            ],
        })),""")
s.edit(MAIN, "fn = matcher_function(stack, bucket)\n", "fn = matcher_function(stack, bucket, key)\n")
s.bash("pyright && pulumi up --stack dev --yes --policy-pack policy --skip-preview 2>&1 | sed -n '/Type/,/Resources/p;/Duration/p'", """0 errors, 0 warnings, 0 informations 
     Type                       Name                 Status            Info
     pulumi:pulumi:Stack        ledgerbox-infra-dev                    
 ~   └─ aws:iam:RolePolicy      recon-matcher-s3     updated (1s)      [diff: ~policy]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Outputs:
    exports_bucket  : "ledgerbox-recon-exports-dev"
    exports_key_arn : "arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43"
    matcher_function: "recon-matcher-dev"

Resources:
Duration: 9s""")
s.bash("sleep 10; aws lambda invoke --function-name recon-matcher-dev --cli-binary-format raw-in-base64-out --payload '{\"key\":\"statements/2026/11/NL91ABNA0417164300_20261102.camt053.xml\"}' /tmp/out.json >/dev/null; cat /tmp/out.json", """{"statement": "NL91ABNA0417164300_20261102", "lines": 1291, "matched": 1284, "unmatched": 7, "unmatched_total_eur": "4312.87"}""")
s.bash("aws s3 rm s3://ledgerbox-recon-exports-dev/probe/kms-probe.txt", "delete: s3://ledgerbox-recon-exports-dev/probe/kms-probe.txt")
s.assistant(
    "dev is on SSE-KMS:\n"
    "- new `ledgerbox/kms.py`: `aws.kms.Key` recon-exports-key (rotation on, deletion window 7 days as you asked), alias `alias/ledgerbox-recon-exports-<stack>`, key policy = account root + the SFTP connector role (kms:GenerateDataKey, kms:Encrypt).\n"
    "- `storage.py`: SSE rule `aws:kms` with the key, `bucket_key_enabled=True` on the rule (pyright caught it at the wrong level).\n"
    "- `matcher.py`: role policy gets kms:Decrypt on the key (the first invoke failed with AccessDenied, the log said no identity-based policy allowed kms:Decrypt).\n"
    "- dev key: `arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43`. A probe object came back `aws:kms` with bucket key; the matcher matched 1,284 of 1,291 lines on the 2 Nov test statement (7 unmatched, 4312.87 EUR), same as before.\n\n"
    "Note: the 214 existing objects stay AES256; changing the default encryption does not re-encrypt existing objects."
)

# ===================================================================== turn 3
s.user("Great. About the old objects: should we re-encrypt them now, or is that something for later? I'd say later, with S3 Batch Operations, not in this change. Then could you do staging? I think staging is missing the SFTP role, can you find it in IAM?")
s.bash("pulumi preview --stack staging --policy-pack policy", """Previewing update (ledgerbox/staging)

View in Browser (Ctrl+O): https://app.pulumi.com/ledgerbox/ledgerbox-infra/staging/previews/9d3b61f0-4a7e-4c25-b8e1-c06f2a97d514

Loading policy packs...

     Type                 Name                     Plan     Info
     pulumi:pulumi:Stack  ledgerbox-infra-staging           1 error

Diagnostics:
  pulumi:pulumi:Stack (ledgerbox-infra-staging):
    error: Missing required configuration variable 'ledgerbox:sftpRoleArn'
        please set a value using the command `pulumi config set ledgerbox:sftpRoleArn <value>`
    error: an unhandled error occurred: Program exited with non-zero exit code: 1

Resources:

error: preview failed""", code=255)
s.bash("aws iam list-roles --query \"Roles[?contains(RoleName, 'sftp')].[RoleName,Arn,CreateDate]\" --output text", """ledgerbox-sftp-connector-dev	arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-dev	2026-02-11T13:02:41+00:00
ledgerbox-sftp-connector-staging	arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging	2026-10-21T08:55:09+00:00""")
s.bash("aws transfer list-connectors --query 'Connectors[].[ConnectorId,Url]' --output text; aws transfer describe-connector --connector-id c-3f1a9e07d2b54c61 --query 'Connector.AccessRole'", """c-8b2e04d7a1f93c05	sftp://sftp-test.bank.example
c-3f1a9e07d2b54c61	sftp://sftp-acc.bank.example
"arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging\"""")
s.bash("pulumi config set ledgerbox:sftpRoleArn arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging --stack staging && cat Pulumi.staging.yaml", """config:
  aws:region: eu-central-1
  ledgerbox:sftpRoleArn: arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging""")
s.files[PSTG] = "config:\n  aws:region: eu-central-1\n  ledgerbox:sftpRoleArn: arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging\n"
s.bash("pulumi preview --stack staging --policy-pack policy", """Previewing update (ledgerbox/staging)

     Type                                                       Name                     Plan       Info
     pulumi:pulumi:Stack                                        ledgerbox-infra-staging             
 +   ├─ aws:kms:Key                                             recon-exports-key        create     
 +   ├─ aws:kms:Alias                                           recon-exports-key-alias  create     
 ~   ├─ aws:iam:RolePolicy                                      recon-matcher-s3         update     [diff: ~policy]
 ~   └─ aws:s3:BucketServerSideEncryptionConfigurationV2        recon-exports-sse        update     [diff: ~rules]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Resources:
    + 2 to create
    ~ 2 to update
    4 changes. 8 unchanged""")
s.user("Hmm, one more thing before staging: Anouk from security says all our KMS keys must have a 30 day deletion window, also dev, so nobody can lose statements by deleting a key too fast. Could you change it to 30? Sorry for the back and forth.")
s.edit("ledgerbox/kms.py", "        deletion_window_in_days=7,\n", "        deletion_window_in_days=30,  # security (Anouk): 30 days on every stack\n")
s.bash("pulumi up --stack dev --yes --policy-pack policy --skip-preview 2>&1 | sed -n '/Type/,/Resources/p'", """     Type                 Name                 Status            Info
     pulumi:pulumi:Stack  ledgerbox-infra-dev                    
 ~   └─ aws:kms:Key       recon-exports-key    updated (1s)      [diff: ~deletionWindowInDays]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Outputs:
    exports_bucket  : "ledgerbox-recon-exports-dev"
    exports_key_arn : "arn:aws:kms:eu-central-1:418273645501:key/5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43"
    matcher_function: "recon-matcher-dev"

Resources:""")
s.bash("pulumi up --stack staging --yes --policy-pack policy", """Previewing update (ledgerbox/staging)

     Type                                                       Name                     Plan       Info
     pulumi:pulumi:Stack                                        ledgerbox-infra-staging             
 +   ├─ aws:kms:Key                                             recon-exports-key        create     
 +   ├─ aws:kms:Alias                                           recon-exports-key-alias  create     
 ~   ├─ aws:iam:RolePolicy                                      recon-matcher-s3         update     [diff: ~policy]
 ~   └─ aws:s3:BucketServerSideEncryptionConfigurationV2        recon-exports-sse        update     [diff: ~rules]

Updating (ledgerbox/staging)

     Type                                                       Name                     Status            Info
     pulumi:pulumi:Stack                                        ledgerbox-infra-staging                    
 +   ├─ aws:kms:Key                                             recon-exports-key        created (11s)     
 +   ├─ aws:kms:Alias                                           recon-exports-key-alias  created (0.37s)   
 ~   ├─ aws:iam:RolePolicy                                      recon-matcher-s3         updated (1s)      [diff: ~policy]
 ~   └─ aws:s3:BucketServerSideEncryptionConfigurationV2        recon-exports-sse        updated (0.91s)   [diff: ~rules]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Outputs:
    exports_bucket  : "ledgerbox-recon-exports-staging"
  + exports_key_arn : "arn:aws:kms:eu-central-1:418273645501:key/b81d6f3c-07a2-4e95-9c4d-5a2f8e0b6c17"
    matcher_function: "recon-matcher-staging"

Resources:
    + 2 created
    ~ 2 updated
    4 changes. 8 unchanged

Duration: 21s""")
s.bash("aws kms get-key-rotation-status --key-id b81d6f3c-07a2-4e95-9c4d-5a2f8e0b6c17; aws kms describe-key --key-id alias/ledgerbox-recon-exports-staging --query 'KeyMetadata.[KeyState,DeletionDate]' --output text; aws kms describe-key --key-id alias/ledgerbox-recon-exports-dev --query 'KeyMetadata.KeyId' --output text", """{
    "KeyRotationEnabled": true,
    "RotationPeriodInDays": 365
}
Enabled	None
5e0c2b7a-91d4-4f3e-a6b8-2d7c9e1f0a43""")
s.bash("aws lambda invoke --function-name recon-matcher-staging --cli-binary-format raw-in-base64-out --payload '{\"key\":\"statements/2026/11/NL91ABNA0417164300_20261102.camt053.xml\"}' /tmp/out.json >/dev/null; cat /tmp/out.json", """{"errorMessage": "An error occurred (NoSuchKey) when calling the GetObject operation: The specified key does not exist.", "errorType": "NoSuchKey"}""")
s.bash("aws s3 cp ../ledgerbox-matcher/tests/fixtures/NL91ABNA0417164300_20261102.camt053.xml s3://ledgerbox-recon-exports-staging/statements/2026/11/ >/dev/null && aws lambda invoke --function-name recon-matcher-staging --cli-binary-format raw-in-base64-out --payload '{\"key\":\"statements/2026/11/NL91ABNA0417164300_20261102.camt053.xml\"}' /tmp/out.json >/dev/null; cat /tmp/out.json", """{"statement": "NL91ABNA0417164300_20261102", "lines": 1291, "matched": 1284, "unmatched": 7, "unmatched_total_eur": "4312.87"}""")
s.assistant(
    "Staging done:\n"
    "- `ledgerbox:sftpRoleArn` was missing (preview failed with `Missing required configuration variable 'ledgerbox:sftpRoleArn'`). The staging connector `c-3f1a9e07d2b54c61` (sftp-acc.bank.example) uses `arn:aws:iam::418273645501:role/ledgerbox-sftp-connector-staging`; set in Pulumi.staging.yaml.\n"
    "- Deletion window is now **30 days** (dev updated in place, staging created with 30).\n"
    "- staging key `b81d6f3c-07a2-4e95-9c4d-5a2f8e0b6c17`, rotation enabled (365 days). The staging bucket had no test statement (NoSuchKey); after uploading the fixture the matcher gives the same 1,284/1,291.\n"
    "- Re-encrypting the old AES256 objects: left for later (S3 Batch Operations), as you said."
)

# ===================================================================== turn 4
s.user("Perfect. Now could you run a preview on prod and show me what it would do? Only preview of course.")
s.bash("pulumi preview --stack prod --diff --policy-pack policy 2>&1 | sed -n '1,60p'", """Previewing update (ledgerbox/prod)

View in Browser (Ctrl+O): https://app.pulumi.com/ledgerbox/ledgerbox-infra/prod/previews/4e72c0a9-1d8b-4b36-a5f2-e93d07c6b815

Loading policy packs...

  pulumi:pulumi:Stack: (same)
    [urn=urn:pulumi:prod::ledgerbox-infra::pulumi:pulumi:Stack::ledgerbox-infra-prod]
    + aws:kms/key:Key: (create)
        [urn=urn:pulumi:prod::ledgerbox-infra::aws:kms/key:Key::recon-exports-key]
        deletionWindowInDays: 30
        enableKeyRotation   : true
    + aws:kms/alias:Alias: (create)
        name       : "alias/ledgerbox-recon-exports-prod"
    +-aws:s3/bucketV2:BucketV2: (replace)
        [id=ledgerbox-recon-exports]
        [urn=urn:pulumi:prod::ledgerbox-infra::aws:s3/bucketV2:BucketV2::recon-exports]
      ~ bucket: "ledgerbox-recon-exports" => "ledgerbox-recon-exports-prod"
    +-aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock: (replace)
      ~ bucket: "ledgerbox-recon-exports" => output<string>
    +-aws:s3/bucketVersioningV2:BucketVersioningV2: (replace)
    +-aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2: (replace)
    +-aws:s3/bucketLifecycleConfigurationV2:BucketLifecycleConfigurationV2: (replace)
    ~ aws:iam/rolePolicy:RolePolicy: (update)
    ~ aws:lambda/function:Function: (update)
      ~ environment: {
          ~ variables: {
              ~ EXPORTS_BUCKET: "ledgerbox-recon-exports" => output<string>
            }
        }
Resources:
    + 2 to create
    ~ 2 to update
    +-5 to replace
    9 changes. 4 unchanged""")
s.assistant(
    "Stop: this preview would **replace the prod bucket** (`ledgerbox-recon-exports` => `ledgerbox-recon-exports-prod`) and everything attached to it. That is my bug from the first change: when I split out `bucket_name(stack)` I dropped the `ledgerbox:bucketName` config override that only prod uses (commit 3e81c4d). dev and staging did not notice because they have no override. "
    "A replace on a versioned bucket with 7 years of statements would fail on delete (bucket not empty) after creating the new one, and the bank's connector would keep writing to the old name. Fixing it now; nothing has been applied to prod."
)
s.edit(STOR, """def bucket_name(stack: str) -> str:
    return f"ledgerbox-recon-exports-{stack}"
""", """def bucket_name(stack: str) -> str:
    # prod keeps its legacy name via config (3e81c4d); never derive it from the stack there
    return pulumi.Config("ledgerbox").get("bucketName") or f"ledgerbox-recon-exports-{stack}"
""")
s.bash("pyright && pulumi preview --stack prod --policy-pack policy", """0 errors, 0 warnings, 0 informations 
Previewing update (ledgerbox/prod)

View in Browser (Ctrl+O): https://app.pulumi.com/ledgerbox/ledgerbox-infra/prod/previews/c5a9170e-6f3d-4e28-b1c4-8d02f7a3e961

Loading policy packs...

     Type                                                       Name                     Plan       Info
     pulumi:pulumi:Stack                                        ledgerbox-infra-prod                
 +   ├─ aws:kms:Key                                             recon-exports-key        create     
 +   ├─ aws:kms:Alias                                           recon-exports-key-alias  create     
 ~   ├─ aws:iam:RolePolicy                                      recon-matcher-s3         update     [diff: ~policy]
 ~   └─ aws:s3:BucketServerSideEncryptionConfigurationV2        recon-exports-sse        update     [diff: ~rules]

Policies:
    ✅ ledgerbox-policies@v0.3.0 (local: policy)

Outputs:
  + exports_key_arn : output<string>

Resources:
    + 2 to create
    ~ 2 to update
    4 changes. 9 unchanged""")
s.bash("pulumi preview --stack dev --policy-pack policy 2>&1 | tail -3; pulumi preview --stack staging --policy-pack policy 2>&1 | tail -3", """Resources:
    13 unchanged
    
Resources:
    12 unchanged
    """)
s.bash("pulumi preview --stack prod --policy-pack policy --save-plan /tmp/prod-kms.plan.json >/dev/null && ls -l /tmp/prod-kms.plan.json", "-rw-r--r-- 1 sanne sanne 61877 Nov  3 10:32 /tmp/prod-kms.plan.json")
s.assistant(
    "Prod preview is now what we want: + KMS key and alias (`alias/ledgerbox-recon-exports-prod`), ~ matcher role policy (kms:Decrypt), ~ SSE config → aws:kms. The bucket `ledgerbox-recon-exports` keeps its name (no replace). dev and staging previews show no changes, so the fix does not touch them. "
    "I saved the plan to /tmp/prod-kms.plan.json in case you want `pulumi up --plan` later. Nothing applied to prod."
)

# ===================================================================== turn 5
s.user("Phew, good catch. Could you commit this on a branch kms-exports and write in the commit message that prod is not applied yet? I'll do the prod up myself on Thursday with the change ticket CHG-2291. And should we add a policy so that this bucket replace can never happen again, or is that overkill? Maybe later, not now.")
s.bash("git status --short", """ M Pulumi.staging.yaml
 M __main__.py
 M ledgerbox/matcher.py
 M ledgerbox/storage.py
?? ledgerbox/kms.py""")
s.bash("git switch -c kms-exports && git add -A && git commit -q -m 'exports bucket: SSE-KMS with customer-managed key (rotation, 30-day deletion window)' -m 'dev and staging applied; prod NOT applied yet (planned Thursday, CHG-2291). Prod keeps its legacy bucket name via ledgerbox:bucketName.' -m 'staging: set ledgerbox:sftpRoleArn. Existing AES256 objects are not re-encrypted (later, S3 Batch Operations).' && git log --oneline -2", """Switched to a new branch 'kms-exports'
8d3f6a2 exports bucket: SSE-KMS with customer-managed key (rotation, 30-day deletion window)
5c9e2d1 staging stack (no sftp yet)""")
s.assistant(
    "Committed **8d3f6a2** on branch `kms-exports` (not pushed); the message says prod is not applied (Thursday, CHG-2291).\n\n"
    "On the policy question: I think it is worth it but agree it can wait. A CrossGuard `ResourceValidationPolicy` can't see the old state, so the usual way is `protect=True` on the bucket resource (Pulumi then refuses to delete/replace it) plus a policy requiring `protect` on `aws:s3/bucketV2:BucketV2` in prod. Noted as open.\n\n"
    "Open:\n- prod `pulumi up` (you, Thursday, CHG-2291; plan in /tmp/prod-kms.plan.json).\n- Re-encrypt old AES256 objects with S3 Batch Operations.\n- Protect the bucket against replace (protect=True / policy)."
)
s.save(HERE / "session.jsonl")
