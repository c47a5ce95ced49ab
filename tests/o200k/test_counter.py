"""The C token counter (`_o200k`) against tiktoken, the reference: the exact same count, or -1;
and the guard that falls back to tiktoken for an encoding the C counter was not built for."""

from __future__ import annotations

import base64
import functools
import itertools
import json
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import tiktoken
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sessions_app import o200k
from sessions_app.compaction import tokens
from sessions_app.compaction.tokens import count_text
from sessions_app.o200k import counting as counter_module
from sessions_app.o200k import unicode_tables as o200k_unicode

from ..compaction.fixtures import BEFORE, LARGE

_missing: ImportError | None = None
try:
    from sessions_app.o200k import _o200k
except ImportError as e:  # every test below fails (never skips); the rest of the suite still runs
    _missing = e


@pytest.fixture(autouse=True)
def _extension_is_built() -> None:
    if _missing is not None:
        pytest.fail(f"the C extension is not built (run `pip install -e .`): {_missing}")


PROPS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def counter() -> _o200k.Counter:
    c = o200k.fast_counter()
    assert c is not None, "count_text is not using the C counter"
    return c


def reference(text: str) -> int:
    return len(o200k.encoding().encode_ordinary(text))


@functools.cache
def table() -> o200k_unicode.Table:
    return o200k_unicode.build()


@functools.cache
def unknown_ranges() -> list[tuple[int, int]]:
    return [(first, last) for first, last, bits in table().ranges if bits & o200k_unicode.UNKNOWN]


def unsure_is_allowed(text: str) -> bool:
    """-1 is only for texts with a lone surrogate or an UNKNOWN code point."""
    ranges = unknown_ranges()
    for ch in text:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF or any(first <= cp <= last for first, last in ranges):
            return True
    return False


def check(text: str) -> None:
    expected = reference(text)
    n = counter().count(text)
    if n == -1:
        assert unsure_is_allowed(text), text
    else:
        assert n == expected, text
    assert count_text(text) == (expected if text else 0)


# Pieces chosen to hit every branch of the split pattern: case classes, contractions in all cases
# (and U+017F, which case-folds to s), whitespace that is and is not \s (U+001C is not, though
# str.isspace says it is), marks at the start of words, non-ASCII numbers, emoji with ZWJ, lone
# surrogates.
NASTY = [
    *"abcdezABCDEZ",
    *"stremvldSTREMVLD",
    *"0123456789",
    " ",
    "  ",
    "   ",
    "\t",
    "\r",
    "\n",
    "\r\n",
    " \n ",
    "\n\n",
    "\u00a0",
    "\u3000",
    "\u0085",
    "\u001c",
    "\u000b",
    "\u2028",
    "\u200b",
    "'",
    *("'s", "'t", "'re", "'ve", "'m", "'ll", "'d"),
    *("'S", "'T", "'RE", "'Ve", "'vE", "'M", "'LL", "'lL", "'D", "'ſ", "'\u212a"),
    "ſ",
    "\u212a",
    *"ÉΩĀ",  # Lu
    *"éßωā",  # Ll
    *"ǅᾈ",  # Lt
    *"ʰーˆ",  # Lm
    *"א中あ",  # Lo
    "\u0301",
    "\u0308",
    "\u0903",
    "\u20dd",  # Mn, Mn, Mc, Me
    *"½²Ⅻ٣७",  # No, No, Nl, Nd, Nd
    "日本語",
    "👍",
    "🏽",
    "👨\u200d👩\u200d👧",
    "\ufe0f",
    "/",
    "//",
    *'!.,-=#"(){}<>|_*;:?@[]\\',
    "...",
    "-->",
    "<|endoftext|>",
    "\ud800",
    "\udc00",
]
nasty_text = st.lists(st.sampled_from(NASTY), max_size=60).map("".join)
assigned_text = st.text(st.characters(exclude_categories=("Cn", "Cs")))


@PROPS
@given(st.one_of(nasty_text, nasty_text, st.text(), assigned_text))
@example("  hello\n\n  world  ")
@example("don'T DON'S x'ſ I'LL we'Ve")
@example("\u0301A")  # a mark then a capital: alternative 1 matches the mark alone
@example(" \u0301ÉÉ\u0301é")
@example("ǅǅx'S")
@example("\u001c\u001cword")
@example("!\n/\r\n//x")
def test_count_matches_tiktoken(text: str) -> None:
    check(text)


def _fixture_texts() -> list[str]:
    """Every text the estimator counts in both real sessions, plus every other string in them."""
    texts: list[str] = []

    def strings(value: Any) -> None:
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, dict):
            for v in value.values():
                strings(v)
        elif isinstance(value, list):
            for v in value:
                strings(v)

    for path in (LARGE, BEFORE):
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            message = obj.get("message") or {}
            content = message.get("content")
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "toolCall":
                    texts.append(tokens._json_compact(block.get("arguments") or {}))
            strings(obj)  # text/thinking blocks, tool results, bash output, summaries, ...
    return texts


def test_every_fixture_text_counts_exactly() -> None:
    texts = _fixture_texts()
    assert len(texts) > 10_000
    got = counter().count_many(texts)
    assert got == [counter().count(t) for t in texts]
    mismatched = [t for t, n in zip(texts, got, strict=True) if n != reference(t)]
    assert not mismatched, mismatched[:3]


def test_unknown_code_points_make_count_unsure_and_tiktoken_counts() -> None:
    unassigned_then = "\U0001e030"  # CYRILLIC MODIFIER LETTER: Unicode 15, Cn in Python 3.11
    never = "\u0378"  # unassigned in every Unicode version so far
    samples = [unassigned_then, never] + [chr(cp) for cp in table().disagreements]
    for ch in samples:
        text = f"Hello {ch}world, it's 2025"
        assert counter().count(text) == -1, hex(ord(ch))
        assert count_text(text) == reference(text)


def test_every_known_code_point_splits_like_tiktoken() -> None:
    """Checks the generated tables against tiktoken's own regex, code point by code point: each is
    put where its classes decide the split (after a letter, a capital, a space, a digit, ...)."""
    c, checked, wrong = counter(), 0, []
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        text = f"{ch} a{ch} {ch}a A{ch}a  {ch}  {ch}{ch}{ch}{ch} 1{ch}1 {ch}'s !{ch} {ch}\n x{ch}y\u0301"
        n = c.count(text)
        if n == -1:
            continue
        checked += 1
        if n != reference(text):
            wrong.append(f"U+{cp:04X}")
    assert not wrong, wrong[:20]
    assert checked > 250_000


def test_lone_surrogates_go_to_tiktoken() -> None:
    text = "abc \ud800 def \udc00"
    assert counter().count(text) == -1
    assert counter().count_many(["ab", text]) == [1, -1]
    assert count_text(text) == reference(text)  # tiktoken's own replacement of surrogates


@pytest.mark.parametrize(
    "text",
    [
        "-" * 200_000,
        base64.b64encode(random.Random(0).randbytes(75_000)).decode(),  # 100 KB, no spaces
        "a" * 100_000,
        "".join(random.Random(1).choice("!@#$%^&*()[]{}<>-=+~/") for _ in range(1_000_000)),
        " " * 50_000 + "x",
        "\n" * 30_000,
        "1" * 10_000,
    ],
    ids=["dashes", "base64", "letters", "punctuation-1MB", "spaces", "newlines", "digits"],
)
def test_long_pieces_match_tiktoken(text: str) -> None:
    assert counter().count(text) == reference(text)


def test_threads_count_without_interfering() -> None:
    texts = [t for t in _fixture_texts() if len(t) > 5000][:40]
    expected = [counter().count(t) for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(counter().count, texts * 3)) == expected * 3
        assert list(pool.map(counter().count_many, [texts] * 3)) == [expected] * 3


def test_count_text_without_the_extension_uses_tiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "counter", lambda: o200k.Counter(o200k.encoding(), fast=False))
    assert count_text("hello world") == 2
    assert count_text("<|endoftext|>") == reference("<|endoftext|>")


def test_counter_rejects_what_it_cannot_count() -> None:
    # Deliberately wrong types: the C extension must raise TypeError, not crash or guess.
    with pytest.raises(TypeError):
        counter().count(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        counter().count_many(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        _o200k.Counter({b"": 0})
    with pytest.raises(ValueError):
        _o200k.Counter({b"a": -1})
    assert len(counter()) == len(o200k.encoding()._mergeable_ranks)


def merge_count(ranks: dict[bytes, int], piece: bytes) -> int:
    """The BPE rule, slowly: merge the lowest-ranked adjacent pair (leftmost on ties) until none."""
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while True:
        pairs = [(ranks.get(a + b, 1 << 40), i) for i, (a, b) in enumerate(itertools.pairwise(parts))]
        if not pairs or min(pairs)[0] == 1 << 40:
            return len(parts)
        _, i = min(pairs)
        parts[i : i + 2] = [parts[i] + parts[i + 1]]


TINY = {b"a": 10, b"b": 11, b"ab": 1, b"ba": 2, b"aa": 3, b"aab": 4, b"abab": 5, b"bab": 6, b"aaaa": 7}


@PROPS
@given(st.text("ab", max_size=400))  # past 128 bytes the C code merges with a heap
def test_merge_order_follows_ranks(text: str) -> None:
    c = _o200k.Counter(TINY)
    piece = text.encode()
    expected = 1 if piece in TINY else merge_count(TINY, piece)
    assert c.count(text) == (expected if text else 0)


def test_header_is_what_the_generator_writes() -> None:
    assert o200k_unicode.HEADER.read_text() == o200k_unicode.render(table())


def test_generator_classes_match_the_split_pattern() -> None:
    ranges = table().ranges

    def classes(ch: str) -> int:
        return next((bits for first, last, bits in ranges if first <= ord(ch) <= last), 0)

    u = o200k_unicode
    assert classes(" ") == classes("\u3000") == u.SPACE
    assert classes("\u001c") == 0  # not White_Space, whatever str.isspace says
    assert classes("a") == u.L | u.LOWER
    assert classes("A") == classes("ǅ") == u.L | u.UPPER
    assert classes("中") == classes("ʰ") == u.L | u.UPPER | u.LOWER
    assert classes("\u0301") == u.UPPER | u.LOWER  # a mark is in both classes but not a letter
    assert classes("½") == classes("Ⅻ") == u.N
    assert classes("\u0378") == u.UNKNOWN


# --- the guard: the C counter only for the encoding it was built for --------------------------

SAMPLES = ["hello world", "don't STOP  now\n\n", "日本語 ½ 123456", "<|endoftext|>", "", "x" * 300]


@pytest.fixture
def fresh_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard warns once per process; each test starts before that warning."""
    monkeypatch.setattr(counter_module, "_warned", False)


def guard_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == counter_module.__name__]


def test_pattern_is_tiktokens_own(monkeypatch: pytest.MonkeyPatch) -> None:
    import tiktoken_ext.openai_public as public

    monkeypatch.setattr(public, "load_tiktoken_bpe", lambda *args, **kwargs: {})  # no download
    spec = public.o200k_base()
    assert spec["name"] == o200k.ENCODING
    assert spec["pat_str"] == o200k.PATTERN
    assert spec["special_tokens"] == counter_module.SPECIAL_TOKENS


def test_o200k_passes_the_guard(caplog: pytest.LogCaptureFixture, fresh_warning: None) -> None:
    with caplog.at_level(logging.WARNING):
        c = o200k.Counter(o200k.encoding())
    assert c.fast is not None
    assert not guard_warnings(caplog)


def test_another_pattern_falls_back_to_tiktoken_with_one_warning(
    caplog: pytest.LogCaptureFixture, fresh_warning: None
) -> None:
    base = o200k.encoding()
    other = tiktoken.Encoding(
        "o200k_words", pat_str=r"\S+|\s+", mergeable_ranks=base._mergeable_ranks, special_tokens={}
    )
    with caplog.at_level(logging.WARNING):
        first, second = o200k.Counter(other), o200k.Counter(other)
        counts = [first.count(t) for t in SAMPLES]
        many = second.count_many(SAMPLES)
    assert first.fast is None and second.fast is None
    assert counts == many == [len(other.encode_ordinary(t)) for t in SAMPLES]
    assert counts != [len(base.encode_ordinary(t)) for t in SAMPLES]  # the C counter would miscount
    (warning,) = guard_warnings(caplog)
    assert "split pattern" in warning


def test_missing_private_attribute_falls_back_to_tiktoken(
    caplog: pytest.LogCaptureFixture, fresh_warning: None
) -> None:
    base = o200k.encoding()

    class Moved:
        """A tiktoken whose ranks are no longer at `_mergeable_ranks`."""

        _pat_str = o200k.PATTERN

        def encode_ordinary(self, text: str) -> list[int]:
            return base.encode_ordinary(text)

    with caplog.at_level(logging.WARNING):
        c = o200k.Counter(Moved())  # type: ignore[arg-type]  # a duck-typed stand-in, not a tiktoken.Encoding
        counts = c.count_many(SAMPLES) + c.count_many(SAMPLES)
    assert c.fast is None
    assert counts == [len(base.encode_ordinary(t)) for t in SAMPLES] * 2
    (warning,) = guard_warnings(caplog)
    assert "_mergeable_ranks" in warning
