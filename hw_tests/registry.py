"""Stages and their dependencies.

A stage is a function ``fn(ctx, result)`` that measures one property of the device and raises when
the device does not have it. Stages are registered in dependency order (a stage may only depend
on stages registered before it), so registration order is a valid run order.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Stage:
    name: str
    title: str
    fn: object = field(repr=False, compare=False)
    depends: tuple = ()

    @property
    def doc(self):
        return (self.fn.__doc__ or "").strip()


class Registry:
    """An ordered set of stages; ``stage(...)`` is the decorator that adds one."""

    def __init__(self):
        self._stages = {}

    def add(self, name, fn, depends=(), title=None):
        if not name or not name.replace("_", "").isalnum():
            raise ValueError(f"stage name {name!r} must be a non-empty identifier")
        if name in self._stages:
            raise ValueError(f"stage {name!r} is registered twice")
        depends = tuple(depends)
        for dep in depends:
            if dep not in self._stages:
                raise ValueError(f"stage {name!r} depends on {dep!r}, which is not registered before it")
        title = title or (fn.__doc__ or name).strip().splitlines()[0].rstrip(".")
        stage = self._stages[name] = Stage(name, title, fn, depends)
        return stage

    def stage(self, name, depends=(), title=None):
        def register(fn):
            self.add(name, fn, depends, title)
            return fn
        return register

    def __getitem__(self, name):
        try:
            return self._stages[name]
        except KeyError:
            raise KeyError(f"no stage named {name!r}; stages: {', '.join(self._stages)}") from None

    def __contains__(self, name):
        return name in self._stages

    def __iter__(self):
        return iter(self._stages.values())

    def __len__(self):
        return len(self._stages)

    @property
    def names(self):
        return list(self._stages)

    def closure(self, names):
        """``names`` plus everything they depend on, transitively, in run order."""
        wanted = set()

        def visit(name):
            if name not in wanted:
                wanted.add(name)
                for dep in self[name].depends:
                    visit(dep)

        for name in names:
            visit(name)
        return [s for s in self if s.name in wanted]

    def dependents(self, name):
        """Stages that need ``name``, directly or not."""
        out, frontier = [], {name}
        for s in self:
            if frontier & set(s.depends):
                out.append(s)
                frontier.add(s.name)
        return out
