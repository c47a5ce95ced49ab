# ruff: noqa: E501
"""Labels for pi-terraform-thumbnailer, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "media-platform (Terraform): S3 thumbnail Lambda — package Pillow without docker, arm64 wheels, self-triggering loop, timeout/memory, log group import",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3 test split",
    "voice": "pastes CloudWatch logs, S3 listings and tflint output into its own messages; lower-case; every rule in parentheses",
    "toolchain": "Terraform 1.9 (aws + archive providers, S3 backend), tflint, Python 3.12 Lambda (Pillow, boto3) with pytest, pip cross-platform wheels",
}
COMPACTIONS = [
    ("plan is clean: 0 to add, 1 to change", 1000),
    ("both fixed, plan saved to /tmp/thumb.plan", 1200),
    ("careful: the plan wants to create the log group", 600),
]
FACTS = [
    f("f01", "request", "must", "the thumbnailer lambda never worked since we moved it to terraform", "Fix the thumbnailer Lambda (modules/thumbnailer, env envs/prod): every upload fails with Runtime.ImportModuleError No module named 'PIL' since the move to Terraform.", [r"\bPIL\b|Pillow|ImportModuleError", r"lambda|thumbnailer|import|packag"], "done"),
    f("f02", "constraint", "must", "(terraform plan only, never apply, I apply myself after review)", "terraform plan only, never apply: the user applies after review.", [r"\bappl(y|ies|ied)\b", r"never appl|plan only|only plan|not appl|didn.?t apply|apply myself|user appl"]),
    f("f03", "constraint", "must", "(the CI runner has no docker so no docker-based builds)", "No docker-based builds: the CI runner has no docker.", [r"docker", r"\bCI\b|runner"]),
    f("f04", "constraint", "should", "(no public layers like Klayers, security said no)", "No public Lambda layers such as Klayers (security said no).", [r"layer|Klayers", r"\bno\b|public|security|not"]),
    f("f05", "finding", "must", "the zip terraform uploads only contains handler.py", "Cause: archive_file zipped only src/ (handler.py, 1 file); nothing installed requirements.txt (Pillow 11.0.0) — serverless.yml used to do that.", [r"handler\.py|archive_file|\bzip", r"Pillow|requirements|1 file"]),
    f("f06", "finding", "nice", "the 3 s timeout in the REPORT line is the init failing", "The 3 s timeout in the REPORT line came from the failing init, not slow code.", [r"\b3 ?s\b|3000 ?ms|timeout", r"\binit\b"]),
    f("f07", "decision", "must", "without docker and without public layers, the way is pip's", "Build without docker: pip install --platform <manylinux> --only-binary=:all: --target build/pkg, copy src/*.py next to it, archive_file zips build/pkg (scripts/build_lambda.sh).", [r"--platform|only-binary|build_lambda|\bpip\b", r"build/pkg|wheel|manylinux|target"]),
    f("f08", "path", "must", "CI must run the script before plan too", "scripts/build_lambda.sh must run before terraform plan (also in CI, whose pipeline file is not in this repo), or archive_file fails on the missing folder.", [r"build_lambda", r"before|\bCI\b|plan"]),
    f("f09", "error", "should", "error archiving directory: could not archive missing directory", "terraform plan: Archive creation error, could not archive missing directory: build/pkg.", [r"missing directory|Archive creation error|could not archive"], "fixed"),
    f("f10", "fix", "should", "relative paths in a module resolve against the directory", "Fix: source_dir = \"${path.module}/build/pkg\" (relative paths resolve against envs/prod, where terraform runs).", [r"path\.module", r"relative|build/pkg|module|resolve"]),
    f("f11", "value", "nice", " 13207415                     162 files", "The new zip: 162 files, 13.2 MB unzipped, Pillow included.", [r"162 files|13\.2 ?MB|13207415"]),
    f("f12", "decision", "nice", "i used `-lock=false` because plan only reads", "Plans are run with -lock=false (read only); the agent offered to take the lock instead.", [r"-lock=false|take the lock|state lock"]),
    f("f13", "error", "must", "_imaging.cpython-312-x86_64-linux-gnu.so: cannot open shared object", "After the user's apply: ImportModuleError, PIL/_imaging.cpython-312-x86_64-linux-gnu.so cannot open shared object file — x86_64 wheels on an arm64 function.", [r"x86_64|x86-64|_imaging|shared object"], "fixed"),
    f("f14", "finding", "must", "first one is my mistake: the function runs on `arm64`", "The function runs on arm64 (lambda.tf architectures); the build must fetch manylinux2014_aarch64 wheels — keep the two in step.", [r"arm64|aarch64|graviton", r"platform|wheel|manylinux|build|architecture"]),
    f("f15", "error", "must", "thumbs/thumbs/thumbs/thumbs/thumbs/uploads/2025/10/boat.jpg", "The function triggered itself: the notification fired on its own thumbnails, producing thumbs/thumbs/... keys.", [r"thumbs/thumbs|recursi|triggers? itself|retrigger|self-trigger|(trigger|invok)\w* (the function |the lambda )?again"], "fixed"),
    f("f16", "constraint", "must", "(thumbnails must stay in the same bucket", "Thumbnails must stay in the same bucket acme-media-prod (the CDN points at acme-media-prod/thumbs/).", [r"same bucket|acme-media-prod|\bCDN\b", r"thumb"]),
    f("f17", "fix", "must", "- S3 notification has `filter_prefix", "Fix: the S3 notification has filter_prefix = \"uploads/\" and the handler skips keys not under uploads/ (is_original).", [r"filter_prefix|uploads/", r"notification|handler|skip|is_original|prefix"]),
    f("f18", "decision", "should", "keep the new key scheme, the app team confirmed", "Keep the new thumbnail key scheme uploads/<path>.<ext> -> thumbs/<path>.jpg (the app already uses it; the old thumbs/uploads/... was a bug).", [r"\.jpg", r"thumbs/", r"key|scheme|keep"]),
    f("f19", "error", "nice", "E   ModuleNotFoundError: No module named 'PIL'", "Locally pytest could not import PIL; tests run from a module .venv with Pillow, boto3 and pytest (.venv/ gitignored).", [r"ModuleNotFoundError|No module named|\bPIL\b", r"test|collect|venv|local"], "fixed"),
    f("f20", "command", "should", "PYTHONPATH=src .venv/bin/pytest -q tests", "Handler tests: cd modules/thumbnailer && PYTHONPATH=src .venv/bin/pytest -q tests.", [r"pytest", r"PYTHONPATH=src|\.venv|modules/thumbnailer"]),
    f("f21", "value", "nice", "4 passed in 0.38s", "4 handler tests pass.", [r"\b4 (handler )?(tests )?pass"]),
    f("f22", "finding", "should", "the leftover thumbs/thumbs/... objects are still in the bucket", "The old thumbs/thumbs/... objects are still in acme-media-prod (S3 not touched); cleanup is the user's.", [r"thumbs/thumbs|old thumbnails|leftover", r"bucket|objects|clean|\bS3\b"], "open"),
    f("f23", "request", "should", "and set timeout 30 and memory 512", "Timeout 30 s and memory 512 MB (big phone JPEGs).", [r"\b30\b", r"\b512\b"], "done"),
    f("f24", "constraint", "must", "(don't touch envs/prod/backend.tf", "Don't touch envs/prod/backend.tf: the state is shared with another team.", [r"backend(\.tf)?|\bstate\b", r"don.?t|\bnot\b|untouched|shared|other team"]),
    f("f25", "request", "should", "(log_retention_days: wire it to a log group", "Wire log_retention_days to a CloudWatch log group (14 days); keep the variable.", [r"log_retention_days|retention", r"14|log group|keep|variable"], "done"),
    f("f26", "error", "should", "Warning: Missing version constraint for provider", "tflint: missing version constraint for the archive provider; pinned ~> 2.6 in versions.tf.", [r"archive", r"version|constraint|pin|required_providers"], "fixed"),
    f("f27", "finding", "must", "careful: the plan wants to create the log group", "The log group /aws/lambda/media-prod-thumbnailer already exists (made by Lambda, no retention): creating it would fail with ResourceAlreadyExistsException; it must be imported.", [r"log group", r"already exists|import|ResourceAlreadyExists"]),
    f("f28", "decision", "must", "use an import block, i want it in the plan", "Import it with an import {} block (envs/prod/imports.tf), not the CLI: the other team reviews plans, not commands.", [r"import \{|import block|imports\.tf"]),
    f("f29", "state", "should", "plan saved to /tmp/thumb.plan: 1 to import", "Final plan /tmp/thumb.plan: 1 to import, 0 to add, 3 to change, 0 to destroy; nothing applied, nothing committed.", [r"1 to import|/tmp/thumb\.plan", r"plan|import|change"]),
    f("f30", "request", "should", "import block for the existing log group (delete the file after the apply)", "Open: delete envs/prod/imports.tf once the import has been applied.", [r"imports\.tf|import block", r"delet|remov|after (the )?apply"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
