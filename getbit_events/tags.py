"""Reading a game's set-up from its tags: names, variant and who plays what (R1, R2)."""

from __future__ import annotations

from getbit_events import rules
from getbit_events.events import GameStarted
from getbit_events.findings import Findings
from getbit_events.record import RecordedTag

__all__ = ["SetupReader"]

_NAME_FORBIDDEN = frozenset(',;:#[]"\n\r')


class SetupReader(Findings):
    """The set-up part of a validator walk."""

    def setup(self) -> GameStarted | None:
        known = {"line", "variant", "memory", "automaton", "teams", "shark", "winner"}
        seen: dict[str, RecordedTag] = {}
        extra: list[tuple[str, str]] = []
        for tag in self.game.tags:
            key = tag.name.casefold()
            if key not in known:
                extra.append((tag.name, tag.value))
            elif key in seen:
                self.flag(
                    "duplicate-tag",
                    f"the {tag.name} tag is given twice (first on line {seen[key].pos.line})",
                    tag.pos,
                    in_round=False,
                )
            else:
                seen[key] = tag
        self.winner_tag = seen.get("winner")
        ok = not self.violations
        line_tag = seen.get("line")
        if line_tag is None:
            self.flag("missing-line", "the game has no Line tag", self.game.pos, in_round=False)
            return None
        line = self.names(line_tag.value, line_tag)
        if line is None:
            return None
        self.canon = {n.casefold(): n for n in line}
        self.lookup = {**self.canon, **{n: n for n in line}}  # as spelt, or ignoring case
        variant = "standard"
        if "variant" in seen:
            variant = seen["variant"].value.strip().casefold()
        memory = False
        if "memory" in seen:
            value = seen["memory"].value.strip().casefold()
            if value not in ("on", "off"):
                self.flag(
                    "bad-tag-value",
                    f"Memory is 'on' or 'off', not {seen['memory'].value!r}",
                    seen["memory"].pos,
                    in_round=False,
                )
                ok = False
            memory = value == "on"
        automaton = None
        if "automaton" in seen:
            raw = seen["automaton"].value.strip()
            automaton = self.canon.get(raw.casefold(), raw)
        teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if "teams" in seen:
            parsed = self.teams(seen["teams"])
            if parsed is None:
                ok = False
            else:
                teams = parsed
        shark = None
        if "shark" in seen:
            shark = seen["shark"].value.strip()
            if not self.valid_name(shark, seen["shark"]):
                ok = False
        for problem in rules.setup_problems(variant, line, automaton, teams, shark):
            if problem.tag == "Teams" and "teams" in seen and not teams:
                continue  # the Teams tag could not be read: that is flagged already
            where = seen.get(problem.tag.casefold(), line_tag)
            self.flag("bad-setup", problem.message, where.pos, problem.rule, in_round=False)
            ok = False
        if not ok:
            return None
        return GameStarted(
            0,
            variant,
            memory,
            line,
            rules.hand_size(len(line)),  # R1
            automaton,
            teams,
            shark,
            len(line) if variant == "shark" else 0,  # R2: one hunger token per swimmer
            tuple(extra),
            line_tag.pos,
        )

    def valid_name(self, name: str, tag: RecordedTag) -> bool:
        if not name or not _NAME_FORBIDDEN.isdisjoint(name):
            self.flag(
                "bad-name",
                f"{name!r} is not a name: names are not empty and hold none of , ; : # [ ] \"",
                tag.pos,
                in_round=False,
            )
            return False
        return True

    def names(self, text: str, tag: RecordedTag) -> tuple[str, ...] | None:
        names = tuple(map(str.strip, text.split(",")))
        plain = all(names) and _NAME_FORBIDDEN.isdisjoint("".join(names))
        if not plain and not all(self.valid_name(n, tag) for n in names):
            return None
        folded = list(map(str.casefold, names))
        if len(set(folded)) == len(names):
            return names
        seen: set[str] = set()
        for n, key in zip(names, folded, strict=True):
            if key in seen:
                self.flag(
                    "duplicate-name",
                    f"{n!r} is named twice in {tag.name} (names ignore case)",
                    tag.pos,
                    "R2",
                    in_round=False,
                )
                return None
            seen.add(key)
        return names

    def teams(self, tag: RecordedTag) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
        teams = []
        for part in tag.value.split(";"):
            player, colon, swimmers = part.partition(":")
            if not colon:
                self.flag(
                    "bad-tag-value",
                    f"Teams reads 'Player: Swimmer, Swimmer; Player: Swimmer, Swimmer', "
                    f"not {part.strip()!r}",
                    tag.pos,
                    in_round=False,
                )
                return None
            player = player.strip()
            if not self.valid_name(player, tag):
                return None
            owned = []
            for n in swimmers.split(","):
                n = n.strip()
                canon = self.canon.get(n.casefold())
                if canon is None:
                    self.flag(
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

    # -- a round ---------------------------------------------------------------
