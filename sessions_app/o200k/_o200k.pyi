"""Fast o200k_base token counting; see sessions_app.o200k.Counter, which falls back to tiktoken."""

class Counter:
    """Token counter over tiktoken's mergeable ranks (`Encoding._mergeable_ranks` of o200k_base)."""

    def __init__(self, ranks: dict[bytes, int]) -> None: ...
    def count(self, text: str) -> int:
        """len(encode_ordinary(text)), or -1 when unsure (the caller asks tiktoken then)."""

    def count_many(self, texts: list[str] | tuple[str, ...]) -> list[int]:
        """count() of each text (-1 where unsure), with the GIL released once for the batch."""

    def __len__(self) -> int: ...
