"""What every request model shares: strictness about unknown fields, and what a label may hold."""

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

MAX_LABEL = 200

EXAMPLE_DRAWER = "6f1c2b0e-4d0a-4a57-9a3e-2f1d8c7b5a90"
"""A drawer id in the document's examples, as a drawer write answers it."""


def examples(*bodies: dict[str, Any]) -> ConfigDict:
    """A request model's config with example bodies for `/docs` and generated clients (each
    one valid: `tests/api/test_openapi_descriptions.py` checks them against the schema)."""
    return ConfigDict(json_schema_extra={"examples": list(bodies)})


NOT_LABEL_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""Unicode's control characters (Cc) but tab, line feed and carriage return, and lone
surrogates (Cs): one regular-expression scan, not a category lookup per character."""


def plain_text(value: str) -> str:
    """Labels are text: no control characters but whitespace, no lone surrogates."""
    if NOT_LABEL_TEXT.search(value):
        raise ValueError("must not contain control characters or lone surrogates")
    return value


Label = Annotated[str, StringConstraints(max_length=MAX_LABEL), AfterValidator(plain_text)]


class Strict(BaseModel):
    """The base of request models: a misspelt field is refused (422), never silently dropped.

    Names say which way a model travels: `<Thing>Create` (a body that creates), `<Thing>Update`
    (a body that changes what exists), `<Thing>Query` (a read's parameters), `<Thing>In` (a part
    nested in a request), `<Thing>Out` (an answer or a part of one), `<Thing>Page` (a cursor-paged
    list: items and `next_cursor`). An answer built from a graph record has a `.of(record)`
    classmethod, the one place that maps the record to its JSON; the OpenAPI components take
    these class names.
    """

    model_config = ConfigDict(extra="forbid")
