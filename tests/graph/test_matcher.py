"""The mention matcher alone: case, word boundaries, overlaps (leftmost, then longest),
Unicode (casefolding, NFKC, non-Latin scripts), aliases, counts and first positions."""

from __future__ import annotations

from services.graph.matcher import MAX_POSITIONS, Matcher
from services.graph.names import keys_of, name_key


def _matcher(**entities: list[str]) -> Matcher:
    """entity id -> [name, *aliases]."""
    return Matcher(
        (entity_id, key)
        for entity_id, names in entities.items()
        for key in keys_of(names[0], names[1:])
    )


def _found(matcher: Matcher, text: str) -> dict[str, tuple[int, list[int]]]:
    return {k: (v.count, v.positions) for k, v in matcher.find(text).items()}


def test_case_does_not_matter_and_positions_are_offsets():
    text = "acme said ACME. Then Acme again."
    assert _found(_matcher(acme=["Acme"]), text) == {"acme": (3, [0, 10, 21])}


def test_only_whole_words_match():
    m = _matcher(ada=["Ada"], cpp=["C++"], at=["AT&T"])
    assert _found(m, "Canada, adamant, Adas, ada_x, 9ada") == {}
    assert _found(m, "(Ada) 'ada' Ada.") == {"ada": (3, [1, 7, 12])}
    # A name ending in punctuation needs no boundary there (C++11 names C++); where it
    # starts or ends with a letter, it does.
    assert _found(m, "C++, C++11? AT&T's xAT&T") == {"cpp": (2, [0, 5]), "at": (1, [12])}


def test_overlaps_take_the_longest_from_the_left():
    m = _matcher(nyt=["New York Times"], ny=["New York"], times=["Times Square"])
    text = "The New York Times Square office; New York; the times."
    assert _found(m, text) == {"nyt": (1, [4]), "ny": (1, [34])}
    # Where the longer name is not complete, the shorter one is found.
    assert _found(m, "New York Time") == {"ny": (1, [0])}


def test_aliases_count_for_their_entity():
    m = _matcher(ibm=["International Business Machines", "IBM", "Big Blue"])
    text = "IBM, also Big Blue, is International Business Machines. ibm."
    assert _found(m, text) == {"ibm": (4, [0, 10, 23, 56])}


def test_unicode_casefolding_normalisation_and_scripts():
    m = _matcher(street=["Große Straße"], munchen=["München"], moscow=["Москва"], tokyo=["東京"])
    # ß casefolds to ss; the offsets stay those of the text as written.
    text = "GROSSE STRASSE and große straße"
    assert _found(m, text) == {"street": (2, [0, 19])}
    # A decomposed ü (u + combining diaeresis) is the same name once normalised.
    assert _found(m, "in Mu\u0308nchen") == {"munchen": (1, [3])}
    assert _found(m, "МОСКВА и Москва, не Москвами") == {"moscow": (2, [0, 9])}  # noqa: RUF001
    # Scripts without spaces: a name inside a run of letters is not a whole word.
    assert _found(m, "東京 and 東京都") == {"tokyo": (1, [0])}


def test_whitespace_inside_names_is_any_whitespace():
    m = _matcher(ny=["New   York"])
    assert name_key("New   York") == "new york"
    assert _found(m, "new\nYork and New\u00a0York") == {"ny": (2, [0, 13])}


def test_two_entities_with_one_name_are_both_found_and_positions_are_capped():
    m = _matcher(a=["Jordan"], b=["Jordan", "Hashemite Kingdom"])
    text = " ".join(["Jordan"] * (MAX_POSITIONS + 5))
    found = _found(m, text)
    assert found["a"][0] == found["b"][0] == MAX_POSITIONS + 5
    assert len(found["a"][1]) == MAX_POSITIONS


def test_nothing_to_find():
    assert _found(_matcher(), "any text") == {}
    assert _found(_matcher(a=["x"]), "") == {}
