"""Run stages in dependency order and record what each one measured.

A stage passes when its function returns, fails when it raises, and is skipped when it raises
:class:`Skip` (a documented reason, e.g. the card has no SDMA engine) or when a stage it depends
on did not pass. Results keep the numbers, notes and sub-steps a stage recorded, so a failure
still shows how far the stage got.
"""
import time
import traceback

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


class Skip(Exception):
    """Raised by a stage that does not apply to this device; the message says why."""


class CheckFailed(Exception):
    """A measured value is not what the device must deliver; the message names both."""


class LayerMissing(Exception):
    """A lower layer of the stack (assembler, simulator feature...) cannot do what the stage needs
    yet. The stage still FAILS; the report names the layer so the failure is not taken for a
    device defect."""

    def __init__(self, layer, detail):
        self.layer, self.detail = layer, detail
        super().__init__(f"{layer}: {detail}")


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


class StageResult:
    def __init__(self, stage):
        self.stage = stage
        self.status = None
        self.seconds = 0.0
        self.numbers = {}          # key -> {"value": ..., "unit": ...}
        self.notes = []
        self.steps = []            # sub-step descriptions, in order
        self.summary = ""          # one line for the console
        self.error = None          # {"type", "message", "layer"?, "traceback"?}
        self.skip_reason = None
        self.root = None           # for a stage skipped through its dependencies: the stage that started it
        self._progress = None

    @property
    def name(self):
        return self.stage.name

    def measure(self, key, value, unit=""):
        """Record a measured number (or short string) under ``key``; returns ``value``."""
        if hasattr(value, "item"):           # numpy scalars -> plain Python for JSON
            value = value.item()
        self.numbers[key] = {"value": value, "unit": unit}
        return value

    def note(self, text):
        self.notes.append(str(text))

    def step(self, text):
        """Announce a sub-step (shown as progress while the stage runs)."""
        self.steps.append(str(text))
        if self._progress is not None:
            self._progress(str(text))

    def as_dict(self):
        return {"name": self.name, "title": self.stage.title, "depends": list(self.stage.depends),
                "status": self.status, "seconds": round(self.seconds, 6), "summary": self.summary,
                "numbers": self.numbers, "notes": self.notes, "steps": self.steps,
                "error": self.error, "skip_reason": self.skip_reason}


class Runner:
    """Runs a registry's stages against one context. ``console`` (optional) is told about each
    stage as it starts, each sub-step, and each result."""

    def __init__(self, registry, ctx, console=None):
        self.registry, self.ctx, self.console = registry, ctx, console
        self.results = {}

    def run(self, only=None):
        """Run every stage (or ``only`` these plus what they depend on); returns the results."""
        stages = self.registry.closure(only) if only else list(self.registry)
        for index, stage in enumerate(stages, 1):
            self.run_stage(stage.name, index, len(stages))
        return [self.results[s.name] for s in stages]

    def run_stage(self, name, index=None, total=None):
        """The result of stage ``name``, running it (and its dependencies) first if needed."""
        if name in self.results:
            return self.results[name]
        stage = self.registry[name]
        for dep in stage.depends:
            self.run_stage(dep)
        result = StageResult(stage)
        if self.console is not None:
            self.console.stage_start(stage, index, total)
            result._progress = self.console.step
        blocked = [(d, self.results[d]) for d in stage.depends if self.results[d].status != PASS]
        start = time.perf_counter()
        if blocked:
            dep, r = blocked[0]
            result.status, result.root = SKIP, r.root or r
            if r.status == FAIL:
                why = "failed"
            elif r.root is None:
                why = f"was skipped ({r.skip_reason})"
            else:
                why = f"was skipped because {r.root.name} " + \
                    ("failed" if r.root.status == FAIL else f"was skipped ({r.root.skip_reason})")
            result.skip_reason = f"depends on {dep}, which {why}"
        else:
            self._execute(stage, result)
        result.seconds = time.perf_counter() - start
        result._progress = None
        self.results[name] = result
        if self.console is not None:
            self.console.stage_end(result)
        return result

    def _execute(self, stage, result):
        try:
            stage.fn(self.ctx, result)
            result.status = PASS
        except Skip as e:
            result.status, result.skip_reason = SKIP, str(e) or "skipped"
        except KeyboardInterrupt:
            raise
        except Exception as e:       # noqa: BLE001 -- every failure of the device becomes a FAIL
            result.status = FAIL
            result.error = {"type": type(e).__name__, "message": str(e) or type(e).__name__}
            if isinstance(e, LayerMissing):
                result.error["layer"] = e.layer
            elif not isinstance(e, CheckFailed):
                result.error["traceback"] = "".join(traceback.format_exception(e)[-6:])
        finally:
            self.ctx.after_stage(stage, result)

    @property
    def exit_code(self):
        return 1 if any(r.status == FAIL for r in self.results.values()) else 0
