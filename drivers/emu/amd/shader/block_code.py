"""A compiled block (block.py compiles it): its function, the variants for groups that are slices
of the batch and for groups given by wave indices (block_views.py, made at first use), its
constants per MODE and group size, and which of its instructions an exception came from."""
from .block_views import index_function, slice_function


class Block:
    """One compiled block: ``fn(st, sel, n, C)`` runs it for the ``n`` waves ``sel``; ``C`` is
    ``prepared(mode, n)``.  ``count`` instructions, ``vector`` of them lane operations."""
    __slots__ = ("pc", "pcs", "fn", "fs", "count", "vector", "vector_upto", "next_pc", "sets_pc", "ends", "source",
                 "_lines", "_prepare", "_prepared", "_code", "_globals", "_code_s", "_origin", "fx", "_code_x", "_gathered",
                 "_calls")

    def slice_fn(self):
        """``fs(st, sel, n, C, R)`` for a group that is a slice of the batch (block_views.py)."""
        if self.fs is None:
            self.fs, self._origin = slice_function(self)
            self._code_s = self.fs.__code__
        return self.fs

    def index_fn(self):
        """``fx(st, sel, n, C)`` for a group given by wave indices (block_views.py)."""
        if self.fx is None:
            self.fx, self._gathered = index_function(self)      # (_gathered: its lines' origins)
            self._code_x = self.fx.__code__
        return self.fx

    def prepared(self, mode, n, env):
        key = (mode, n)
        c = self._prepared.get(key)
        if c is None:
            if len(self._prepared) > 32:
                self._prepared.clear()
            fm = env.float_mode(mode)
            lane = env.lanes(n)
            c = self._prepared[key] = tuple(make(fm, n, lane) for make in self._prepare)
        return c

    def failed_at(self, tb):
        """Index of the instruction whose code raised, from the exception's traceback (None when
        the block's frame is not in it)."""
        line = None
        while tb is not None:
            if tb.tb_frame.f_code is self._code or tb.tb_frame.f_code is self._code_x and not self._gathered:
                line = tb.tb_lineno
            elif tb.tb_frame.f_code is self._code_x:
                line = self._gathered[tb.tb_lineno - 1]
            elif tb.tb_frame.f_code is self._code_s:
                line = self._origin[tb.tb_lineno - 1]
            tb = tb.tb_next
        if line is None:
            return None
        index = 0
        for i, first in enumerate(self._lines):
            if first <= line:
                index = i
        return index
