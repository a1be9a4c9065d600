"""A strategy's compiled form, decided the same way in every game: a game's base `Strategy`
names its decision kinds (`decision_kinds`, an enum of method names) and its default form
(`form`, the uniform random choice); a subclass plays compiled when it overrides no decision
method and its `by_policy` is the one its `form` was declared for. Otherwise the machine asks
it through views, so a user's override is always asked."""

from __future__ import annotations

from typing import Any, ClassVar


class Formed:
    """Mixed into a game's base `Strategy`, which sets `decision_kinds`."""

    #: The machine's compiled form of `by_policy` ("random": the base class's uniform
    #: choice); a subclass that overrides `by_policy` declares its own.
    form: ClassVar[str] = "random"
    #: The game's decision kinds (each value a method of the base class).
    decision_kinds: ClassVar[Any]

    def compiled(self, rules: object) -> Any:
        """The form the machine plays this strategy in (`form`), when every decision is
        `by_policy`'s (no decision method overridden, on the class or the instance) and
        `by_policy` is the one `form` was declared for; else None: the machine asks the
        strategy through views."""
        base = owner(type(self), "decision_kinds")
        for k in base.decision_kinds:
            mine = getattr(self, k.value, None)
            if getattr(mine, "__func__", None) is not getattr(base, k.value):
                return None
        if not issubclass(owner(type(self), "form"), owner(type(self), "by_policy")):
            return None
        return self.form


def owner(cls: type, attr: str) -> type:
    """The class of `cls`'s MRO that defines `attr`."""
    return next(k for k in cls.__mro__ if attr in k.__dict__)
