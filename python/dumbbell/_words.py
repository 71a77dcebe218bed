"""Counted nouns for messages: `count(1, "seed")` is "1 seed",
`count(3, "seed")` "3 seeds" (no "1 seeds" in what the tools print)."""


def count(n, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
