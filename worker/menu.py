"""The numbered menu of moves in a turn email, and reading a reply against it.

A move is the choices a player makes to build it (:meth:`games.protocol.Game.move_steps`,
coarse to fine); consecutive steps with the same ``group`` are one unordered pick.  The
menu numbers each distinct step label once (the same label has the same number wherever
it shows), so a move is the multiset of its steps' numbers, and a reply is a line of
numbers in any order (``1 9 10``), a move's words (``quarry``, ``done``) or a menu line
copied whole (``2  Quarry``).

The menu is a tree of steps, kept short:

* siblings whose continuations are the same are listed once, then the shared
  continuation ("after any of 6-8:"), so 8 apprentices x 5 dismissals take 15 lines;
* the combinations of an unordered pick are not listed: the pick's items are ("choose 4
  of:"), with the legal combinations spelled out when only some are legal and few;
* a menu still longer than ``COMPACT_AFTER`` lines shows the choices that end a move on
  one line under their parent: ``[3] Blue (P0): 3 Workers | [4] Red (P3): 2 Workers``.

A reply may leave out single steps and whole picks when exactly one move has the rest
(``7`` for "Place a Worker, Quarry"), but never part of a pick: a pick of 3 where 4 are
needed is refused.  Everything follows the order of ``legal_moves``, so the same state
gives the same numbers (the email is built once; the reply is read against the menu
built again from the same version).  Pure: no I/O, no service imports.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from math import comb

from games.protocol import Game, Move, State
from games.text import P, T, Text

MAX_CANDIDATES = 12  # moves a refusal lists at most
INLINE_WIDTH = 76  # a pick whose items fit in this many characters takes one line
COMPACT_AFTER = 30  # a menu longer than this shows the choices that end a move on one line
LISTED_COMBINATIONS = 6  # a pick with only some legal combinations lists them up to this
PREFIX_MIN = 4  # the fewest characters of a label that name a move by its beginning

_SEPARATORS = re.compile(r"[\s,+.;/-]+")
_WORD = re.compile(r"[^\W_]+")
_COPIED = re.compile(r"\s*\[?(\d+)\]?[\s.):-]+(.*[^\W\d_].*)")


class NotAMove(Exception):
    """A reply line that names no legal move, or several: ``reason`` in the players'
    words (it follows '"2 7" is not one of your moves: '), ``candidates`` the moves it
    could have meant, as ``"<numbers>  <label>"``."""

    def __init__(self, reason: str, candidates: list[str] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.candidates = list(candidates or [])


@dataclass(frozen=True)
class Entry:
    """One numbered step as the menu shows it; ``pick`` (e.g. ``"choose 4"``) marks the
    items of an unordered pick.  A label shown twice is two entries with one number."""

    number: int
    label: str
    depth: int
    pick: str | None = None


@dataclass(frozen=True)
class _Note:
    """An unnumbered line of the menu ("after any of 6-8:")."""

    depth: int
    text: str | Text


@dataclass(frozen=True)
class _Inline:
    """Steps shown on one line with their numbers: a pick's items after its caption
    (joined by ", "), or, in a long menu, choices that end a move (joined by " | ")."""

    depth: int
    caption: str | Text
    items: tuple[Entry, ...]
    sep: str = ", "

    def text(self) -> Text:
        """The line; a Text whose caption (and labels, if Texts) a reader's language
        says again."""
        items = Text(self.sep.join(f"[{e.number}] %(l{i})s" for i, e in enumerate(self.items)),
                     {f"l{i}": e.label for i, e in enumerate(self.items)})
        return Text("%(caption)s %(items)s", {"caption": self.caption, "items": items}) \
            if self.caption else items


_Row = Entry | _Note | _Inline
_Key = tuple[str | None, tuple[str, ...]]  # (None, (label,)) or (group, items in menu order)


@dataclass
class _Move:
    """One legal move as the menu reads it."""

    move: Move
    label: str
    steps: list[str]
    groups: list[str | None]
    numbers: list[int] = field(default_factory=list)

    def segments(self) -> list[tuple[str | None, list[int]]]:
        """The step indexes as segments: (None, [i]) for a single step, (group, [i, ...])
        for an unordered pick."""
        out: list[tuple[str | None, list[int]]] = []
        for i, group in enumerate(self.groups):
            if group is not None and out and out[-1][0] == group:
                out[-1][1].append(i)
            else:
                out.append((group, [i]))
        return out


@dataclass
class Menu:
    """The numbered moves of one seat at one state; see the module docstring."""

    entries: list[Entry]
    _rows: list[_Row] = field(repr=False)
    _choices: list[_Move] = field(repr=False)
    labels: dict[int, str] = field(repr=False)  # step number -> step label

    @property
    def moves(self) -> list[Move]:
        """The legal moves, in the order the game gave them."""
        return [c.move for c in self._choices]

    def numbers_of(self, move: Move) -> list[int]:
        """The numbers that name ``move``, in step order; ValueError if it is not legal."""
        for c in self._choices:
            if c.move == move:
                return list(c.numbers)
        raise ValueError("not a legal move of this menu")

    def label_of(self, move: Move) -> str:
        """The move's label as the game words it; ValueError if it is not legal."""
        for c in self._choices:
            if c.move == move:
                return c.label
        raise ValueError("not a legal move of this menu")

    def example(self) -> str:
        """A reply naming the menu's first move that takes most steps, e.g. ``"1 9 10"``."""
        longest = max(self._choices, key=lambda c: len(c.numbers), default=None)
        return " ".join(map(str, longest.numbers)) if longest else ""

    def lines(self) -> list[str]:
        """The menu as plain text, one line per row, indented by depth.  Each line is a
        :class:`games.text.Text`: its captions ("after any of 6-8:") and the game's
        labels are said in the reader's language where an email prints it."""
        width = len(str(max(self.labels, default=1)))
        out: list[str] = []
        for row in self._rows:
            if isinstance(row, Entry):
                lead, said = f"{row.number:>{width}}  {'  ' * row.depth}", row.label
            elif isinstance(row, _Note):
                lead, said = f"{'':>{width}}  {'  ' * row.depth}", row.text
            else:
                lead, said = f"{'':>{width}}  {'  ' * row.depth}", row.text()
            said_text = said if isinstance(said, Text) else Text("%(s)s", {"s": said})
            out.append(Text(lead.replace("%", "%%") + "%(said)s", {"said": said_text})
                       if said.strip() else lead.rstrip())
        return out

    # -- reading a reply -----------------------------------------------------------------
    def resolve(self, text: str) -> Move:
        """The legal move a reply line names: numbers of its steps (any order; single
        steps and whole picks may be left out where one move is left), or its words.
        Raises :class:`NotAMove` when the line names no move or several."""
        numbers = _numbers(text) or self._copied(text)
        if numbers:
            return self._by_numbers(numbers)
        return self._by_words(text)

    def _copied(self, text: str) -> list[int] | None:
        """``[2]`` for a menu line copied whole, "2  Quarry": a number, then the
        beginning of its label (4 characters or more)."""
        found = _COPIED.match(text)
        if not found or int(found[1]) not in self.labels:
            return None
        words = _norm(found[2])
        label = _norm(self.labels[int(found[1])])
        return [int(found[1])] if words and label.startswith(words) and (
            len(words) >= PREFIX_MIN or words == label) else None

    def _candidates(self, indexes: list[int]) -> list[str]:
        return [f"{' '.join(map(str, self._choices[i].numbers))}  {self._choices[i].label}"
                for i in indexes[:MAX_CANDIDATES]]

    def _named(self, numbers: list[int] | Counter[int]) -> str:
        """``7 (Library)`` for one number, ``1 7 (Build a room, Library)`` for more."""
        nums = list(numbers.elements()) if isinstance(numbers, Counter) else list(numbers)
        return (f"{' '.join(map(str, nums))} "
                f"({', '.join(_short(self.labels[n]) for n in nums)})")

    def _offer(self, numbers: list[int]) -> str:
        """The numbers a reply may add, with their labels when few."""
        if len(numbers) > 4:
            return ", ".join(map(str, numbers))
        return ", ".join(f"{n} ({_short(self.labels[n])})" for n in numbers)

    def _by_numbers(self, numbers: list[int]) -> Move:
        unknown = sorted({n for n in numbers if n not in self.labels})
        if not self.labels:
            raise NotAMove(T("you have no move to make now"))
        if unknown:
            top = max(self.labels)
            names = " or ".join(map(str, unknown))
            raise NotAMove(T("there is no %(names)s in the menu (its numbers go 1 to %(top)s)",
                             names=names, top=top))
        reply = Counter(numbers)
        bags = [Counter(c.numbers) for c in self._choices]
        exact = [i for i, bag in enumerate(bags) if bag == reply]
        if len(exact) > 1:
            exact = [i for i in exact if self._choices[i].numbers == numbers] or exact
        if len(exact) == 1:
            return self._choices[exact[0]].move
        if exact:
            raise NotAMove(T("%(named)s could be several moves; reply with the numbers of one "
                             "of them, in order", named=self._named(numbers)),
                           self._candidates(exact))
        within = [i for i, bag in enumerate(bags) if _contains(bag, reply)]
        fits = [i for i in within if _leaves_out_only_whole_steps(self._choices[i], reply)]
        if fits:
            fewest = min(len(self._choices[i].numbers) for i in fits)
            nearest = [i for i in fits if len(self._choices[i].numbers) == fewest]
            if len(nearest) == 1:
                return self._choices[nearest[0]].move
            offer = self._offer(_next_numbers([self._choices[i] for i in fits], reply))
            raise NotAMove(T("%(named)s could be several moves: add one of %(offer)s",
                             named=self._named(numbers), offer=offer), self._candidates(fits))
        if within:
            raise NotAMove(self._incomplete(numbers, reply, within), self._candidates(within))
        self._conflict(numbers, bags)
        raise AssertionError("unreachable")  # pragma: no cover

    def _incomplete(self, numbers: list[int], reply: Counter[int], within: list[int]) -> Text:
        """Why a reply that is part of some moves makes none: a pick named in part."""
        choices = [self._choices[i] for i in within]
        offer = self._offer(_next_numbers(choices, reply))
        parts = [(group, len(idx), named) for c in choices for group, idx in c.segments()
                 if group is not None and 0 < (named := sum(
                     (Counter(c.numbers[i] for i in idx) & reply).values())) < len(idx)]
        if parts:
            group, _, named = parts[0]
            sizes = sorted({size for _, size, _ in parts})
            size = str(sizes[0]) if len(sizes) == 1 else \
                T("%(low)s to %(high)s", low=sizes[0], high=sizes[-1])
            return T("%(group)s: choose %(size)s, and you named %(named)s; add one of %(offer)s",
                     group=group, size=size, named=named, offer=offer)
        return T("%(named)s is not a whole move: add one of %(offer)s",
                 named=self._named(numbers), offer=offer)

    def _conflict(self, numbers: list[int], bags: list[Counter[int]]) -> None:
        """Raise NotAMove for numbers that no move has together, naming the first one
        that does not fit with those before it."""
        so_far: Counter[int] = Counter()
        for n in numbers:
            more = so_far + Counter([n])
            if any(_contains(bag, more) for bag in bags):
                so_far = more
                continue
            alive = [i for i, bag in enumerate(bags) if _contains(bag, so_far)]
            cands = self._candidates(alive)
            if so_far[n]:
                times = T("twice") if so_far[n] == 1 else \
                    P("%(n)s time", "%(n)s times", so_far[n] + 1)
                raise NotAMove(T("%(named)s is named %(times)s, and no move takes it %(times)s",
                                 named=self._named([n]), times=times), cands)
            before = list(so_far.elements())
            nexts = _next_numbers([self._choices[i] for i in alive], so_far)
            together = T("%(before)s and %(n)s do not make a move together",
                         before=" ".join(map(str, before)), n=n)
            if not nexts:
                already = P("%(named)s already makes a move", "%(named)s already make a move",
                            len(before), named=self._named(before))
                if len(alive) == 1:
                    already = T("%(already)s: %(move)s", already=already,
                                move=self._choices[alive[0]].label)
                raise NotAMove(T("%(together)s: %(already)s", together=together,
                                 already=already), cands)
            raise NotAMove(T("%(together)s: after %(named)s, choose one of %(offer)s",
                             together=together, named=self._named(before),
                             offer=self._offer(nexts)), cands)

    def _by_words(self, text: str) -> Move:
        found = self._word_matches(text)
        if len(found) == 1:
            return self._choices[found[0]].move
        shown = " ".join(text.split())
        if found:
            raise NotAMove(T('"%(shown)s" fits several moves; reply with the numbers of one '
                             "of them", shown=shown), self._candidates(found))
        raise NotAMove(T('"%(shown)s" names no move in the menu; reply with its numbers',
                         shown=shown))

    def _word_matches(self, text: str) -> list[int]:
        """The moves a line of words names, from the first kind of match that has any:
        the move's label or its steps' labels joined, one step's label, the beginning
        (4 characters or more) of the move's label, the beginning of one step's label."""
        words = _norm(text)
        if not words:
            return []
        spelled = [(_norm(c.label), [_norm(s) for s in c.steps]) for c in self._choices]
        tests = [
            lambda label, steps: words in (label, " ".join(steps)),
            lambda label, steps: words in steps,
            lambda label, steps: len(words) >= PREFIX_MIN and label.startswith(words),
            lambda label, steps: len(words) >= PREFIX_MIN and any(
                s.startswith(words) for s in steps),
        ]
        for test in tests:
            found = [i for i, (label, steps) in enumerate(spelled) if test(label, steps)]
            if found:
                return found
        return []


# -- building ----------------------------------------------------------------------------
class _Node:
    """A node of the tree of steps: the choices that may follow, and whether a move
    ends here."""

    __slots__ = ("children", "end")

    def __init__(self) -> None:
        self.children: dict[_Key, _Node] = {}
        self.end = False


def build(game: Game, state: State, seat: int) -> Menu:
    """The menu of ``seat``'s legal moves at ``state`` (no entries when it has none)."""
    choices = [_choice(game, state, seat, move) for move in game.legal_moves(state, seat)]
    _tell_apart(choices)
    seen: dict[str, int] = {}  # label -> first appearance, the order of a pick's items
    for c in choices:
        for label in c.steps:
            seen.setdefault(label, len(seen))
    root = _Node()
    for c in choices:
        node = root
        for group, idx in c.segments():
            labels = tuple(sorted((c.steps[i] for i in idx), key=seen.__getitem__))
            node = node.children.setdefault((group, labels), _Node())
        node.end = True
    drawing = _Drawing(seen, compact=False)
    drawing.children(root, 0)
    if len(drawing.rows) > COMPACT_AFTER:
        drawing = _Drawing(seen, compact=True)
        drawing.children(root, 0)
    for label in seen:  # every step shows; a safety net should a label not
        if label not in drawing.numbers:
            drawing.entry(label, 0)
    for c in choices:
        c.numbers = [drawing.numbers[label] for label in c.steps]
    labels = {n: label for label, n in drawing.numbers.items()}
    entries = [e for row in drawing.rows
               for e in (row.items if isinstance(row, _Inline) else (row,))
               if isinstance(e, Entry)]
    return Menu(entries, drawing.rows, choices, labels)


def _choice(game: Game, state: State, seat: int, move: Move) -> _Move:
    """One legal move with its label and steps (one step, the label, if the game's
    steps fail or are empty: a presentation bug must not hide a legal move)."""
    label = _kept(game.move_label(state, seat, move))
    try:
        steps = [(_kept(s.get("label", "")), s.get("group")) for s in
                 game.move_steps(state, seat, move) or []]
    except Exception:
        steps = []
    steps = steps or [(label, None)]
    return _Move(move, label, [s for s, _ in steps],
                 [_kept(g) if g is not None else None for _, g in steps])


def _kept(text: object) -> str:
    """``text`` as a string, a game's Text kept as one (so an email says it in its
    reader's language)."""
    return text if isinstance(text, str) else str(text)


def _tell_apart(choices: list[_Move]) -> None:
    """Give moves whose steps read the same a last step of their own ("... (2)")."""
    count: Counter[tuple] = Counter()
    for c in choices:
        key = tuple((g, tuple(sorted(c.steps[i] for i in idx))) for g, idx in c.segments())
        count[key] += 1
        if count[key] > 1:
            c.steps[-1] = f"{c.steps[-1]} ({count[key]})"
            c.groups[-1] = None


class _Drawing:
    """Lays the tree out as rows, numbering each label where it first shows."""

    def __init__(self, seen: dict[str, int], compact: bool) -> None:
        self.seen = seen
        self.compact = compact
        self.numbers: dict[str, int] = {}
        self.rows: list[_Row] = []
        self._sigs: dict[int, frozenset] = {}

    def number(self, label: str) -> int:
        return self.numbers.setdefault(label, len(self.numbers) + 1)

    def entry(self, label: str, depth: int, pick: str | None = None) -> Entry:
        entry = Entry(self.number(label), label, depth, pick)
        self.rows.append(entry)
        return entry

    def sig(self, node: _Node) -> frozenset:
        """What may follow ``node``, comparable between nodes."""
        if id(node) not in self._sigs:
            self._sigs[id(node)] = frozenset(
                [(k, self.sig(c)) for k, c in node.children.items()]
                + ([("end",)] if node.end else []))
        return self._sigs[id(node)]

    def children(self, node: _Node, depth: int) -> None:
        """The rows for what may follow ``node``, at ``depth``."""
        keys = list(node.children)
        if self.compact and depth > 0 and len(keys) > 1 and all(
                k[0] is None and not node.children[k].children for k in keys):
            self.rows.append(_Inline(depth, "", tuple(
                Entry(self.number(k[1][0]), k[1][0], depth) for k in keys), " | "))
            return
        alike: dict[frozenset, list[_Key]] = {}
        for k in keys:
            child = node.children[k]
            if k[0] is None and child.children:
                alike.setdefault(self.sig(child), []).append(k)
        done: set[_Key] = set()
        for k in keys:
            if k in done:
                continue
            group, labels = k
            child = node.children[k]
            if group is None:
                same = alike.get(self.sig(child), []) if child.children else []
                if len(same) > 1:  # one continuation for all of them, shown once
                    nums = [self.entry(s[1][0], depth).number for s in same]
                    done.update(same)
                    self.rows.append(_Note(depth + 1, T("after any of %(numbers)s:",
                                                        numbers=_spans(nums))))
                    self.children(child, depth + 2)
                    continue
                self.entry(labels[0], depth)
                done.add(k)
                echo = (list(child.children) == [k] and not child.end
                        and not child.children[k].children)
                if not echo:  # "Done" then "Done" again shows once
                    self.children(child, depth + 1)
                if child.end and child.children:
                    self.rows.append(_Note(depth + 1, T("(or nothing more)")))
                continue
            picks = [p for p in keys if p[0] == group and p not in done]
            done.update(picks)
            self.pick(group, [p[1] for p in picks], depth)
            after = _merge([node.children[p] for p in picks])
            if after.children:
                sigs = {self.sig(node.children[p]) for p in picks}
                self.rows.append(_Note(depth, T("then:") if len(sigs) == 1
                                       else T("then, where it applies:")))
                self.children(after, depth + 1)

    def pick(self, group: str, combos: list[tuple[str, ...]], depth: int) -> None:
        """One unordered pick: its items once, numbered, with how many to choose."""
        items = sorted({label for c in combos for label in c}, key=self.seen.__getitem__)
        sizes = sorted({len(c) for c in combos})
        size = str(sizes[0]) if len(sizes) == 1 else \
            T("%(low)s to %(high)s", low=sizes[0], high=sizes[-1])
        caption: Text
        repeats = any(len(set(c)) < len(c) for c in combos)
        every = len(sizes) == 1 and len(combos) == (
            comb(len(items) + sizes[0] - 1, sizes[0]) if repeats else comb(len(items), sizes[0]))
        if len(combos) == 1:
            pick, caption = "no choice", T("%(group)s (no choice):", group=group)
        else:
            pick = f"choose {size}"
            caption = {(False, False): T("%(group)s: choose %(size)s of:", group=group, size=size),
                       (True, False): T("%(group)s: choose any %(size)s of:", group=group,
                                        size=size),
                       (False, True): T("%(group)s: choose %(size)s (the same one again if "
                                        "you like) of:", group=group, size=size),
                       (True, True): T("%(group)s: choose any %(size)s (the same one again "
                                       "if you like) of:", group=group, size=size)}[
                every, repeats]
        numbers = [self.number(label) for label in items]
        entries = tuple(Entry(n, label, depth + 1, pick) for n, label in zip(numbers, items,
                                                                              strict=True))
        inline = _Inline(depth, caption, entries)
        if self.compact or len(inline.text()) + 2 * depth <= INLINE_WIDTH:
            self.rows.append(inline)
        else:
            self.rows.append(_Note(depth, caption))
            self.rows.extend(entries)
        if len(combos) > 1 and not every:
            if len(combos) <= LISTED_COMBINATIONS:
                ways = " | ".join(" ".join(str(self.numbers[x]) for x in c) for c in combos)
                self.rows.append(_Note(depth + 1, T("one of: %(ways)s", ways=ways)))
            else:
                self.rows.append(_Note(depth + 1, T("(not every combination is legal)")))


def _merge(nodes: list[_Node]) -> _Node:
    """One node for what may follow any of ``nodes``."""
    out = _Node()
    out.end = any(n.end for n in nodes)
    keys: dict[_Key, list[_Node]] = {}
    for n in nodes:
        for k, child in n.children.items():
            keys.setdefault(k, []).append(child)
    for k, children in keys.items():
        out.children[k] = children[0] if len(children) == 1 else _merge(children)
    return out


# -- reading -----------------------------------------------------------------------------
def _numbers(text: str) -> list[int] | None:
    """The numbers of a line made only of numbers and separators, else None."""
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if not tokens or not all(t.isascii() and t.isdigit() for t in tokens):
        return None
    return [int(t) for t in tokens]


def _norm(text: str) -> str:
    """Lower case words, no punctuation, one space between."""
    return " ".join(_WORD.findall(text.casefold()))


def _short(label: str) -> str:
    """A label's name, for a reason: "Migrate" for "Migrate: Pay 1 food ..."."""
    head = label.split(": ", 1)[0]
    return head if len(head) <= 48 else head[:47] + "…"


def _spans(numbers: list[int]) -> str:
    """``6-8, 11`` for [6, 7, 8, 11]."""
    out: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(f"{start}-{prev}" if prev - start >= 2 else
                   f"{start}, {prev}" if prev != start else str(start))
        if n is not None:
            start = prev = n
    return ", ".join(out)


def _contains(bag: Counter[int], part: Counter[int]) -> bool:
    return all(bag[n] >= k for n, k in part.items())


def _leaves_out_only_whole_steps(choice: _Move, reply: Counter[int]) -> bool:
    """Whether ``reply`` (part of ``choice``'s numbers) names each pick whole or not at
    all: single steps may be left out, part of a pick may not."""
    left = Counter(reply)
    for group, idx in choice.segments():
        if group is None:
            continue
        need = Counter(choice.numbers[i] for i in idx)
        if _contains(left, need):
            left -= need
        elif need & left:
            return False
    return True


def _next_numbers(choices: list[_Move], named: Counter[int]) -> list[int]:
    """The numbers to add to ``named`` to go on towards one of ``choices``: the items
    not named of a pick named in part, else per move the first step (or pick) not named
    that the moves do not all leave out alike ("Place a Worker" is not offered)."""
    missing: list[list[tuple[tuple, Counter[int]]]] = []  # per move: (segment, not named)
    partial: set[int] = set()
    for c in choices:
        left = Counter(named)
        out = []
        for group, idx in c.segments():
            need = Counter(c.numbers[i] for i in idx)
            got = need & left
            left -= got
            rest = need - got
            if rest:
                out.append(((group, tuple(sorted(rest.elements()))), rest))
                if group is not None and got:
                    partial.update(rest)
        missing.append(out)
    if partial:
        return sorted(partial)
    common = set.intersection(*({key for key, _ in out} for out in missing)) if missing else set()
    offered: set[int] = set()
    for out in missing:
        for key, rest in out:
            if key not in common:
                offered.update(rest)
                break
    return sorted(offered)


def looks_like_a_move(menu: Menu, line: str) -> bool:
    """Whether a reply line tries to name a move: only numbers (separated by spaces,
    commas, "+", "-", "." and the like), or the words of one of the menu's moves."""
    return (_numbers(line) is not None or menu._copied(line) is not None
            or bool(menu._word_matches(line)))
