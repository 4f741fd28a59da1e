"""Every exception class the project defines, found by importing each of its modules."""

import importlib
import inspect
import pkgutil

import castlegraph


def project_exception_classes() -> list[type[BaseException]]:
    """The exception classes defined at the top of a module of the installed package, in
    module order (`__main__` modules are left out: importing one runs the CLI)."""
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(castlegraph.__path__, f"{castlegraph.__name__}."):
        if info.name.endswith(".__main__"):
            continue
        module = importlib.import_module(info.name)
        found += [
            value
            for value in vars(module).values()
            if inspect.isclass(value)
            and issubclass(value, BaseException)
            and value.__module__ == module.__name__
        ]
    return found
