"""Immutable records that cost nothing to define: `@record` where a frozen, slotted dataclass
would do, for the values every `uno-showdown game ...` builds as it starts.

Why not `dataclasses`: it writes each class's methods as source text and compiles them while
the module is imported (six compilations for a frozen class: about a millisecond a class on
this project's machines), and importing it imports `inspect`, with ast, dis and tokenize. The
game model, its scoring and its store define some 35 records before `game show` reads a
byte: together that was half of the command's own start-up. A record's methods are written
once, below, and compiled with this file; each class only lists its fields.

A record is what `@dataclass(frozen=True, slots=True)` makes, less the introspection this
project does not use (`dataclasses.fields`, `asdict`): fields from the class's annotations,
in order, after its base record's, with their defaults (`field(default_factory=...)` for a
fresh one per record, `field(compare=False)` for one left out of equality); construction by
position or keyword, refused with the TypeError a dataclass would raise; equality and hash
over the compared fields, with the same class only; a repr; no attribute set or deleted
after construction (`FrozenRecordError`, an AttributeError); `__post_init__`, where the
class writes one, called once the fields are set; `replace()`; pickling and
copying. `order=True` adds <, <=, >, >= on the compared fields in order; `slots=False` keeps
the instance's `__dict__` (for `functools.cached_property`). Type checkers read a record as
a frozen dataclass, through `typing.dataclass_transform`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

#: typing.TYPE_CHECKING without importing typing, which every `game` command would pay for
#: at start (mypy takes any `TYPE_CHECKING` as true, and reads the real decorators).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform, overload

    T = TypeVar("T")
else:
    def dataclass_transform(**_how: object) -> Callable[[T], T]:
        """At run time the decorator only tells type checkers: it changes nothing."""
        return lambda function: function

#: No default given (None is a default like any other).
_MISSING: Any = object()


class FrozenRecordError(AttributeError):
    """A field of a record was set or deleted after construction."""


class _Field:
    """What `field()` says about one field."""

    __slots__ = ("compare", "default", "default_factory")

    def __init__(self, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None,
                 compare: bool = True) -> None:
        self.default = default
        self.default_factory = default_factory
        self.compare = compare


def field(*, default: Any = _MISSING, default_factory: Callable[[], Any] | None = None,
          compare: bool = True) -> Any:
    """A field's default (`default`, or `default_factory()` called for each new record) and
    whether it counts in equality and hash (`compare`)."""
    if default is not _MISSING and default_factory is not None:
        raise ValueError("a field takes a default or a default_factory, not both")
    return _Field(default, default_factory, compare)


if TYPE_CHECKING:
    @overload
    def record(cls: type[T], /) -> type[T]: ...
    @overload
    def record(*, order: bool = False, slots: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def record(cls: type[T] | None = None, /, *, order: bool = False,
           slots: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """Make `cls` a record (see the module's docstring): `@record`, `@record(order=True)`,
    `@record(slots=False)`."""

    def make(cls: type[T]) -> type[T]:
        return _build(cls, order=order, slots=slots)

    return make if cls is None else make(cls)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record `obj` with the fields named in `changes` given new values."""
    values = {name: getattr(obj, name) for name in type(obj).__record_fields__}  # type: ignore[attr-defined]
    values.update(changes)
    return type(obj)(**values)


def _build(cls: type[T], *, order: bool, slots: bool) -> type[T]:
    """`cls` made again as a record: the same name, bases and body, with slots for its fields
    (a slot and a class attribute cannot share a name, so the defaults move to the specs)."""
    specs: dict[str, _Field] = {}
    for base in reversed(cls.__mro__[1:]):
        specs.update(getattr(base, "__record_specs__", {}))
    body = dict(cls.__dict__)
    body["__qualname__"] = cls.__qualname__  # a record in a class: its repr and pickle find it
    for name, annotation in body.get("__annotations__", {}).items():
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        given = body.pop(name, _MISSING)
        specs[name] = given if isinstance(given, _Field) else _Field(default=given)
    names = tuple(specs)
    _check_defaults_come_last(cls, specs)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    if slots:
        inherited = {slot for base in cls.__mro__[1:] for slot in getattr(base, "__slots__", ())}
        body["__slots__"] = tuple(name for name in names if name not in inherited)
    body["__record_fields__"] = names
    body["__record_specs__"] = specs
    body["__match_args__"] = names
    methods = _methods(cls.__name__, specs, post_init=hasattr(cls, "__post_init__"))
    if order:
        methods.update(_order_methods(specs))
    if body.get("__hash__", _MISSING) is None and "__eq__" in body:
        # Python sets __hash__ to None in a class that writes its own __eq__; a frozen
        # dataclass still hashes its fields then, and so does a record.
        del body["__hash__"]
    for name, method in methods.items():
        body.setdefault(name, method)  # a method the class writes itself stays
    metaclass: type = type(cls)
    built: type[T] = metaclass(cls.__name__, cls.__bases__, body)
    return built


def _check_defaults_come_last(cls: type, specs: dict[str, _Field]) -> None:
    seen_default = False
    for name, spec in specs.items():
        has_default = spec.default is not _MISSING or spec.default_factory is not None
        if seen_default and not has_default:
            raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one "
                            "with a default")
        seen_default = seen_default or has_default


def _methods(class_name: str, specs: dict[str, _Field], *,
             post_init: bool = False) -> dict[str, Callable[..., Any]]:
    """The methods of a record with these fields, made once per class: `__init__` from its
    fields (`_init_when_needed`, compiled once the class is used often), the others closures
    over them, compiled with this file."""
    names = tuple(specs)
    compared = tuple(name for name, spec in specs.items() if spec.compare)
    key = _key(compared)

    def __repr__(self: Any) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) == key(other)

    def __hash__(self: Any) -> int:
        return hash(key(self))

    def __setattr__(self: Any, name: str, value: object) -> None:
        raise FrozenRecordError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise FrozenRecordError(f"cannot delete field {name!r}")

    def __reduce__(self: Any) -> tuple[type, tuple[Any, ...]]:
        return type(self), tuple(getattr(self, name) for name in names)

    return {"__init__": _init_when_needed(class_name, specs, post_init),
            "__repr__": __repr__,
            "__eq__": __eq__, "__hash__": __hash__, "__setattr__": __setattr__,
            "__delattr__": __delattr__, "__reduce__": __reduce__}


def _key(compared: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The compared fields of a record as one tuple, read by a C function where there are
    two or more (cards and players are dictionary keys: hashing and comparing stays cheap)."""
    if len(compared) > 1:
        return attrgetter(*compared)
    if compared:
        name = compared[0]
        return lambda obj: (getattr(obj, name),)
    return lambda obj: ()  # no field compared: all records of the class are equal


#: How many records of a class are made by binding their fields in Python before the class's
#: own `__init__` is compiled (`_init_when_needed`).
COMPILE_AFTER = 32


def _init_when_needed(class_name: str, specs: dict[str, _Field],
                      post_init: bool) -> Callable[..., None]:
    """The record's `__init__` until `COMPILE_AFTER` records of the class are made: it binds
    the fields itself, then compiles the class's own (`_init`), puts it in its place and
    hands over to it. A command that makes a few records of a class never pays the compiler
    for it: under a Pi-class CPU each compilation costs about 5 ms, and `game round` makes
    some 20 kinds of record, most of them once or twice. A long game's load, which makes
    thousands, gets the compiled one, twice as fast a record. Calls are refused with
    TypeErrors like Python's own (the wording differs a little)."""
    names = tuple(specs)
    made = 0

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        if made > COMPILE_AFTER:
            init = _init(class_name, specs, post_init)
            for cls in type(self).__mro__:  # the class this stand-in is the `__init__` of
                if cls.__dict__.get("__init__") is __init__:
                    cls.__init__ = init  # type: ignore[misc]
                    break
            init(self, *args, **kwargs)
            return
        if len(args) > len(names):
            raise TypeError(f"{class_name}.__init__() takes {len(names) + 1} positional "
                            f"arguments but {len(args) + 1} were given")
        values = dict(zip(names, args, strict=False))  # the rest: by keyword, or defaults
        for name, value in kwargs.items():
            if name not in specs:
                raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument "
                                f"{name!r}")
            if name in values:
                raise TypeError(f"{class_name}.__init__() got multiple values for argument "
                                f"{name!r}")
            values[name] = value
        for name, spec in specs.items():
            if name in values:
                value = values[name]
            elif spec.default_factory is not None:
                value = spec.default_factory()
            elif spec.default is not _MISSING:
                value = spec.default
            else:
                missing = [n for n in names if n not in values and
                           specs[n].default is _MISSING and specs[n].default_factory is None]
                raise TypeError(f"{class_name}.__init__() missing {len(missing)} required "
                                f"argument(s): {', '.join(map(repr, missing))}")
            object.__setattr__(self, name, value)
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{class_name}.__init__"
    return __init__


def _init(class_name: str, specs: dict[str, _Field], post_init: bool) -> Callable[..., None]:
    """The record's `__init__`, compiled from its fields: the one method that is (about a
    tenth of what a dataclass compiles). Python then binds the arguments, and refuses a bad
    call, as it does for any function; binding them in Python (`_init_when_needed`) makes
    each record twice as slow to build, which a long game's load (thousands of records)
    felt."""
    params, lines = [], []
    for name, spec in specs.items():
        if spec.default_factory is not None:
            params.append(f"{name}=_MISSING")
            lines.append(f"    if {name} is _MISSING:\n        {name} = _factories[{name!r}]()")
        elif spec.default is not _MISSING:
            params.append(f"{name}=_defaults[{name!r}]")
        else:
            params.append(name)
        lines.append(f"    _set(self, {name!r}, {name})")
    if post_init:  # a check the class writes, run once the fields are set, as a dataclass does
        lines.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(lines or ["    pass"])
    scope = {"_MISSING": _MISSING, "_set": object.__setattr__,
             "_defaults": {name: spec.default for name, spec in specs.items()},
             "_factories": {name: spec.default_factory for name, spec in specs.items()}}
    made: dict[str, Any] = {}
    exec(source, scope, made)  # the source is made above, from the class's field names
    init: Callable[..., None] = made["__init__"]
    init.__qualname__ = f"{class_name}.__init__"
    return init


def _order_methods(specs: dict[str, _Field]) -> dict[str, Callable[..., Any]]:
    """<, <=, >, >= on the compared fields in order, between records of one class."""
    compared = tuple(name for name, spec in specs.items() if spec.compare)
    key = _key(compared)

    def __lt__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) < key(other)

    def __le__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) <= key(other)

    def __gt__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) > key(other)

    def __ge__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return key(self) >= key(other)

    return {"__lt__": __lt__, "__le__": __le__, "__gt__": __gt__, "__ge__": __ge__}
