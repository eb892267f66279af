"""Which regular expressions a tenant may save (a form's `pattern`, a matching rule's
`regex`): a static look at the parsed pattern for the two shapes that backtrack
exponentially, and adversarial inputs built from the pattern for a timed probe with the
`regex` module's timeout (`problem` runs both; services/forms/schemas.py and
services/matching/rules.py call it on save).

The static check reads the tree Python's own parser gives (`re._parser`) and refuses, inside
a repetition that may run many times:
- a variable quantifier that can either stop or go on with the same character: the next
  thing after it (later in the group, or the group's next iteration) can start with a
  character it also matches, as in `(a+)+`, `(\\w+\\s?)*`, `(x+x+)+y`, `([a-z]{2,4})+`;
- an alternation whose branches can start matching the same text, as in `(a|aa)+`.
Both let the engine split one input between the iterations in exponentially many ways,
each tried before a failing match gives up. A quantifier followed by a character it cannot
match (`( [A-Z][a-z]*)*`, `([a-z0-9]+-)*`) has one split only and passes.

Sets of characters are compared on a sample alphabet: the first 592 code points, a few
others (digits, spaces and letters of other scripts), and every character and range end
the pattern names, so that two ranges meet in the sample whenever they meet at all. Saved
patterns are Python syntax (the schema's check reads `pattern` with the `regex` format,
which is Python's `re`); one the parser could not read would get the timed probe alone."""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Iterator
from re import _constants as sre
from re import _parser

import regex

# A repetition allowed more than this many times counts as "many" (`{3}` in an IPv4 pattern
# does not; `+`, `*` and `{1,50}` do).
MANY = 8
PUMPS = 48  # times the probe repeats what a repetition matches
MAX_PROBES = 12

_SINGLE = (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_BASE_ALPHABET = "".join(map(chr, range(0x250))) + "\u0660\u0966\u00a0\u2028\u3000жω中\U0001f600"


def problem(
    pattern: str, *, max_chars: int, timeout: float, deadline: float, flags: int = 0
) -> str | None:
    """Why `pattern` may not be saved, as words that follow "the pattern" ("is not a valid
    regular expression (…)."), or None: longer than `max_chars`, not valid, of a
    catastrophic shape, or slower than `timeout` on one of its probes (all probes together
    stop at the `time.monotonic()` `deadline`). `flags` are the `regex` flags it runs with."""
    if len(pattern) > max_chars:
        return f"is longer than {max_chars} characters."
    try:
        compiled = regex.compile(pattern, flags)
    except regex.error as exc:
        return f"is not a valid regular expression ({exc})."
    shape, probes = examine(pattern)
    if shape:
        return (
            f"risks catastrophic backtracking: {shape}; make what repeats unambiguous "
            "(`(a+)+` is `a+`, `(a|aa)+` is `a+`)."
        )
    for probe in probes:
        left = min(timeout, deadline - time.monotonic())
        try:
            if left <= 0:
                raise TimeoutError
            compiled.search(probe, timeout=left)
        except TimeoutError:
            return (
                "takes too long to match (catastrophic backtracking, e.g. nested or "
                "overlapping repetition like (a|aa)+); simplify it."
            )
    return None


def examine(pattern: str) -> tuple[str | None, list[str]]:
    """Why `pattern` can backtrack exponentially (a phrase, or None), and the inputs for its
    timed probe: for each repetition, what leads to it, then what one iteration matches
    repeated PUMPS times, then a character that fails; and long runs of the characters the
    pattern names."""
    found: list[str] = []
    shape = None
    try:
        tree = _parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        tree = None  # not Python's syntax: the timed probe decides alone
    if tree is not None:
        analysis = _Analysis(tree)
        shape = analysis.check(list(tree), frozenset(), in_loop=False)
        for prefix, pump in analysis.pumps(list(tree), ""):
            if pump:
                found.append(prefix + pump * PUMPS + "\x00")
    chars = [*list(dict.fromkeys(c for c in pattern if c.isalnum()))[:8], "a", "0", " "]
    found += [c * PUMPS + "\x00" for c in dict.fromkeys(chars)]
    return shape, list(dict.fromkeys(found))[:MAX_PROBES]


class _Analysis:
    """Character sets, first characters and the checks over one parsed pattern."""

    def __init__(self, tree) -> None:
        named = set()
        for char in _named_chars(list(tree)):
            named.update(chr(c) for c in (char - 1, char, char + 1) if 0 <= c <= 0x10FFFF)
        extra = frozenset(named) - _BASE
        self.alphabet = _BASE | extra
        self._ordered = sorted(extra | _BASE_ALPHABET_SET) if extra else _BASE_ORDERED
        self._categories = {
            name: members | frozenset(c for c in extra if _in_category(c, name))
            for name, members in _BASE_CATEGORIES.items()
        }
        self.ignore_case = bool(tree.state.flags & re.IGNORECASE)
        self._chars: dict[tuple, frozenset[str]] = {}
        self._firsts: dict[tuple, tuple[frozenset[str], bool]] = {}
        self._picks: dict[tuple, str] = {}

    # --- character sets ------------------------------------------------------------------

    def chars(self, op, av, ignore_case: bool) -> frozenset[str]:
        """The sample characters one single-character item matches (computed once each:
        the tree, and so each item's identity, lives as long as the analysis)."""
        key = (op, av if isinstance(av, int) else id(av), ignore_case)
        if key not in self._chars:
            self._chars[key] = self._compute_chars(op, av, ignore_case)
        return self._chars[key]

    def _compute_chars(self, op, av, ignore_case: bool) -> frozenset[str]:
        if op is sre.LITERAL:
            found = frozenset({chr(av)})
        elif op is sre.NOT_LITERAL:
            found = self.alphabet - {chr(av)}
        elif op is sre.ANY:
            found = self.alphabet
        else:
            found = self._in(av)
        if ignore_case:
            cased = {c.lower() for c in found} | {c.upper() for c in found}
            found = found | (self.alphabet & cased)
        return found

    def _in(self, items) -> frozenset[str]:
        negate = any(op is sre.NEGATE for op, _ in items)
        found: set[str] = set()
        for op, av in items:
            if op is sre.LITERAL:
                found.add(chr(av))
            elif op is sre.RANGE:
                low = bisect.bisect_left(self._ordered, chr(av[0]))
                high = bisect.bisect_right(self._ordered, chr(av[1]))
                found.update(self._ordered[low:high])
            elif op is sre.CATEGORY:
                found.update(self._categories.get(av, frozenset("\n")))
        return self.alphabet - found if negate else frozenset(found)

    # --- what a sequence can start with ---------------------------------------------------

    def first(self, items, ignore_case: bool | None = None) -> tuple[frozenset[str], bool]:
        """The characters a match of `items` can start with, and whether it can be empty."""
        ignore_case = self.ignore_case if ignore_case is None else ignore_case
        found: frozenset[str] = frozenset()
        for op, av in items:
            key = (op, av if isinstance(av, int) else id(av), ignore_case)
            if key not in self._firsts:
                self._firsts[key] = self._first_item(op, av, ignore_case)
            chars, nullable = self._firsts[key]
            found |= chars
            if not nullable:
                return found, False
        return found, True

    def _first_item(self, op, av, ignore_case: bool) -> tuple[frozenset[str], bool]:
        if op in _SINGLE:
            return self.chars(op, av, ignore_case), False
        if op is sre.SUBPATTERN:
            return self.first(list(av[3]), ignore_case or bool(av[1] & re.IGNORECASE))
        if op is sre.ATOMIC_GROUP:
            return self.first(list(av), ignore_case)
        if op in _REPEATS:
            chars, nullable = self.first(list(av[2]), ignore_case)
            return chars, nullable or av[0] == 0
        if op is sre.BRANCH:
            firsts = [self.first(list(b), ignore_case) for b in av[1]]
            return frozenset().union(*(f for f, _ in firsts)), any(n for _, n in firsts)
        if op is sre.GROUPREF_EXISTS:
            yes = self.first(list(av[1]), ignore_case)
            no = self.first(list(av[2]), ignore_case) if av[2] is not None else (frozenset(), True)
            return yes[0] | no[0], yes[1] or no[1]
        if op is sre.GROUPREF:
            return self.alphabet, True
        return frozenset(), True  # anchors and lookarounds match no character

    # --- the two catastrophic shapes ------------------------------------------------------

    def check(self, items, follow: frozenset[str], in_loop: bool, ignore_case=None):
        """The first catastrophic shape in `items` (a phrase), or None. `follow`: what can
        come after `items`; `in_loop`: inside a repetition that may run many times."""
        ignore_case = self.ignore_case if ignore_case is None else ignore_case
        after = follow  # what can follow item i: read from the end, one item at a time
        found = None
        for op, av in reversed(items):
            reason = self._check_item(op, av, after, in_loop, ignore_case)
            found = reason or found  # the leftmost shape is the one named
            chars, nullable = self.first([(op, av)], ignore_case)
            after = chars | after if nullable else chars
        return found

    def _check_item(self, op, av, follow, in_loop: bool, ignore_case: bool):
        if op is sre.SUBPATTERN:
            inner_case = ignore_case or bool(av[1] & re.IGNORECASE)
            return self.check(list(av[3]), follow, in_loop, inner_case)
        if op is sre.ATOMIC_GROUP:
            return self.check(list(av), follow, in_loop, ignore_case)
        if op is sre.GROUPREF_EXISTS:
            return self.check(list(av[1]), follow, in_loop, ignore_case) or (
                self.check(list(av[2]), follow, in_loop, ignore_case) if av[2] else None
            )
        if op is sre.BRANCH:
            branches = [list(b) for b in av[1]]
            if in_loop and self._branches_overlap(branches, ignore_case):
                return "an alternation whose branches can match the same text, repeated"
            for branch in branches:
                reason = self.check(branch, follow, in_loop, ignore_case)
                if reason:
                    return reason
            return None
        if op not in _REPEATS:
            return None
        low, high, body = av[0], av[1], list(av[2])
        starts, _ = self.first(body, ignore_case)
        inside = (starts | follow) if high > 1 else follow
        if op is sre.POSSESSIVE_REPEAT:  # never gives back what it took
            return self.check(body, inside, False, ignore_case)
        if in_loop and low != high and starts & follow:
            return "a quantifier inside a repetition that can stop or go on on the same text"
        return self.check(body, inside, in_loop or high > MANY, ignore_case)

    def _branches_overlap(self, branches, ignore_case: bool) -> bool:
        for i, one in enumerate(branches):
            for other in branches[i + 1 :]:
                if self._may_share_start(one, other, ignore_case):
                    return True
        return False

    def _pick(self, op, av) -> str:
        """One character the item matches, a letter or digit when it can (once each)."""
        key = (op, id(av))
        if key not in self._picks:
            chars = self.chars(op, av, False)
            self._picks[key] = min(chars, key=lambda c: (not c.isalnum(), ord(c))) if chars else ""
        return self._picks[key]

    def _may_share_start(self, one, other, ignore_case: bool) -> bool:
        """Whether two branches can start matching the same text: compared a character at
        a time while both begin with single characters, then by what they can start with."""
        while one and other and one[0][0] in _SINGLE and other[0][0] in _SINGLE:
            if not self.chars(*one[0], ignore_case) & self.chars(*other[0], ignore_case):
                return False
            one, other = one[1:], other[1:]
        first_one, empty_one = self.first(one, ignore_case)
        first_other, empty_other = self.first(other, ignore_case)
        return empty_one or empty_other or bool(first_one & first_other)

    # --- adversarial inputs ---------------------------------------------------------------

    def pumps(self, items, prefix: str) -> Iterator[tuple[str, str]]:
        """(what leads to a repetition, what one iteration of it matches), for each."""
        for i, (op, av) in enumerate(items):
            before = prefix + self.witness(items[:i])
            if op in _REPEATS:
                body = list(av[2])
                yield before, self.witness(body)
                yield from self.pumps(body, before)
            elif op is sre.SUBPATTERN:
                yield from self.pumps(list(av[3]), before)
            elif op is sre.ATOMIC_GROUP:
                yield from self.pumps(list(av), before)
            elif op is sre.BRANCH:
                for branch in av[1]:
                    yield from self.pumps(list(branch), before)

    def witness(self, items) -> str:
        """A short string `items` can match (lookarounds and back-references aside)."""
        out = []
        for op, av in items:
            if op is sre.LITERAL:
                out.append(chr(av))
            elif op in _SINGLE:
                out.append(self._pick(op, av))
            elif op is sre.SUBPATTERN:
                out.append(self.witness(list(av[3])))
            elif op is sre.ATOMIC_GROUP:
                out.append(self.witness(list(av)))
            elif op in _REPEATS:
                out.append(self.witness(list(av[2])) * min(max(av[0], 1), 3))
            elif op is sre.BRANCH:
                out.append(self.witness(list(av[1][0])))
            elif op is sre.GROUPREF_EXISTS:
                out.append(self.witness(list(av[1])))
        return "".join(out)


def _named_chars(items) -> Iterator[int]:
    """Every code point the pattern names: literals and the ends of ranges."""
    for op, av in items:
        if op in (sre.LITERAL, sre.NOT_LITERAL):
            yield av
        elif op is sre.IN:
            for inner_op, inner_av in av:
                if inner_op is sre.LITERAL:
                    yield inner_av
                elif inner_op is sre.RANGE:
                    yield from inner_av
        elif op is sre.SUBPATTERN:
            yield from _named_chars(list(av[3]))
        elif op is sre.ATOMIC_GROUP or op in (sre.ASSERT, sre.ASSERT_NOT):
            yield from _named_chars(list(av if op is sre.ATOMIC_GROUP else av[1]))
        elif op in _REPEATS:
            yield from _named_chars(list(av[2]))
        elif op is sre.BRANCH:
            for branch in av[1]:
                yield from _named_chars(list(branch))
        elif op is sre.GROUPREF_EXISTS:
            yield from _named_chars(list(av[1]))
            if av[2] is not None:
                yield from _named_chars(list(av[2]))


def _in_category(char: str, category) -> bool:
    """`\\d`, `\\s`, `\\w` and their negations, as Python's `re` reads them on str."""
    digit, space, word = char.isdecimal(), char.isspace(), char.isalnum() or char == "_"
    return {
        sre.CATEGORY_DIGIT: digit,
        sre.CATEGORY_NOT_DIGIT: not digit,
        sre.CATEGORY_SPACE: space,
        sre.CATEGORY_NOT_SPACE: not space,
        sre.CATEGORY_WORD: word,
        sre.CATEGORY_NOT_WORD: not word,
    }.get(category, char == "\n")


_BASE = _BASE_ALPHABET_SET = frozenset(_BASE_ALPHABET)
_BASE_ORDERED = sorted(_BASE)
_BASE_CATEGORIES = {
    category: frozenset(c for c in _BASE if _in_category(c, category))
    for category in (
        sre.CATEGORY_DIGIT,
        sre.CATEGORY_NOT_DIGIT,
        sre.CATEGORY_SPACE,
        sre.CATEGORY_NOT_SPACE,
        sre.CATEGORY_WORD,
        sre.CATEGORY_NOT_WORD,
    )
}
