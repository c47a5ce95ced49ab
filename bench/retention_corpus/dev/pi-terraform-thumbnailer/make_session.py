# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout3 retention split.

A user who pastes CloudWatch logs and Terraform errors straight into their messages, rules in
parentheses, has pi fix an S3 thumbnail Lambda managed by Terraform: Pillow never packaged
(ImportModuleError), then built for the wrong architecture (x86_64 wheels on an arm64 function),
a recursive trigger writing thumbs/thumbs/..., timeout and memory, tflint. terraform plan only,
never apply; the salient line of each pasted log and tool output sits in its middle.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

s = PiSession("/home/oskar/infra/media-platform", "2025-11-26T13:05:51", model="claude-sonnet-4-5", seed="tf-thumbnailer")
M = "modules/thumbnailer/"
s.files.update({M + "lambda.tf": F.LAMBDA_TF, M + "src/handler.py": F.HANDLER, M + "tests/test_handler.py": F.TEST_HANDLER, M + "versions.tf": F.VERSIONS_TF})

PLAN_HEAD = (
    "module.thumbnailer.data.aws_iam_policy_document.assume: Reading...\n"
    "module.thumbnailer.aws_s3_bucket.media: Refreshing state... [id=acme-media-prod]\n"
    "module.thumbnailer.aws_iam_role.thumbnailer: Refreshing state... [id=media-prod-thumbnailer]\n"
    "module.thumbnailer.data.aws_iam_policy_document.assume: Read complete after 0s [id=2690255455]\n"
)

# ============================================================================================ turn 1
s.user(
    "the thumbnailer lambda never worked since we moved it to terraform. every upload gives this in cloudwatch:\n\n"
    "```\n"
    "INIT_START Runtime Version: python:3.12.v38\tRuntime Version ARN: arn:aws:lambda:eu-north-1::runtime:8a3c0d41f9c4\n"
    "[ERROR] Runtime.ImportModuleError: Unable to import module 'handler': No module named 'PIL'\n"
    "Traceback (most recent call last):\n"
    "INIT_REPORT Init Duration: 412.77 ms\tPhase: init\tStatus: error\tError Type: Runtime.ImportModuleError\n"
    "START RequestId: 6f2d9a0e-31b4-4c1e-9d7a-0b55c2e1a9f3 Version: $LATEST\n"
    "END RequestId: 6f2d9a0e-31b4-4c1e-9d7a-0b55c2e1a9f3\n"
    "REPORT RequestId: 6f2d9a0e-31b4-4c1e-9d7a-0b55c2e1a9f3\tDuration: 3000.00 ms\tBilled Duration: 3000 ms\tMemory Size: 128 MB\tMax Memory Used: 41 MB\tStatus: timeout\n"
    "```\n\n"
    "module is modules/thumbnailer, prod env is envs/prod. please fix (terraform plan only, never apply, I apply myself after review) "
    "(the CI runner has no docker so no docker-based builds) (no public layers like Klayers, security said no)",
    pause=0,
)
s.bash("ls -R modules/thumbnailer envs/prod | grep -v '^$'",
       "modules/thumbnailer:\nbuild\niam.tf\nlambda.tf\nrequirements.txt\ns3.tf\nsrc\ntests\nvariables.tf\nversions.tf\n"
       "modules/thumbnailer/build:\nthumbnailer.zip\nmodules/thumbnailer/src:\nhandler.py\nmodules/thumbnailer/tests:\ntest_handler.py\n"
       "envs/prod:\nbackend.tf\nmain.tf\nterraform.tfvars\n")
s.reads([M + "lambda.tf", M + "src/handler.py"])
s.bash("cat modules/thumbnailer/requirements.txt && unzip -l modules/thumbnailer/build/thumbnailer.zip",
       "Pillow==11.0.0\nArchive:  modules/thumbnailer/build/thumbnailer.zip\n  Length      Date    Time    Name\n---------  ---------- -----   ----\n     1004  2025-11-12 09:41   handler.py\n---------                     -------\n     1004                     1 file\n")
s.bash("cat envs/prod/backend.tf envs/prod/main.tf",
       "terraform {\n  backend \"s3\" {\n    bucket         = \"acme-tfstate-prod\"\n    key            = \"media-platform/prod.tfstate\"\n    region         = \"eu-north-1\"\n    dynamodb_table = \"acme-tfstate-locks\"\n  }\n}\n"
       "module \"thumbnailer\" {\n  source = \"../../modules/thumbnailer\"\n  prefix = \"media-prod\"\n}\n")
s.bash("terraform version && git log --oneline -3 -- modules/thumbnailer",
       "Terraform v1.9.8\non linux_amd64\n+ provider registry.terraform.io/hashicorp/archive v2.6.0\n+ provider registry.terraform.io/hashicorp/aws v5.74.0\n"
       "e1f07b2 thumbnailer: move from serverless.yml to terraform\n93ac5d1 media bucket in terraform\n4b0d7e8 initial layout\n")
s.assistant(
    "the zip terraform uploads only contains handler.py (1 file, 1004 bytes): `archive_file` zips `src/` and nothing ever installs requirements.txt (Pillow 11.0.0) into it. "
    "serverless.yml did that for you before the move. the 3 s timeout in the REPORT line is the init failing, not slow code.\n\n"
    "without docker and without public layers, the way is pip's cross-platform install: `pip install --platform ... --only-binary=:all: --target build/pkg` fetches the "
    "manylinux wheel for the lambda runtime whatever machine runs it, then copy src/ next to it and let `archive_file` zip that folder. "
    "i'll add `scripts/build_lambda.sh` for it (CI can run it before `terraform plan`)."
)
s.write("scripts/build_lambda.sh", '''#!/usr/bin/env bash
# Builds modules/thumbnailer/build/pkg: handler + dependencies, as the Lambda runtime needs them.
# No docker (the CI runner has none): pip downloads the manylinux wheels for the runtime directly.
set -euo pipefail
MOD="$(cd "$(dirname "$0")/../modules/thumbnailer" && pwd)"
rm -rf "$MOD/build/pkg"
mkdir -p "$MOD/build/pkg"
python3 -m pip install --quiet --no-compile \\
  --platform manylinux2014_x86_64 --implementation cp --python-version 3.12 --only-binary=:all: \\
  --target "$MOD/build/pkg" -r "$MOD/requirements.txt"
cp "$MOD"/src/*.py "$MOD/build/pkg/"
echo "built $MOD/build/pkg ($(du -sh "$MOD/build/pkg" | cut -f1))"
''')
s.edit(M + "lambda.tf", '''  source_dir  = "${path.module}/src"''', '''  source_dir  = "build/pkg" # made by scripts/build_lambda.sh''')
s.bash("chmod +x scripts/build_lambda.sh && scripts/build_lambda.sh", "built /home/oskar/infra/media-platform/modules/thumbnailer/build/pkg (13M)\n")
s.bash(
    "cd envs/prod && terraform plan -lock=false -out=/tmp/thumb.plan",
    PLAN_HEAD +
    "module.thumbnailer.aws_lambda_function.thumbnailer: Refreshing state... [id=media-prod-thumbnailer]\n"
    "module.thumbnailer.data.archive_file.thumbnailer: Reading...\n"
    "\u2577\n"
    "\u2502 Error: Archive creation error\n"
    "\u2502 \n"
    "\u2502   with module.thumbnailer.data.archive_file.thumbnailer,\n"
    "\u2502   on ../../modules/thumbnailer/lambda.tf line 1, in data \"archive_file\" \"thumbnailer\":\n"
    "\u2502    1: data \"archive_file\" \"thumbnailer\" {\n"
    "\u2502 \n"
    "\u2502 error archiving directory: could not archive missing directory: build/pkg\n"
    "\u2575\n"
    "module.thumbnailer.aws_s3_bucket_notification.media: Refreshing state... [id=acme-media-prod]\n"
    "module.thumbnailer.aws_lambda_permission.s3: Refreshing state... [id=AllowS3Invoke]\n",
    code=1,
)
s.edit(M + "lambda.tf", '''  source_dir  = "build/pkg" # made by scripts/build_lambda.sh''', '''  source_dir  = "${path.module}/build/pkg" # made by scripts/build_lambda.sh''',
       text="relative paths in a module resolve against the directory terraform runs in (envs/prod), not the module. `${path.module}` like the output_path:")
s.bash(
    "cd envs/prod && terraform plan -lock=false -out=/tmp/thumb.plan | tail -22",
    "  # module.thumbnailer.aws_lambda_function.thumbnailer will be updated in-place\n"
    "  ~ resource \"aws_lambda_function\" \"thumbnailer\" {\n"
    "        id                             = \"media-prod-thumbnailer\"\n"
    "      ~ last_modified                  = \"2025-11-12T08:44:03.000+0000\" -> (known after apply)\n"
    "      ~ source_code_hash               = \"q5x1vKJ3m0dHq4kL2hS0Jm5yq9n3x0n8s1J0oG1rTz8=\" -> \"Wm0sZP0Q3uXo2m1d3Cq1rB2Q8G3f1qkq2YQ9w6b1m0Q=\"\n"
    "        tags                           = {}\n"
    "        # (21 unchanged attributes hidden)\n\n"
    "        # (4 unchanged blocks hidden)\n    }\n\n"
    "Plan: 0 to add, 1 to change, 0 to destroy.\n\n"
    "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\n\n"
    "Saved the plan to: /tmp/thumb.plan\n\nTo perform exactly these actions, run the following command to apply:\n    terraform apply \"/tmp/thumb.plan\"\n",
)
s.bash("unzip -l modules/thumbnailer/build/thumbnailer.zip | tail -1 && unzip -l modules/thumbnailer/build/thumbnailer.zip | grep -c 'PIL/'", " 13207415                     162 files\n131\n")
s.assistant(
    "plan is clean: 0 to add, 1 to change (the function's code hash), 0 to destroy, saved to /tmp/thumb.plan. the zip has Pillow now (162 files, 13.2 MB unzipped). "
    "i did not apply. i used `-lock=false` because plan only reads; tell me if you'd rather i take the lock.\n\n"
    "to apply: `scripts/build_lambda.sh` then `terraform plan`/`apply` in envs/prod. CI must run the script before plan too, otherwise archive_file fails on the missing folder."
)

# ============================================================================================ turn 2
s.user(
    "applied. worse now, different error:\n\n"
    "```\n"
    "INIT_START Runtime Version: python:3.12.v38\tRuntime Version ARN: arn:aws:lambda:eu-north-1::runtime:8a3c0d41f9c4\n"
    "[ERROR] Runtime.ImportModuleError: Unable to import module 'handler': /var/task/PIL/_imaging.cpython-312-x86_64-linux-gnu.so: cannot open shared object file: No such file or directory\n"
    "Traceback (most recent call last):\n"
    "INIT_REPORT Init Duration: 530.12 ms\tPhase: init\tStatus: error\tError Type: Runtime.ImportModuleError\n"
    "REPORT RequestId: 0d7e55b1-8a3f-4e0c-b2a6-71f9d3c4e820\tDuration: 3000.00 ms\tBilled Duration: 3000 ms\tMemory Size: 128 MB\tMax Memory Used: 44 MB\tStatus: timeout\n"
    "```\n\n"
    "and also before it broke, when it worked in serverless, we had this in the bucket (i listed it just now):\n\n"
    "```\n"
    "$ aws s3 ls s3://acme-media-prod/thumbs/thumbs/thumbs/ --recursive | head -3\n"
    "2025-10-30 17:02:11      18822 thumbs/thumbs/thumbs/uploads/2025/10/boat.jpg\n"
    "2025-10-30 17:02:12      18790 thumbs/thumbs/thumbs/thumbs/uploads/2025/10/boat.jpg\n"
    "2025-10-30 17:02:12      18811 thumbs/thumbs/thumbs/thumbs/thumbs/uploads/2025/10/boat.jpg\n"
    "```\n\n"
    "so it triggers itself. fix both (still plan only) (thumbnails must stay in the same bucket, the CDN config points at acme-media-prod/thumbs/)"
)
s.bash("grep -n 'architectures' modules/thumbnailer/lambda.tf", "12:  architectures    = [\"arm64\"]\n")
s.assistant(
    "first one is my mistake: the function runs on `arm64` (Graviton), and the build script asked pip for `manylinux2014_x86_64` wheels, so Pillow's C extension "
    "is an x86-64 .so the arm64 runtime can't load. the platform has to be `manylinux2014_aarch64`.\n\n"
    "second: the notification fires on every ObjectCreated in the bucket, including the thumbnails the function writes itself, and `thumb_key` prefixes "
    "\"thumbs/\" again each time, so each thumbnail triggers the next. fix in two places: S3 notification only for `uploads/`, and the handler ignores anything under `thumbs/` "
    "in case someone widens the filter again."
)
s.edit("scripts/build_lambda.sh", "  --platform manylinux2014_x86_64 --implementation cp --python-version 3.12 --only-binary=:all: \\\n",
       "  --platform manylinux2014_aarch64 --implementation cp --python-version 3.12 --only-binary=:all: \\\n")
s.edit("scripts/build_lambda.sh", "# No docker (the CI runner has none): pip downloads the manylinux wheels for the runtime directly.\n",
       "# No docker (the CI runner has none): pip downloads the manylinux wheels for the runtime directly.\n"
       "# aarch64: the function runs on arm64 (lambda.tf architectures); keep both in step.\n")
s.edit(M + "lambda.tf", '''    events              = ["s3:ObjectCreated:*"]
''', '''    events              = ["s3:ObjectCreated:*"]
    # Only originals: the function writes thumbs/ into this same bucket (the CDN serves it from there).
    filter_prefix = "uploads/"
''')
s.edit(M + "src/handler.py", '''def thumb_key(key: str) -> str:
    return "thumbs/" + key
''', '''def thumb_key(key: str) -> str:
    """uploads/2025/cat.png -> thumbs/2025/cat.jpg"""
    rest = key.removeprefix("uploads/")
    return "thumbs/" + rest.rsplit(".", 1)[0] + ".jpg"


def is_original(key: str) -> bool:
    # Never react to our own output: a thumbnail must not trigger another thumbnail.
    return key.startswith("uploads/") and not key.startswith("thumbs/")
''')
s.edit(M + "src/handler.py", '''        key = urllib.parse.unquote_plus(record["s3"]["object"]["key"])
''', '''        key = urllib.parse.unquote_plus(record["s3"]["object"]["key"])
        if not is_original(key):
            continue
''')
s.write(M + "tests/test_handler.py", '''import pytest

from handler import is_original, thumb_key


def test_thumb_key_drops_the_uploads_prefix_and_makes_a_jpg():
    assert thumb_key("uploads/2025/10/boat.png") == "thumbs/2025/10/boat.jpg"


@pytest.mark.parametrize("key", ["thumbs/2025/10/boat.jpg", "thumbs/thumbs/uploads/2025/10/boat.jpg", "exports/x.csv"])
def test_only_uploads_are_originals(key):
    assert not is_original(key)


def test_upload_is_original():
    assert is_original("uploads/2025/10/boat.jpg")
''')
s.bash(
    "cd modules/thumbnailer && PYTHONPATH=src python3 -m pytest -q tests",
    "\n==================================== ERRORS ====================================\n"
    "____________________ ERROR collecting tests/test_handler.py ____________________\n"
    "ImportError while importing test module '/home/oskar/infra/media-platform/modules/thumbnailer/tests/test_handler.py'.\n"
    "Hint: make sure your test modules/packages have valid Python names.\n"
    "Traceback:\n"
    "/usr/lib/python3.12/importlib/__init__.py:90: in import_module\n"
    "    return _bootstrap._gcd_import(name[level:], package, level)\n"
    "tests/test_handler.py:3: in <module>\n"
    "    from handler import is_original, thumb_key\n"
    "src/handler.py:8: in <module>\n"
    "    from PIL import Image\n"
    "E   ModuleNotFoundError: No module named 'PIL'\n"
    "=========================== short test summary info ============================\n"
    "ERROR tests/test_handler.py\n"
    "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n"
    "1 error in 0.21s\n",
    code=2,
)
s.bash("cd modules/thumbnailer && ls -d .venv 2>/dev/null; python3 -m venv .venv && .venv/bin/pip install -q -r requirements.txt pytest boto3 && PYTHONPATH=src .venv/bin/pytest -q tests",
       "....\n4 passed in 0.38s\n")
s.bash("grep -n '.venv\\|build/' .gitignore", "3:build/\n", code=0)
s.files[".gitignore"] = ".terraform/\n*.tfstate*\nbuild/\n"
s.edit(".gitignore", "build/\n", "build/\n.venv/\n", text="the test import needed Pillow locally (new .venv in the module, not committed):")
s.bash("scripts/build_lambda.sh && file modules/thumbnailer/build/pkg/PIL/_imaging.cpython-312-*.so",
       "built /home/oskar/infra/media-platform/modules/thumbnailer/build/pkg (12M)\n"
       "modules/thumbnailer/build/pkg/PIL/_imaging.cpython-312-aarch64-linux-gnu.so: ELF 64-bit LSB shared object, ARM aarch64, version 1 (SYSV), dynamically linked, stripped\n")
s.bash(
    "cd envs/prod && terraform plan -lock=false -out=/tmp/thumb.plan | grep -E '^  #|~ |\\+ |Plan:'",
    "  # module.thumbnailer.aws_lambda_function.thumbnailer will be updated in-place\n"
    "      ~ source_code_hash               = \"Wm0sZP0Q3uXo2m1d3Cq1rB2Q8G3f1qkq2YQ9w6b1m0Q=\" -> \"d2VsbCBkb25lLCB5b3UgZGVjb2RlZCBpdA0KAAAAAAA=\"\n"
    "  # module.thumbnailer.aws_s3_bucket_notification.media will be updated in-place\n"
    "      ~ lambda_function {\n"
    "          + filter_prefix       = \"uploads/\"\n"
    "Plan: 0 to add, 2 to change, 0 to destroy.\n",
)
s.assistant(
    "both fixed, plan saved to /tmp/thumb.plan (0 add, 2 change, 0 destroy), not applied:\n\n"
    "- build script now fetches `manylinux2014_aarch64` wheels; `_imaging` is an ARM aarch64 .so now\n"
    "- S3 notification has `filter_prefix = \"uploads/\"`, and the handler skips any key that is not under uploads/ (so thumbs/ never triggers)\n"
    "- thumbnails stay in acme-media-prod, but the key changed: `uploads/2025/10/boat.png` -> `thumbs/2025/10/boat.jpg` (before it was `thumbs/uploads/2025/10/boat.png`, "
    "with the original extension). if the CDN or the app builds thumbnail urls from the old pattern, that needs changing too. tell me if you'd rather keep the old key scheme\n"
    "- tests: 4 pass (module .venv with Pillow, boto3, pytest; .venv/ gitignored)\n\n"
    "the leftover thumbs/thumbs/... objects are still in the bucket, i didn't touch s3."
)

# ============================================================================================ turn 3
s.user(
    "keep the new key scheme, the app team confirmed they use thumbs/<path>.jpg already (the old one was a bug). "
    "now tflint in CI complains:\n\n"
    "```\n"
    "3 issue(s) found:\n\n"
    "Warning: Missing version constraint for provider \"archive\" in `required_providers` (terraform_required_providers)\n\n"
    "  on modules/thumbnailer/lambda.tf line 1:\n"
    "   1: data \"archive_file\" \"thumbnailer\" {\n\n"
    "Reference: https://github.com/terraform-linters/tflint-ruleset-terraform/blob/v0.9.1/docs/rules/terraform_required_providers.md\n\n"
    "Warning: variable \"log_retention_days\" is declared but not used (terraform_unused_declarations)\n\n"
    "  on modules/thumbnailer/variables.tf line 9:\n"
    "   9: variable \"log_retention_days\" {\n\n"
    "Notice: \"aws_lambda_function.thumbnailer\" timeout of 3 seconds is below 10 (custom_lambda_timeout)\n"
    "```\n\n"
    "and set timeout 30 and memory 512, big jpgs from phones need it (don't touch envs/prod/backend.tf, state is shared with the other team) "
    "(log_retention_days: wire it to a log group, 14 days, don't delete the variable)"
)
s.bash("sed -n '1,20p' modules/thumbnailer/variables.tf",
       "variable \"prefix\" {\n  type        = string\n  description = \"Name prefix, e.g. media-prod\"\n}\n\n"
       "# Days to keep the function's CloudWatch logs.\n\nvariable \"log_retention_days\" {\n  type    = number\n  default = 14\n}\n")
s.edit(M + "versions.tf", '''    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.70"
    }
''', '''    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.70"
    }
    archive = {
      source  = "hashicorp/archive"
      version = "~> 2.6"
    }
''')
s.edit(M + "lambda.tf", '''  timeout          = 3
  memory_size      = 128
''', '''  # Phone JPEGs (12+ MP) need the memory; 3 s was also too short for the decode.
  timeout     = 30
  memory_size = 512
''')
s.edit(M + "lambda.tf", '''resource "aws_lambda_permission" "s3" {''', '''# Created before the function's first log line, so retention applies from the start.
resource "aws_cloudwatch_log_group" "thumbnailer" {
  name              = "/aws/lambda/${var.prefix}-thumbnailer"
  retention_in_days = var.log_retention_days
}

resource "aws_lambda_permission" "s3" {''')
s.bash("cd modules/thumbnailer && terraform fmt -check -diff && tflint --config ../../.tflint.hcl",
       "lambda.tf\n--- old/lambda.tf\n+++ new/lambda.tf\n@@ -13,8 +13,8 @@\n   source_code_hash = data.archive_file.thumbnailer.output_base64sha256\n   # Phone JPEGs (12+ MP) need the memory; 3 s was also too short for the decode.\n-  timeout     = 30\n-  memory_size = 512\n+  timeout          = 30\n+  memory_size      = 512\n \n   environment {\n",
       code=3)
s.bash("cd modules/thumbnailer && terraform fmt && tflint --config ../../.tflint.hcl && echo tflint-ok", "lambda.tf\ntflint-ok\n")
s.bash(
    "cd envs/prod && terraform init -upgrade=false >/dev/null && terraform plan -lock=false -out=/tmp/thumb.plan",
    PLAN_HEAD +
    "module.thumbnailer.aws_lambda_function.thumbnailer: Refreshing state... [id=media-prod-thumbnailer]\n"
    "module.thumbnailer.aws_lambda_permission.s3: Refreshing state... [id=AllowS3Invoke]\n"
    "module.thumbnailer.aws_s3_bucket_notification.media: Refreshing state... [id=acme-media-prod]\n\n"
    "Terraform used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:\n"
    "  + create\n  ~ update in-place\n\nTerraform will perform the following actions:\n\n"
    "  # module.thumbnailer.aws_cloudwatch_log_group.thumbnailer will be created\n"
    "  + resource \"aws_cloudwatch_log_group\" \"thumbnailer\" {\n      + name              = \"/aws/lambda/media-prod-thumbnailer\"\n      + retention_in_days = 14\n      + skip_destroy      = false\n    }\n\n"
    "  # module.thumbnailer.aws_lambda_function.thumbnailer will be updated in-place\n"
    "  ~ resource \"aws_lambda_function\" \"thumbnailer\" {\n"
    "      ~ memory_size                    = 128 -> 512\n      ~ source_code_hash               = \"Wm0sZP0Q3uXo2m1d3Cq1rB2Q8G3f1qkq2YQ9w6b1m0Q=\" -> \"d2VsbCBkb25lLCB5b3UgZGVjb2RlZCBpdA0KAAAAAAA=\"\n      ~ timeout                        = 3 -> 30\n    }\n\n"
    "  # module.thumbnailer.aws_s3_bucket_notification.media will be updated in-place\n"
    "      ~ lambda_function {\n          + filter_prefix       = \"uploads/\"\n        }\n\n"
    "Plan: 1 to add, 2 to change, 0 to destroy.\n\n"
    "Saved the plan to: /tmp/thumb.plan\n",
)
s.bash("aws logs describe-log-groups --log-group-name-prefix /aws/lambda/media-prod-thumbnailer --query 'logGroups[].[logGroupName,retentionInDays,storedBytes]' --output text",
       "/aws/lambda/media-prod-thumbnailer\tNone\t918233\n",
       text="plan wants to create the log group, but lambda makes `/aws/lambda/<function>` on its own at the first invoke. checking (read-only):")
s.assistant(
    "careful: the plan wants to create the log group, but `/aws/lambda/media-prod-thumbnailer` already exists (lambda created it on its first run, retention None = never expire, 918 kB), "
    "so the apply would fail with ResourceAlreadyExistsException. it has to be imported into state first. that writes to the shared state, so i didn't do it; the command for you, in envs/prod:\n\n"
    "`terraform import module.thumbnailer.aws_cloudwatch_log_group.thumbnailer /aws/lambda/media-prod-thumbnailer`\n\n"
    "(or an `import {}` block if you prefer it reviewed in the plan.)"
)

# ============================================================================================ turn 4
s.user("use an import block, i want it in the plan (not the cli, the other team reviews plans not commands)")
s.write("envs/prod/imports.tf", '''# The log group was created by Lambda on its first run, before Terraform managed it.
# Remove this block once the import has been applied.
import {
  to = module.thumbnailer.aws_cloudwatch_log_group.thumbnailer
  id = "/aws/lambda/media-prod-thumbnailer"
}
''')
s.bash("cd envs/prod && terraform plan -lock=false -out=/tmp/thumb.plan | grep -E '^  #|Plan:|import'",
       "  # module.thumbnailer.aws_cloudwatch_log_group.thumbnailer will be updated in-place\n"
       "  # (imported from \"/aws/lambda/media-prod-thumbnailer\")\n"
       "  # module.thumbnailer.aws_lambda_function.thumbnailer will be updated in-place\n"
       "  # module.thumbnailer.aws_s3_bucket_notification.media will be updated in-place\n"
       "Plan: 1 to import, 0 to add, 3 to change, 0 to destroy.\n")
s.bash("git status --short", " M .gitignore\n M modules/thumbnailer/lambda.tf\n M modules/thumbnailer/src/handler.py\n M modules/thumbnailer/tests/test_handler.py\n M modules/thumbnailer/versions.tf\n?? envs/prod/imports.tf\n?? scripts/build_lambda.sh\n")
s.assistant(
    "plan saved to /tmp/thumb.plan: 1 to import, 0 to add, 3 to change, 0 to destroy. nothing applied, backend.tf untouched, nothing committed.\n\n"
    "- `envs/prod/imports.tf`: import block for the existing log group (delete the file after the apply)\n"
    "- log group with `retention_in_days = var.log_retention_days` (14), variable kept\n"
    "- timeout 30 s, memory 512 MB\n"
    "- archive provider pinned `~> 2.6` in versions.tf; tflint and fmt clean\n\n"
    "still yours to do: run `scripts/build_lambda.sh` in CI before plan (the pipeline file isn't in this repo), apply, and clean up the old thumbs/thumbs/... objects in acme-media-prod."
)

s.save(HERE / "session.jsonl")
