"""`showdown.contract.record`: the game model's records behave as the frozen dataclasses they
replace
(see the module for why), checked side by side with a dataclass of the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Mapping
from functools import cached_property

import pytest

from showdown.contract.record import COMPILE_AFTER, FrozenRecordError, field, record, replace


@record
class Seat:
    name: str
    joined: int = 0
    team: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class SeatDC:
    name: str
    joined: int = 0
    team: int | None = None


@record
class Line:
    name: str
    cells: Mapping[str, int] = field(default_factory=dict)
    revision: int = field(default=0, compare=False)


@record(order=True)
class Face:
    rank: int
    colour: str = ""


@record(slots=False)
class Table:
    seats: tuple[Seat, ...]

    @cached_property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]


CALLS = [((("Ann",), {})), (("Ann", 2), {}), (("Ann", 2, 1), {}), (("Ann",), {"team": 1}),
         ((), {"name": "Ann", "joined": 3})]


@pytest.mark.parametrize("args, kwargs", CALLS)
def test_a_record_is_built_and_shown_as_the_dataclass(args, kwargs) -> None:
    made, expected = Seat(*args, **kwargs), SeatDC(*args, **kwargs)
    assert [made.name, made.joined, made.team] == [expected.name, expected.joined, expected.team]
    assert repr(made) == repr(expected).replace("SeatDC", "Seat")


@pytest.mark.parametrize("args, kwargs", [
    ((), {}),  # missing a field
    (("Ann", 1, 2, 3), {}),  # too many
    (("Ann",), {"nmae": "Bob"}),  # unknown keyword
    (("Ann",), {"name": "Bob"}),  # twice
])
def test_a_record_refuses_what_the_dataclass_refuses(args, kwargs) -> None:
    with pytest.raises(TypeError):
        SeatDC(*args, **kwargs)
    with pytest.raises(TypeError):
        Seat(*args, **kwargs)


def test_equality_and_hash_are_by_value_and_class() -> None:
    assert Seat("Ann", 1) == Seat("Ann", joined=1) and Seat("Ann") != Seat("Bob")
    assert hash(Seat("Ann", 1)) == hash(Seat("Ann", 1))
    assert {Seat("Ann"): 1}[Seat("Ann")] == 1
    assert Seat("Ann") != SeatDC("Ann") and Seat("Ann") != ("Ann", 0, None)


def test_a_field_left_out_of_equality_and_a_fresh_default() -> None:
    one, two = Line("a"), Line("a")
    assert one.cells == {} and one.cells is not two.cells
    assert Line("a", revision=1) == Line("a", revision=7)
    assert Line("a", {"x": 1}) != Line("a")


def test_a_record_cannot_be_changed_only_replaced() -> None:
    seat = Seat("Ann")
    with pytest.raises(FrozenRecordError):
        seat.name = "Bob"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del seat.joined  # type: ignore[misc]
    with pytest.raises(AttributeError):  # slotted: no attribute beside the fields
        object.__setattr__(seat, "other", 1)
    moved = replace(seat, joined=4)
    assert moved == Seat("Ann", 4) and seat == Seat("Ann")
    with pytest.raises(TypeError):
        replace(seat, nmae="Bob")


def test_order_compares_the_fields_in_turn() -> None:
    assert sorted([Face(5, "r"), Face(2, "g"), Face(5, "b")]) == [Face(2, "g"), Face(5, "b"),
                                                                   Face(5, "r")]
    assert Face(1) < Face(2) <= Face(2) and Face(3) > Face(2) >= Face(2)
    with pytest.raises(TypeError):
        _ = Face(1) < Seat("Ann")  # type: ignore[operator]


def test_a_record_survives_pickling_and_copying() -> None:
    line = Line("a", {"x": 1}, revision=3)
    for again in (pickle.loads(pickle.dumps(line)), copy.copy(line), copy.deepcopy(line)):
        assert again == line and again.revision == 3 and type(again) is Line


def test_a_record_without_slots_caches_properties() -> None:
    table = Table((Seat("Ann"), Seat("Bob")))
    assert table.names == ["Ann", "Bob"] and table.names is table.names
    assert table == Table((Seat("Ann"), Seat("Bob")))


def test_a_field_without_a_default_cannot_follow_one_with_a_default() -> None:
    with pytest.raises(TypeError):
        @record
        class Wrong:
            name: str = ""
            joined: int  # type: ignore[misc]


class Outer:
    """A record defined in a class, as a dataclass may be."""

    @record
    class Inner:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class InnerDC:
        x: int


def test_a_record_in_a_class_is_named_and_pickled_as_the_dataclass() -> None:
    assert repr(Outer.Inner(1)) == repr(Outer.InnerDC(1)).replace("InnerDC", "Inner")
    assert pickle.loads(pickle.dumps(Outer.Inner(1))) == Outer.Inner(1)


def test_a_record_without_fields_is_made_as_the_dataclass() -> None:
    @record
    class Empty:
        pass

    assert Empty() == Empty() and hash(Empty()) == hash(Empty())
    assert repr(Empty()).endswith(".Empty()")


def test_a_record_that_writes_its_own_equality_still_hashes_its_fields() -> None:
    @record
    class Named:
        name: str

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Named) and self.name.lower() == other.name.lower()

    assert Named("Ann") == Named("ANN") and Named("Ann") != Named("Bob")
    assert {Named("Ann"): 1}[Named("Ann")] == 1  # a frozen dataclass's hash, over its fields


@record
class Ranked(Seat):
    rank: int = 0


def test_a_record_inherits_its_base_records_fields() -> None:
    made = Ranked("Ann", 2, None, 5)
    assert repr(made) == "Ranked(name='Ann', joined=2, team=None, rank=5)"
    assert Ranked.__match_args__ == ("name", "joined", "team", "rank")
    assert made != Seat("Ann", 2) and replace(made, rank=1) == Ranked("Ann", 2, rank=1)
    assert pickle.loads(pickle.dumps(made)) == made


def test_a_records_own_check_runs_after_its_fields_are_set_as_a_dataclasss_does() -> None:
    @record
    class Score:
        points: int

        def __post_init__(self) -> None:
            if self.points < 0:
                raise ValueError("points are never negative")

    assert Score(3).points == 3
    with pytest.raises(ValueError):
        Score(-1)
    with pytest.raises(ValueError):
        replace(Score(3), points=-2)


def test_a_record_is_made_and_refused_alike_before_and_after_its_init_is_compiled() -> None:
    """A class's first records bind their fields in Python; after `COMPILE_AFTER` of them its
    own `__init__` is compiled (a command pays the compiler only for the kinds it makes
    often). Either way a record is built, defaulted and refused the same, and a subclass
    record keeps its own `__init__`."""

    @record
    class Base:
        a: int
        b: int = 2
        c: list[int] = field(default_factory=list)

        def __post_init__(self) -> None:
            if self.a < 0:
                raise ValueError("a below 0")

    @record
    class Sub(Base):
        d: int = 4

    assert Base.__init__.__code__.co_argcount == 1  # self, *args, **kwargs: not compiled yet
    for _round in range(COMPILE_AFTER):
        assert (Base(1).a, Base(1).b, Base(1).c) == (1, 2, [])
        assert Base(1).c is not Base(1).c  # a fresh default each time
        assert Base(1, c=[5]) == Base(a=1, b=2, c=[5]) != Base(1, 3)
        assert repr(Sub(1, d=9)).endswith(".Sub(a=1, b=2, c=[], d=9)")
        for args, kwargs in (((), {}), ((1, 2, [], 4), {}), ((1,), {"x": 1}),
                             ((1,), {"a": 1})):
            with pytest.raises(TypeError):
                Base(*args, **kwargs)
        with pytest.raises(ValueError):
            Base(-1)
        with pytest.raises(TypeError):
            Sub(1, 2, [], 4, 5)
    assert Base.__init__.__code__.co_argcount == 4  # self, a, b, c: compiled
    assert Sub.__init__.__code__.co_argcount == 5 and Sub.__init__ is not Base.__init__
    assert Base.__init__.__qualname__ == "Base.__init__"
