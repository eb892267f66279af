"""Question and passage terms: stop words, stems, and the fast stem count agreeing with
stemming every word."""

from __future__ import annotations

from collections import Counter

from services.copilot import terms

TEXT = (
    "Using the penalties clause, the parties tried to terminate the contracts early; "
    "termination penalties apply. Try again: the supplier uses trying terms. Über café naïve."
)


def test_content_words_drop_stop_words_and_repeats():
    assert terms.content_words("What is the penalty of the penalty clause?") == [
        "penalty",
        "clause",
    ]


def test_counting_only_wanted_stems_agrees_with_stemming_every_word():
    every = Counter(terms.stems(TEXT))
    wanted = set(every)
    counted, length = terms.count_stems(TEXT, wanted)
    assert counted == every and length == len(terms.words(TEXT))
    some = {terms.stem("penalty"), terms.stem("use"), terms.stem("try")}
    assert terms.count_stems(TEXT, some)[0] == {s: every[s] for s in some}
