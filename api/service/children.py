"""How the service runs one of its own modules as a child process (`python -m`)."""

import sys
from pathlib import Path

import api

PACKAGES_ROOT = Path(api.__file__).resolve().parent.parent
"""The directory this installation's packages are imported from. A child runs there: `python
-m` puts its working directory first on the module path, so a service started in a directory
of the user's holding a package named like one of its own (`api`, `graph`) would have run that."""


def module_command(module: str, *args: str) -> list[str]:
    """The command that runs `module` with this interpreter (start it in `PACKAGES_ROOT`)."""
    return [sys.executable, "-m", module, *args]
