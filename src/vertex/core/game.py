"""The one small interface every game implements (DESIGN.md §2).

A `Game` is a rule set with its options fixed; a `State` is an immutable position. Rules are
pure: `play` returns a new state and never touches the old one, and nothing here does IO.
Subclasses implement the `_`-prefixed hooks; the public methods add the checks every game
shares (game over, whose turn, notation) so each game only writes its own rules.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from vertex.core.errors import IllegalMove
from vertex.core.info import GameInfo
from vertex.core.options import GameOptions
from vertex.core.outcome import seat_label
from vertex.core.rng import Rng

if TYPE_CHECKING:
    from vertex.core.capabilities import Aiming, Diagram, PersonalBest
    from vertex.core.record import Record

O = TypeVar("O", bound=GameOptions)
S = TypeVar("S", bound="State")

#: A history entry: the seat that moved (None for a table-level action such as an agreed end)
#: and the move in canonical notation.
Entry = tuple[int | None, str]

#: The move written in a history entry when all seats agree to end the game.
AGREED_END = "end"


class Game(ABC, Generic[O]):
    """A game with its options fixed. A subclass sets `info` (its `GameInfo`, from which `id`,
    `name`, `summary`, `Options` and the capability flags below are taken) and the rest of
    the class metadata."""

    info: ClassVar[GameInfo]
    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    Options: ClassVar[type[GameOptions]]
    #: Games whose moves are continuous (aimed poses) list no moves; see move_schema().
    discrete: ClassVar[bool] = True
    #: Games whose seats may agree to end early with the current scores (Vert3x).
    can_end_by_agreement: ClassVar[bool] = False
    scored: ClassVar[bool] = True
    #: Games whose play() can take many milliseconds (a physics simulation): servers must
    #: run it off their event loop.
    slow_play: ClassVar[bool] = False
    #: Games where several seats may owe a move at once (steps everybody plays together).
    simultaneous: ClassVar[bool] = False
    #: Games where a move may end the game with a winner whatever the scores (Juxtapose).
    sudden_win: ClassVar[bool] = False
    #: A small example for pictures (the lobby, the rules pages): options, and how many
    #: seeded random moves into the game the picture is taken.
    example: ClassVar[tuple[dict[str, Any], int]] = ({}, 0)
    #: Whether the winners are the seats with the best score at the end (the lowest where
    #: `lowest_score_wins`); False where another rule decides (the last tower standing).
    score_decides: ClassVar[bool] = True
    #: Where the game's computer players for levels 1–5 live ("module:Class"; the class is
    #: built as `Class(game, level, seed=...)`). Loaded only when a computer seat plays.
    players: ClassVar[str] = "vertex.ai.search:SearchPlayer"
    #: Where the game's exact solver lives ("module:Class", built as `Class(game)`, with
    #: `solve(state) -> Solution` for two seats), or None: the analysis and `vertex solve`
    #: cover exactly the games that name one. Declared in the game's `GameInfo.solver`, so
    #: the listing (`GET /api/games`) can say which games are analysable.
    solver: ClassVar[str | None] = None
    #: Option sets the random-play test (tests/test_random_play.py) plays: small and quick,
    #: covering the variants; empty means the defaults.
    random_play_cases: ClassVar[tuple[dict[str, Any], ...]] = ()
    #: Positions for the rules pages (`GET /api/rules/{game}/diagrams`), played with the
    #: engine from fixed moves, so a picture cannot drift from the rules.
    diagrams: ClassVar[tuple[Diagram, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("info")
        if isinstance(info, GameInfo):  # the listing's metadata is the class's: one source
            cls.id = info.id
            cls.name = info.name
            cls.summary = info.summary
            cls.Options = info.options
            cls.discrete = info.discrete
            cls.simultaneous = info.simultaneous
            cls.sudden_win = info.sudden_win
            cls.can_end_by_agreement = info.can_end_by_agreement
            cls.scored = info.scored
            cls.slow_play = info.slow_play
            cls.solver = info.solver

    def __init__(self, options: O) -> None:
        self.options = options

    @property
    @abstractmethod
    def seats(self) -> int:
        """Number of seats at the table."""

    @abstractmethod
    def initial_state(self, seed: int = 0) -> State:
        """The starting position; `seed` drives every random choice of the game."""

    @property
    def lowest_score_wins(self) -> bool:
        """Whether the seat with the lowest score wins (misère)."""
        return False

    @property
    def step_seconds(self) -> float | None:
        """The game's own step clock (seconds a seat has to place), or None."""
        return None

    def move_schema(self) -> dict[str, Any]:
        """What a move looks like, for clients and for games without a move list."""
        return {"type": "string", "description": "a move in the game's notation"}

    def options_dict(self) -> dict[str, Any]:
        return self.options.model_dump(mode="json")

    def move_catalogue(self) -> list[str] | None:
        """Every move the game could ever list, in a fixed order (action numbers for
        learning environments), or None when moves are not drawn from a fixed set."""
        return None

    @classmethod
    def describe(cls) -> dict[str, Any]:
        return cls.info.describe()

    def key(self) -> tuple[str, str]:
        return (self.id, self.options.model_dump_json())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} {self.options_dict()}>"


class State(ABC):
    """An immutable position plus the history that led to it.

    Equality is by game, seed and history: two states are equal when the same moves were
    played from the same start, which is what `vertex.replay(record) == state` means.
    """

    __slots__ = ("game", "history", "seed")

    game: Game[Any]
    seed: int
    history: tuple[Entry, ...]

    # ---- what every game implements -------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats that owe a move now; () when the game is over."""

    @property
    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """A score per seat (final once the game is over)."""

    @property
    @abstractmethod
    def winners(self) -> tuple[int, ...]:
        """Seats that won; () while the game is on. All seats = a draw."""

    @abstractmethod
    def legal_moves(self) -> list[str] | None:
        """Every legal move in canonical notation, or None for continuous-move games."""

    @abstractmethod
    def _play(self, move: str, seat: int) -> State:
        """Parse, check and apply `move` for `seat`, who is known to be due to move."""

    @abstractmethod
    def _board(self) -> dict[str, Any]:
        """The game-specific part of to_dict(): whatever a board needs to be drawn."""

    def sample_move(self, seat: int, rng: Rng) -> tuple[str, Rng]:
        """A uniformly random legal move for `seat` and the advanced generator.

        Continuous-move games (legal_moves() is None) override this to draw an aim.
        """
        moves = self.legal_moves()
        if not moves:
            raise IllegalMove(f"{seat_label(seat)} has no move to make")
        i, rng = rng.below(len(moves))
        return moves[i], rng

    def sealed(self) -> tuple[int, ...]:
        """Seats whose move in the step under way others may not see yet (none by default)."""
        return ()

    def aiming(self) -> Aiming | None:
        """The aiming protocol while a seat is due, for games with continuous moves."""
        return None

    def personal_best(self) -> PersonalBest | None:
        """The result as it stands for the personal-best lists, if this game earns one (asked
        when the table's game has ended: played out, resigned, stopped)."""
        return None

    def _ending(self) -> tuple[str, dict[str, Any]]:
        """What ended the game (asked once it is over): a code and its parameters."""
        return "no-move", {}

    def _end_by_agreement(self) -> State:
        raise IllegalMove(f"{self.game.name} cannot be ended by agreement")

    # ---- shared behaviour ----------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not self.to_move

    def play(self, move: str, seat: int | None = None) -> State:
        """Play `move` for `seat` (default: the one seat due) and return the new state."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move must be a string, not {type(move).__name__}")
        if self.is_over:
            raise IllegalMove("the game is over: no more moves")
        due = self.to_move
        if seat is None:
            if len(due) != 1:
                raise IllegalMove("several seats are due to move: say which seat plays")
            seat = due[0]
        elif not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalMove(f"seat must be a number, not {seat!r}")
        if not 0 <= seat < self.game.seats:
            raise IllegalMove(f"there is no seat {seat} at this table")
        if seat not in due:
            waiting = ", ".join(seat_label(s) for s in due)
            raise IllegalMove(f"it is not {seat_label(seat)}'s turn ({waiting} to move)")
        return self._play(move.strip(), seat)

    def end_by_agreement(self) -> State:
        """End now with the current scores (every seat agreed; the table checks that)."""
        if self.is_over:
            raise IllegalMove("the game is over already")
        return self._end_by_agreement()

    def _with_entry(self: S, entry: Entry) -> S:
        """A shallow copy with one more history entry; subclasses then set their fields."""
        clone = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(self, name):
                    object.__setattr__(clone, name, getattr(self, name))
        if hasattr(self, "__dict__"):
            clone.__dict__.update(self.__dict__)
        clone.history = (*self.history, entry)
        return clone

    def ending(self) -> dict[str, Any] | None:
        """What ended the game, for words in the player's language: `code` and `params`, and
        `rule`, how the winners were found ("most": the highest score, "fewest": misère, None
        where the score does not decide). None while the game is on."""
        if not self.is_over:
            return None
        if self.history and self.history[-1][1] == AGREED_END:
            code, params = "agreed", dict[str, Any]()
        else:
            code, params = self._ending()
        rule = None
        if self.game.score_decides:
            rule = "fewest" if self.game.lowest_score_wins else "most"
        return {"code": code, "params": params, "rule": rule}

    def to_dict(self) -> dict[str, Any]:
        last = self.history[-1] if self.history else None
        return {
            "game": self.game.id,
            "options": self.game.options_dict(),
            "seats": self.game.seats,
            "to_move": list(self.to_move),
            "legal_moves": self.legal_moves(),
            "scores": list(self.scores),
            "is_over": self.is_over,
            "winners": list(self.winners),
            "ply": len(self.history),
            "last_move": None if last is None else {"seat": last[0], "move": last[1]},
            "board": self._board(),
            "ending": self.ending(),
        }

    def record(
        self,
        seats: Sequence[dict[str, Any]] | None = None,
        times: Sequence[float | None] | None = None,
    ) -> Record:
        from vertex.core.record import Record, RecordedMove

        if seats is None:
            seats = [{"name": seat_label(s), "kind": "human"} for s in range(self.game.seats)]
        moves = [
            RecordedMove(seat=seat, move=move, t=None if times is None else times[i])
            for i, (seat, move) in enumerate(self.history)
        ]
        return Record(
            game=self.game.id,
            options=self.game.options_dict(),
            seed=self.seed,
            seats=[dict(s) for s in seats],
            moves=moves,
            result=self.result(),
        )

    def result(self) -> dict[str, Any]:
        return {"is_over": self.is_over, "scores": list(self.scores), "winners": list(self.winners)}

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.game == other.game
            and self.seed == other.seed
            and self.history == other.history
        )

    def __hash__(self) -> int:
        return hash((self.game, self.seed, self.history))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.id} ply={len(self.history)}>"
