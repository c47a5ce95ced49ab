from __future__ import annotations

from sessions_app.presenters.markdown import render_markdown


def test_escapes_before_formatting() -> None:
    html = render_markdown('## Title <script>x</script>\n- **b** `<i>`\n\n<img src=x onerror="y">')
    assert "<h4>Title &lt;script&gt;x&lt;/script&gt;</h4>" in html
    assert "<li><strong>b</strong> <code>&lt;i&gt;</code></li>" in html
    assert "&lt;img src=x onerror=&quot;y&quot;&gt;" in html
    assert "<img" not in html and "<script" not in html


def test_lists_code_fences_and_tag_blocks() -> None:
    text = "1. one\n2. two\n   more\n\n```\n<b>raw</b>\n```\n<read-files>\na.py\n</read-files>\nplain"
    html = render_markdown(text)
    assert "<ol><li>one</li><li>two<br>more</li></ol>" in html
    assert "<pre><code>&lt;b&gt;raw&lt;/b&gt;</code></pre>" in html
    assert '<div class="md-block-label">read-files</div><pre>a.py</pre>' in html
    assert "<p>plain</p>" in html


def test_links_and_unclosed_tags_stay_text() -> None:
    html = render_markdown("[x](javascript:alert(1)) <summary>\nstill text")
    assert "href" not in html and "javascript:alert(1)" in html
    assert "&lt;summary&gt;" in html


def test_task_items() -> None:
    html = render_markdown("- [x] done <b>\n- [ ] open")
    assert 'aria-label="done">✓</span> done &lt;b&gt;' in html
    assert 'aria-label="open">○</span> open' in html
