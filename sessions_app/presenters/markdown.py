"""A small, safe Markdown subset for summaries: the text is HTML-escaped FIRST, then a few
constructs are turned into markup built here (never from the input).

Supported: `#`–`######` headings, `-`/`*`/`+` bullets and `1.` numbered items (one level, with
indented continuation), fenced code blocks, inline `code`, **bold**, paragraphs, and the
`<read-files>` / `<modified-files>` / `<summary>`-style tag blocks that summaries carry, shown as
labelled blocks. Links and raw HTML are never rendered: they stay visible as escaped text.
"""

from __future__ import annotations

import re
from html import escape

from django.utils.safestring import SafeString, mark_safe

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d{1,4})[.)]\s+(.*)$")
_FENCE = re.compile(r"^\s*```")
# Applied to already-escaped text: `&lt;read-files&gt;` on a line of its own.
_TAG_OPEN = re.compile(r"^&lt;([a-z][a-z0-9_-]{0,40})&gt;$")
_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*([^*\n]+)\*\*")


def _inline(escaped: str) -> str:
    # Code spans first, so that ** inside them stays literal.
    parts = _CODE.split(escaped)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{part}</code>")
        else:
            out.append(_BOLD.sub(r"<strong>\1</strong>", part))
    return "".join(out)


def _task(item: str) -> str:
    """`[x] done` / `[ ] open` list items (summaries use them for progress)."""
    if item.startswith(("[x] ", "[X] ")):
        return '<span class="md-check done" aria-label="done">✓</span> ' + item[4:]
    if item.startswith("[ ] "):
        return '<span class="md-check" aria-label="open">○</span> ' + item[4:]
    return item


def render_markdown(text: str) -> SafeString:
    lines = escape(text or "", quote=True).replace("\r\n", "\n").split("\n")
    html: list[str] = []
    para: list[str] = []
    list_tag: str | None = None
    items: list[str] = []

    def flush_para() -> None:
        if para:
            html.append("<p>" + "<br>".join(_inline(p) for p in para) + "</p>")
            para.clear()

    def flush_list() -> None:
        nonlocal list_tag
        if list_tag:
            html.append(f"<{list_tag}>" + "".join(f"<li>{i}</li>" for i in items) + f"</{list_tag}>")
            items.clear()
            list_tag = None

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if _FENCE.match(line):
            flush_para()
            flush_list()
            body = []
            i += 1
            while i < len(lines) and not _FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            html.append("<pre><code>" + "\n".join(body) + "</code></pre>")
            i += 1
            continue
        tag = _TAG_OPEN.match(stripped)
        if tag:
            name = tag.group(1)
            close = f"&lt;/{name}&gt;"
            body = []
            j = i + 1
            while j < len(lines) and lines[j].strip() != close:
                body.append(lines[j])
                j += 1
            if j < len(lines):  # a closed block: show it labelled
                flush_para()
                flush_list()
                html.append(
                    f'<div class="md-block"><div class="md-block-label">{name}</div>'
                    "<pre>" + "\n".join(body) + "</pre></div>"
                )
                i = j + 1
                continue
        heading = _HEADING.match(stripped)
        if heading:
            flush_para()
            flush_list()
            level = min(len(heading.group(1)) + 2, 6)  # summaries sit under the page's own h1/h2
            html.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        bullet = _BULLET.match(line)
        numbered = None if bullet else _NUMBERED.match(line)
        if bullet or numbered:
            flush_para()
            tag_name = "ul" if bullet else "ol"
            if list_tag != tag_name:
                flush_list()
                list_tag = tag_name
            content = bullet.group(1) if bullet else numbered.group(2)  # type: ignore[union-attr]
            items.append(_task(_inline(content)))
            i += 1
            continue
        if not stripped:
            flush_para()
            flush_list()
            i += 1
            continue
        if list_tag and line.startswith(("  ", "\t")) and items:
            items[-1] += "<br>" + _inline(stripped)
            i += 1
            continue
        flush_list()
        para.append(stripped)
        i += 1
    flush_para()
    flush_list()
    # Safe: every byte of the input was HTML-escaped above; only markup built here is added.
    return mark_safe("\n".join(html))
