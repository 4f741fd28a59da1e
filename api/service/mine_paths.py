"""Which paths `POST /api/mine` may read: only inside `api.mine_roots` (design §8.1).

Whoever can reach the service must not be able to have it store `~/.ssh` or `/etc` as
drawers, so HTTP mining is off until roots are configured, and a path is compared with the
roots after resolving symlinks on both sides (a link inside a root cannot lead out of it).
The local user's `castlegraph mine` reads what that user can read anyway: the in-process
client calls `server_path` alone, never `allowed_path`.
"""

from pathlib import Path

from castlegraph.api.errors import Forbidden, InvalidPath

ROOTS_KEY = "api.mine_roots"
ENV = "CASTLEGRAPH_MINE_ROOTS"


def _resolved(given: str) -> Path:
    """The path resolved on the server; one that cannot be (`~nobody`, a NUL byte) is a 400
    naming it, never a 500. So is a relative path: the service's working directory is no
    business of its callers (`castlegraph mine` sends its own paths made absolute)."""
    try:
        path = Path(given).expanduser()
        if not path.is_absolute():
            raise InvalidPath("a mining path must be absolute", {"path": given})
        return path.resolve()
    except (RuntimeError, ValueError, OSError) as error:  # no such user, NUL, too long
        raise InvalidPath(f"not a usable path: {error}", {"path": given}) from error


def _existing(path: Path, given: str) -> Path:
    try:
        found = path.exists()
    except (ValueError, OSError) as error:
        raise InvalidPath(f"not a usable path: {error}", {"path": given}) from error
    if not found:
        raise InvalidPath("no such file or directory", {"path": given})
    return path


def server_path(given: str) -> Path:
    """The existing path `given` names on this machine, with no restriction on where it is."""
    return _existing(_resolved(given), given)


def allowed_path(given: str, roots: list[Path]) -> Path:
    """`server_path`, refused with `403 auth::forbidden` unless it lies inside one of `roots`.

    The roots are checked before existence, so a caller learns nothing about files outside them.
    """
    if not roots:
        raise Forbidden(
            f"mining over HTTP is off: list the directories it may read in {ROOTS_KEY} ({ENV})",
            {"setting": ROOTS_KEY},
        )
    path = _resolved(given)
    if not any(path.is_relative_to(_resolved(str(root))) for root in roots):
        raise Forbidden(f"the path is outside {ROOTS_KEY}", {"path": given, "setting": ROOTS_KEY})
    return _existing(path, given)
