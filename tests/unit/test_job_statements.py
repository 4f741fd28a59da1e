"""The statements that return a job to its readers name every field of `graph.jobs.Job` but the
items (they stay in the graph: only `claim_job` hands them out, design §4.4)."""

import re
from dataclasses import fields

import pytest

from castlegraph.graph.backends.queries import statement
from castlegraph.graph.jobs import Job

READERS = ["create_job", "job_by_id", "recent_jobs", "unfinished_jobs", "update_job"]


@pytest.mark.parametrize("dialect", ["falkordb", "neo4j"])
@pytest.mark.parametrize("name", READERS)
def test_a_job_read_names_every_field_but_the_items(name: str, dialect: str) -> None:
    text = statement(name, dialect)  # type: ignore[arg-type]
    [projection] = re.findall(r"RETURN j \{([^}]*)\} AS job", text)
    named = {part.strip().removeprefix(".") for part in projection.split(",")}
    assert named == {f.name for f in fields(Job)}
    assert "items" not in named
