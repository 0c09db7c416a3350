"""The root of the project's error hierarchy, and the errors of the standalone tools.

The assemblers and the code-object readers and writers raise these; they live here, at the
lowest layer, so the assembler needs nothing from the driver package. :mod:`drivers.errors`
re-exports them beside the driver's own errors (IoctlError, GPUFault, GPUHang...), so
``except GPUError`` still catches everything the project raises on purpose.
"""


class GPUError(Exception):
    """Base of every error this project raises on purpose."""


class MalformedInput(GPUError):
    """A file we parse (sysfs capture, code object, golden file) is not what it must be."""

    def __init__(self, path, line, reason):
        self.path, self.line, self.reason = path, line, reason
        where = f"{path}:{line}" if line else str(path)
        super().__init__(f"{where}: {reason}")

class AssemblerError(GPUError):
    """Bad assembly source (or an undecodable word): line and column when there is a source."""

    def __init__(self, reason, line=None, column=None, source=None):
        self.reason, self.line, self.column, self.source = reason, line, column, source
        where = ""
        if line is not None:
            where = f"{source + ':' if source else ''}{line}:{column if column is not None else 1}: "
        super().__init__(where + reason)
