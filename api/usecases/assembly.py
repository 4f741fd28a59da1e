"""`UseCases`: every use case, built once over the service's runtime.

Built where the service is composed: by `create_app` for the HTTP routes and the `/mcp`
endpoint, and by `api.client.connect` for a command run in-process. The runtime may be built
before its database answers (Neo4j is retried in the background): the use cases read its store
at each call, so a call before then is `503 graph::unavailable`, as it always was.
"""

from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import Settings
from castlegraph.api.usecases.drawers import Drawers
from castlegraph.api.usecases.duplicates import Duplicates
from castlegraph.api.usecases.entities import Entities
from castlegraph.api.usecases.jobs import Jobs
from castlegraph.api.usecases.mentions import Mentions
from castlegraph.api.usecases.operations import Operations
from castlegraph.api.usecases.review import Review


class UseCases:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.drawers = Drawers(runtime)
        self.mentions = Mentions(runtime)
        self.entities = Entities(runtime)
        self.review = Review(runtime)
        self.duplicates = Duplicates(runtime)
        self.jobs = Jobs(runtime)
        self.operations = Operations(runtime)

    @property
    def settings(self) -> Settings:
        return self.runtime.settings
