"""A tool call whose only argument is a patch (Codex's apply_patch) shows the patch as text; any
other call shows its arguments as JSON."""

from __future__ import annotations

from sessions_app.presenters.content import block_views

PATCH = "*** Begin Patch\n*** Update File: app.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"


def test_a_patch_reads_as_the_patch():
    [view] = block_views(
        [{"type": "tool_call", "id": "c1", "name": "apply_patch", "arguments": {"patch": PATCH}}]
    )
    assert view.text == PATCH


def test_other_arguments_stay_json():
    [view] = block_views(
        [{"type": "tool_call", "id": "c2", "name": "shell", "arguments": {"patch": PATCH, "cwd": "/w"}}]
    )
    assert view.text.startswith("{") and '"cwd": "/w"' in view.text
