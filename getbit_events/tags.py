"""Reading a game's set-up from its tags: names, variant and who plays what (R1, R2)."""

from __future__ import annotations

from getbit_events import rules
from getbit_events.events import GameStarted
from getbit_events.findings import Walk
from getbit_events.record import RecordedTag

__all__ = ["read_setup"]

_NAME_FORBIDDEN = frozenset(',;:#[]"\n\r')
_KNOWN = frozenset(("line", "variant", "memory", "automaton", "teams", "shark", "winner"))
_Teams = tuple[tuple[str, tuple[str, ...]], ...]


def read_setup(walk: Walk) -> GameStarted | None:
    """The set-up the game's tags give, or None after flagging why there is none.

    Also gives ``walk`` the swimmers' names (``canon``, ``lookup``) and the Winner tag.
    """
    seen, extra = _tags(walk)
    walk.winner_tag = seen.get("winner")
    ok = not walk.violations
    line_tag = seen.get("line")
    if line_tag is None:
        walk.flag("missing-line", "the game has no Line tag", walk.game.pos, in_round=False)
        return None
    line = _names(walk, line_tag.value, line_tag)
    if line is None:
        return None
    walk.canon = {n.casefold(): n for n in line}
    walk.lookup = {**walk.canon, **{n: n for n in line}}  # as spelt, or ignoring case
    variant = "standard"
    if "variant" in seen:
        variant = seen["variant"].value.strip().casefold()
    memory: bool | None = False
    if "memory" in seen:
        memory = _memory(walk, seen["memory"])
        ok = ok and memory is not None
    automaton = None
    if "automaton" in seen:
        raw = seen["automaton"].value.strip()
        automaton = walk.canon.get(raw.casefold(), raw)
    teams: _Teams = ()
    if "teams" in seen:
        parsed = _teams(walk, seen["teams"])
        if parsed is None:
            ok = False
        else:
            teams = parsed
    shark = None
    if "shark" in seen:
        shark = seen["shark"].value.strip()
        if not _valid_name(walk, shark, seen["shark"]):
            ok = False
    for problem in rules.setup_problems(variant, line, automaton, teams, shark):
        if problem.tag == "Teams" and "teams" in seen and not teams:
            continue  # the Teams tag could not be read: that is flagged already
        where = seen.get(problem.tag.casefold(), line_tag)
        walk.flag("bad-setup", problem.message, where.pos, problem.rule, in_round=False)
        ok = False
    if not ok:
        return None
    return GameStarted(
        0,
        variant,
        bool(memory),
        line,
        rules.hand_size(len(line)),  # R1
        automaton,
        teams,
        shark,
        len(line) if variant == "shark" else 0,  # R2: one hunger token per swimmer
        tuple(extra),
        line_tag.pos,
    )


def _memory(walk: Walk, tag: RecordedTag) -> bool | None:
    """Whether the Memory tag is on, or None after flagging a value it cannot take."""
    value = tag.value.strip().casefold()
    if value not in ("on", "off"):
        walk.flag(
            "bad-tag-value", f"Memory is 'on' or 'off', not {tag.value!r}", tag.pos, in_round=False
        )
        return None
    return value == "on"


def _tags(walk: Walk) -> tuple[dict[str, RecordedTag], list[tuple[str, str]]]:
    """The known tags by name (ignoring case; the first of each, a second flagged), and
    the others as written."""
    seen: dict[str, RecordedTag] = {}
    extra: list[tuple[str, str]] = []
    for tag in walk.game.tags:
        key = tag.name.casefold()
        if key not in _KNOWN:
            extra.append((tag.name, tag.value))
        elif key in seen:
            walk.flag(
                "duplicate-tag",
                f"the {tag.name} tag is given twice (first on line {seen[key].pos.line})",
                tag.pos,
                in_round=False,
            )
        else:
            seen[key] = tag
    return seen, extra


def _valid_name(walk: Walk, name: str, tag: RecordedTag) -> bool:
    if not name or not _NAME_FORBIDDEN.isdisjoint(name):
        walk.flag(
            "bad-name",
            f"{name!r} is not a name: names are not empty and hold none of , ; : # [ ] \"",
            tag.pos,
            in_round=False,
        )
        return False
    return True


def _names(walk: Walk, text: str, tag: RecordedTag) -> tuple[str, ...] | None:
    names = tuple(map(str.strip, text.split(",")))
    plain = all(names) and _NAME_FORBIDDEN.isdisjoint("".join(names))
    if not plain and not all(_valid_name(walk, n, tag) for n in names):
        return None
    folded = list(map(str.casefold, names))
    if len(set(folded)) == len(names):
        return names
    seen: set[str] = set()
    for n, key in zip(names, folded, strict=True):
        if key in seen:
            walk.flag(
                "duplicate-name",
                f"{n!r} is named twice in {tag.name} (names ignore case)",
                tag.pos,
                "R2",
                in_round=False,
            )
            return None
        seen.add(key)
    return names


def _teams(walk: Walk, tag: RecordedTag) -> _Teams | None:
    teams = []
    for part in tag.value.split(";"):
        player, colon, swimmers = part.partition(":")
        if not colon:
            walk.flag(
                "bad-tag-value",
                f"Teams reads 'Player: Swimmer, Swimmer; Player: Swimmer, Swimmer', "
                f"not {part.strip()!r}",
                tag.pos,
                in_round=False,
            )
            return None
        player = player.strip()
        if not _valid_name(walk, player, tag):
            return None
        owned = []
        for n in swimmers.split(","):
            n = n.strip()
            canon = walk.canon.get(n.casefold())
            if canon is None:
                walk.flag(
                    "bad-setup",
                    f"Teams gives {player} the swimmer {n!r}, who is not in the Line",
                    tag.pos,
                    "R2",
                    in_round=False,
                )
                return None
            owned.append(canon)
        teams.append((player, tuple(owned)))
    return tuple(teams)
