"""The numbered menu of a turn email and reading a reply against it (worker.menu), on
the real games: states reached by random legal moves at several player counts."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import cache

import pytest

from games import registry
from games.feudum_guilds import ALL_MODULES
from games.protocol import Game, Move, State
from games.rng import GameRandom, RecordingRandom
from worker.menu import Menu, NotAMove, build, looks_like_a_move

MAX_LINES = 60  # a menu never takes more lines than this
EVERY = 5  # a state is kept every this many moves

# (kind, players, options) of the games played; each with two seeds
TABLES: list[tuple[str, int, tuple[tuple[str, object], ...]]] = [
    ("architects", 1, ()), ("architects", 2, ()), ("architects", 4, ()), ("architects", 5, ()),
    ("architects", 3, (("variable_setup", True), ("extra_characters", True), ("promos", True))),
    ("kings-guild", 1, ()), ("kings-guild", 3, ()), ("kings-guild", 5, ()),
    ("feudum-guilds", 2, ()), ("feudum-guilds", 4, ()),
    ("feudum-guilds", 3, tuple(sorted(ALL_MODULES.items()))),
]
SEEDS = (1, 2)


@cache
def reached(kind: str, n: int, options: tuple, seed: int) -> tuple[tuple[State, int], ...]:
    """(state, seat to act) every ``EVERY`` moves of one game of random legal moves."""
    game = registry.get(kind)
    chooser = random.Random(seed)
    opts = game.normalize_options(dict(options), n)
    state = game.setup([f"P{i}" for i in range(n)], opts, RecordingRandom(seed))
    out = []
    for step in range(4000):
        if game.outcome(state) is not None:
            break
        seats = sorted(game.to_act(state))
        if step % EVERY == 0:
            out.extend((copy.deepcopy(state), seat) for seat in seats)
        seat = chooser.choice(seats)
        move = chooser.choice(game.legal_moves(state, seat))
        game.apply(state, seat, copy.deepcopy(move), RecordingRandom(chooser.getrandbits(64)))
    return tuple(out)


def states(kind: str, seeds: Iterable[int] = SEEDS) -> Iterator[tuple[Game, State, int]]:
    """Every kept state of every game of ``kind``."""
    game = registry.get(kind)
    for seed in seeds:
        for k, n, options in TABLES:
            if k == kind:
                for state, seat in reached(kind, n, options, seed):
                    yield game, state, seat


def first(kind: str, test: Callable[[Menu], bool], seeds: Iterable[int] = SEEDS) -> Menu:
    """The menu of the first kept state of ``kind`` that passes ``test``."""
    for game, state, seat in states(kind, seeds):
        menu = build(game, state, seat)
        if test(menu):
            return menu
    raise AssertionError(f"no {kind} state found")


def steps_of(menu: Menu, move: Move) -> list[str]:
    return [menu.labels[n] for n in menu.numbers_of(move)]


def text(numbers: list[int]) -> str:
    return " ".join(map(str, numbers))


def is_card_selection(menu: Menu) -> bool:
    return any(e.label.startswith("Select action cards") for e in menu.entries) and len(
        menu.moves) >= 30


KINDS = ["architects", "kings-guild", "feudum-guilds"]


# -- properties over many states ---------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_every_legal_move_is_named_by_the_numbers_of_its_steps(kind: str) -> None:
    seen = 0
    for game, state, seat in states(kind):
        menu = build(game, state, seat)
        assert menu.moves == game.legal_moves(state, seat)
        for move in menu.moves:
            numbers = menu.numbers_of(move)
            assert menu.resolve(text(numbers)) == move
            assert menu.resolve(", ".join(map(str, numbers)) + ".") == move
            seen += 1
    assert seen > 500


@pytest.mark.parametrize("kind", KINDS)
def test_a_move_is_named_by_its_numbers_in_any_order(kind: str) -> None:
    shuffle = random.Random(5)
    for game, state, seat in states(kind):
        menu = build(game, state, seat)
        bags = Counter(frozenset(Counter(menu.numbers_of(m)).items()) for m in menu.moves)
        for move in menu.moves:
            numbers = menu.numbers_of(move)
            if bags[frozenset(Counter(numbers).items())] == 1:  # else the order decides
                shuffle.shuffle(numbers)
                assert menu.resolve(text(numbers)) == move


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_state_gives_the_same_menu(kind: str) -> None:
    for game, state, seat in list(states(kind))[::7]:
        one, two = build(game, state, seat), build(game, copy.deepcopy(state), seat)
        assert one.lines() == two.lines()
        assert [one.numbers_of(m) for m in one.moves] == [two.numbers_of(m) for m in two.moves]


@pytest.mark.parametrize("kind", KINDS)
def test_each_step_label_has_one_number(kind: str) -> None:
    for game, state, seat in list(states(kind))[::3]:
        menu = build(game, state, seat)
        numbered: dict[str, int] = {}
        for entry in menu.entries:
            assert numbered.setdefault(entry.label, entry.number) == entry.number
        assert set(numbered.values()) == set(menu.labels)
        shown = "\n".join(menu.lines())
        for entry in menu.entries:
            assert entry.label in shown


@pytest.mark.parametrize("kind", KINDS)
def test_the_menu_stays_short(kind: str) -> None:
    worst = (0, 0, "")
    for game, state, seat in states(kind):
        menu = build(game, state, seat)
        lines = menu.lines()
        if len(lines) > worst[0]:
            worst = (len(lines), len(menu.moves), "\n".join(lines))
    print(f"\n{kind}: longest menu {worst[0]} lines for {worst[1]} moves\n{worst[2]}")
    assert worst[0] <= MAX_LINES


@pytest.mark.parametrize("kind", KINDS)
def test_numbers_that_name_no_move_are_refused_with_a_reason(kind: str) -> None:
    """A reply either names one move, made of the numbers written plus single steps or
    whole picks left out, or it is refused with a reason."""
    draw = random.Random(11)
    refused = named = 0
    for game, state, seat in list(states(kind))[::2]:
        menu = build(game, state, seat)
        top = max(menu.labels)
        with pytest.raises(NotAMove, match=f"there is no {top + 1} in the menu"):
            menu.resolve(f"1 {top + 1}")
        for _ in range(6):
            reply = [draw.randint(1, top) for _ in range(draw.randint(1, 4))]
            try:
                move = menu.resolve(text(reply))
            except NotAMove as exc:
                assert exc.reason and len(exc.candidates) <= 12
                refused += 1
                continue
            named += 1
            whole = Counter(menu.numbers_of(move))
            assert not Counter(reply) - whole
    assert refused > 50 and named > 5


@pytest.mark.parametrize("kind", KINDS)
def test_a_flat_menu_when_every_move_is_one_step(kind: str) -> None:
    for game, state, seat in states(kind):
        menu = build(game, state, seat)
        if all(len(menu.numbers_of(m)) == 1 for m in menu.moves) and len(menu.moves) <= 12:
            assert [e.number for e in menu.entries] == list(range(1, len(menu.moves) + 1))
            assert {e.depth for e in menu.entries} == {0}
            assert len(menu.lines()) == len(menu.moves)


def test_a_seat_not_to_act_gets_no_menu() -> None:
    game = registry.get("kings-guild")
    state = game.setup(["A", "B", "C"], game.normalize_options({}, 3), RecordingRandom(1))
    idle = next(s for s in range(3) if s not in game.to_act(state))
    menu = build(game, state, idle)
    assert menu.entries == [] and menu.lines() == []
    with pytest.raises(NotAMove):
        menu.resolve("1")


# -- Feudum: action cards ----------------------------------------------------------------
def test_feudum_action_cards_are_one_pick_in_any_order() -> None:
    menu = first("feudum-guilds", is_card_selection)
    shuffle = random.Random(3)
    for move in menu.moves:
        coarse, *cards = menu.numbers_of(move)
        for _ in range(3):
            shuffle.shuffle(cards)
            assert menu.resolve(text([coarse, *cards])) == move
            assert menu.resolve(text(cards)) == move  # the coarse step left out
            assert menu.resolve(" + ".join(map(str, cards))) == move


def test_feudum_card_selection_menu_lists_the_cards_not_the_combinations() -> None:
    menu = first("feudum-guilds", is_card_selection)
    lines = menu.lines()
    assert len(lines) <= 15 < len(menu.moves)
    picked = [e for e in menu.entries if e.pick]
    assert {e.pick for e in picked} == {"choose 4"}
    assert any("choose any 4 of" in line for line in lines)


def test_feudum_a_pick_of_three_where_four_are_needed_is_refused() -> None:
    menu = first("feudum-guilds", is_card_selection)
    coarse, *cards = menu.numbers_of(menu.moves[0])
    with pytest.raises(NotAMove) as exc:
        menu.resolve(text([coarse, *cards[:3]]))
    assert "choose 4, and you named 3" in exc.value.reason
    assert len(exc.value.candidates) > 1


def test_feudum_a_card_named_twice_is_refused() -> None:
    menu = first("feudum-guilds", is_card_selection)
    coarse, *cards = menu.numbers_of(menu.moves[0])
    with pytest.raises(NotAMove, match="is named twice"):
        menu.resolve(text([coarse, cards[0], cards[0], cards[1], cards[2]]))


def test_feudum_starting_goods_ask_where_the_sulfur_goes_only_with_sulfur() -> None:
    menu = first("feudum-guilds", lambda m: any("Sulfur into" in e.label for e in m.entries))
    assert "then, where it applies:" in "\n".join(menu.lines())
    with_sulfur = next(m for m in menu.moves if "Sulfur into your barrel" in steps_of(menu, m))
    goods = menu.numbers_of(with_sulfur)[1:-1]
    with pytest.raises(NotAMove, match="could be several moves: add one of"):
        menu.resolve(text(goods))
    plain = next(m for m in menu.moves if len(menu.numbers_of(m)) == 4)
    assert menu.resolve(text(menu.numbers_of(plain)[1:])) == plain


# -- Architects: place a worker, payments, words -----------------------------------------
def places(menu: Menu) -> bool:
    return sum(steps_of(menu, m)[0] == "Place a Worker" for m in menu.moves) > 5


def test_architects_a_place_is_named_without_place_a_worker() -> None:
    menu = first("architects", places)
    for move in menu.moves:
        steps = menu.numbers_of(move)
        if steps_of(menu, move)[0] == "Place a Worker":
            assert menu.resolve(text(steps[1:])) == move


def test_architects_a_place_with_two_ways_asks_which() -> None:
    menu = first("architects", lambda m: places(m) and {"Take Clay", "Take Gold"} <= {
        e.label.split(" (")[0] for e in m.entries})
    mines = next(e.number for e in menu.entries if e.label == "Mines")
    with pytest.raises(NotAMove) as exc:
        menu.resolve(str(mines))
    assert re.search(r"could be several moves: add one of \d+ \(Take Clay", exc.value.reason)
    assert len(exc.value.candidates) == 2
    assert looks_like_a_move(menu, str(mines))


def test_architects_words_name_a_place_or_done() -> None:
    menu = first("architects", lambda m: places(m) and any(
        m.labels[n] == "Quarry" for n in m.labels))
    quarry = next(m for m in menu.moves if "Quarry" in steps_of(menu, m))
    assert menu.resolve("quarry") == menu.resolve("  QUARRY. ") == quarry
    assert menu.resolve("Place a Worker, Quarry") == quarry
    done_menu = first("architects", lambda m: any(m.labels[n] == "Done" for n in m.labels))
    done = next(m for m in done_menu.moves if steps_of(done_menu, m) == ["Done"])
    assert done_menu.resolve("Done") == done_menu.resolve("done") == done
    assert looks_like_a_move(done_menu, "done")


def test_architects_a_building_is_named_by_its_name_and_its_price_may_be_left_out() -> None:
    menu = first("architects", lambda m: any(
        steps_of(m, x)[0] == "Construct a Building" for x in m.moves))
    build_move = next(m for m in menu.moves if steps_of(menu, m)[0] == "Construct a Building")
    building = steps_of(menu, build_move)[1]
    same = [m for m in menu.moves if steps_of(menu, m)[1:2] == [building]]
    name = building.split(":")[0]
    if len(same) == 1:
        assert menu.resolve(name) == build_move
        assert menu.resolve(str(menu.numbers_of(build_move)[1])) == build_move
    else:
        with pytest.raises(NotAMove, match="fits several moves"):
            menu.resolve(name)


def test_architects_a_payment_lists_its_legal_combinations() -> None:
    menu = first("architects", lambda m: any("one of: " in line for line in m.lines()))
    lines = menu.lines()
    ways = next(line for line in lines if "one of: " in line).split("one of: ")[1]
    for way in ways.split(" | "):
        numbers = [int(n) for n in way.split()]
        assert any(not Counter(numbers) - Counter(menu.numbers_of(m)) for m in menu.moves)


def test_architects_eight_apprentices_times_five_dismissals_take_one_list_each() -> None:
    menu = first("architects", lambda m: any(
        steps_of(m, x)[0] == "Hire an Apprentice" and len(steps_of(m, x)) == 3
        for x in m.moves) and len(m.moves) > 12)
    assert any(line.strip().startswith("after any of") for line in menu.lines())
    assert len(menu.lines()) < len(menu.moves)
    move = next(m for m in menu.moves if len(menu.numbers_of(m)) == 3)
    _, hire, dismiss = menu.numbers_of(move)
    assert menu.resolve(f"{hire} {dismiss}") == move


# -- King's Guild: specialists, rooms, crafts, words ------------------------------------
def hires(menu: Menu) -> bool:
    return sum(steps_of(menu, m)[0] == "Hire a specialist" for m in menu.moves) > 1 and any(
        steps_of(menu, m)[0] == "Build a room" for m in menu.moves)


def test_kings_guild_hire_a_specialist_then_a_position() -> None:
    menu = first("kings-guild", hires)
    for move in menu.moves:
        steps = steps_of(menu, move)
        if steps[0] == "Hire a specialist":
            numbers = menu.numbers_of(move)
            assert menu.resolve(text(numbers[1:])) == move
            positions = {s[2] for s in (steps_of(menu, m) for m in menu.moves)
                         if s[:2] == steps[:2]}
            if len(positions) == 1:  # the only position may be left out too
                assert menu.resolve(str(numbers[1])) == move


def test_kings_guild_a_room_and_a_specialist_do_not_make_a_move_together() -> None:
    menu = first("kings-guild", hires)
    room = next(m for m in menu.moves if steps_of(menu, m)[0] == "Build a room")
    hire = next(m for m in menu.moves if steps_of(menu, m)[0] == "Hire a specialist")
    a, b = menu.numbers_of(room)[1], menu.numbers_of(hire)[1]
    with pytest.raises(NotAMove) as exc:
        menu.resolve(f"{a} {b}")
    assert exc.value.reason.startswith(f"{a} and {b} do not make a move together: ")
    assert exc.value.candidates


def test_kings_guild_words_gather_resources_and_a_room_name() -> None:
    menu = first("kings-guild", hires)
    gather = next(m for m in menu.moves if steps_of(menu, m) == ["Gather resources"])
    assert menu.resolve("Gather resources") == menu.resolve("gather   RESOURCES!") == gather
    assert menu.resolve("gath") == gather  # a unique beginning
    room = next(m for m in menu.moves if steps_of(menu, m)[0] == "Build a room")
    room_name = steps_of(menu, room)[1].split(" (")[0]
    assert menu.resolve(room_name) == room
    assert menu.resolve(menu.labels[menu.numbers_of(room)[1]]) == room
    with pytest.raises(NotAMove, match="names no move"):
        menu.resolve("a fine move, well played")
    with pytest.raises(NotAMove, match="fits several moves"):
        menu.resolve("Hire a specialist")


def test_kings_guild_two_treasures_from_the_same_deck() -> None:
    menu = first("kings-guild", lambda m: any(  # a rare choice: random games look far
        e.pick and e.label.endswith(" deck") for e in m.entries), seeds=range(1, 41))
    twice = next(m for m in menu.moves if len(set(menu.numbers_of(m)[1:])) == 1)
    deck = menu.numbers_of(twice)[1]
    assert menu.resolve(f"{deck} {deck}") == twice
    with pytest.raises(NotAMove, match="choose 2, and you named 1"):
        menu.resolve(str(deck))


# -- reading a line ----------------------------------------------------------------------
def test_a_line_of_numbers_or_a_moves_words_looks_like_a_move() -> None:
    menu = first("kings-guild", hires)
    for line in ["2 5 7 9", "2,5,7,9", "2+5", "7.", " 12 - 3 ", "99"]:
        assert looks_like_a_move(menu, line), line
    for line in ["Thanks, good game!", "see you tomorrow", "", "Hi", "2 please"]:
        assert not looks_like_a_move(menu, line), line
    assert looks_like_a_move(menu, "Gather resources")


def test_the_rendered_menu_shows_each_number_and_label() -> None:
    menu = first("kings-guild", hires)
    lines = menu.lines()
    width = len(str(max(menu.labels)))
    for entry in menu.entries:
        if entry.pick is None:
            assert f"{entry.number:>{width}}  {'  ' * entry.depth}{entry.label}" in lines


def test_a_menu_line_copied_whole_names_its_step() -> None:
    menu = first("architects", lambda m: places(m) and any(
        m.labels[n] == "Quarry" for n in m.labels))
    quarry = next(m for m in menu.moves if "Quarry" in steps_of(menu, m))
    number = menu.numbers_of(quarry)[-1]
    line = next(line for line in menu.lines() if line.strip().endswith("  Quarry"))
    assert menu.resolve(line) == menu.resolve(f"{number}. Quarry") == quarry
    assert looks_like_a_move(menu, line)
    with pytest.raises(NotAMove):
        menu.resolve(f"{number} Forest, I think")


def test_feudum_done_twice_shows_once_and_one_number_names_it() -> None:
    menu = first("feudum-guilds", lambda m: any(
        steps_of(m, x) == ["Done", "Done"] for x in m.moves))
    done = next(m for m in menu.moves if steps_of(menu, m) == ["Done", "Done"])
    number = menu.numbers_of(done)[0]
    assert sum(line.strip() == f"{number}  Done" for line in menu.lines()) == 1
    assert menu.resolve(str(number)) == menu.resolve("done") == done


class _Twins(Game):
    """Two legal moves whose steps read alike, and one whose steps fail to build."""

    kind, name, min_players, max_players = "twins", "Twins", 1, 1

    def setup(self, players: list[str], options: dict, rng: GameRandom) -> State:
        return {}

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        return None

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return [{"n": 1}, {"n": 2}, {"n": 3}]

    def to_act(self, state: State) -> set[int]:
        return {0}

    def view(self, state: State, seat: int | None) -> dict:
        return {}

    def describe(self, event: dict, seat: int | None) -> str:
        return ""

    def outcome(self, state: State) -> dict | None:
        return None

    def move_label(self, state: State, seat: int, move: Move) -> str:
        return "Take a coin" if move["n"] < 3 else "Pass"

    def move_steps(self, state: State, seat: int, move: Move) -> list[dict]:
        if move["n"] == 3:
            raise RuntimeError("a presentation bug")
        return [{"label": "Take"}, {"label": "A coin"}]


def test_moves_that_read_alike_still_get_numbers_of_their_own() -> None:
    menu = build(_Twins(), {}, 0)
    assert [menu.resolve(text(menu.numbers_of(m))) for m in menu.moves] == menu.moves
    assert "Pass" in menu.lines()[-1]  # its steps failed: one step, its label
    with pytest.raises(NotAMove, match="could be several moves"):
        menu.resolve("1")
