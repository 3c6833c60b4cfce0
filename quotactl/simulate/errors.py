"""The one error the simulation's input can raise: a value that cannot be used, with where it is."""

from __future__ import annotations


class SimulationInputError(Exception):
    """An unusable value in the input (a runtime annotation that is not a duration, ...):
    ``str(e)`` is ``file:line:column: message``."""

    def __init__(self, file: str, line: int, column: int, message: str):
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.file, self.line, self.column, self.message = file, line, column, message
