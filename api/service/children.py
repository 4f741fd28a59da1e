"""How the service runs one of its own modules as a child process (`python -m`)."""

import sys


def module_command(module: str, *args: str) -> list[str]:
    """The command that runs `module` with this interpreter. `-P` keeps the working directory
    off the child's module path, where `python -m` would put it first: a service started in a
    directory of the user's holding a package named like one of its own (`api`, `graph`) would
    have run that instead."""
    return [sys.executable, "-P", "-m", module, *args]
