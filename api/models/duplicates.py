"""Request and response models of duplicate review: embeddings, clusters of look-alike
drawers, verdicts on pairs, and what waits for review."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from castlegraph.api.models.common import EXAMPLE_DRAWER, Label, Strict, examples
from castlegraph.graph.review.duplicates import Hygiene
from castlegraph.resolver.clusters import Cluster, ScoredPair

DEFAULT_THRESHOLD = 0.85
"""The cosine similarity from which two drawers are look-alikes, where a caller gives none."""

Finite = Annotated[float, Field(allow_inf_nan=False)]


class EmbeddingUpdate(Strict):
    vector: Annotated[list[Finite], Field(min_length=1, max_length=8192)]


class EmbeddingOut(BaseModel):
    drawer: str
    dimension: int


class PairOut(BaseModel):
    a: str
    b: str
    score: float

    @classmethod
    def of(cls, pair: ScoredPair) -> "PairOut":
        return cls(a=pair.a, b=pair.b, score=pair.score)


class ClusterOut(BaseModel):
    size: int = Field(description="How many drawers the cluster joins.")
    pairs_total: int = Field(description="How many pairs it holds; `pairs` lists the best.")
    pairs: list[PairOut]

    @classmethod
    def of(cls, cluster: Cluster) -> "ClusterOut":
        return cls(
            size=cluster.size,
            pairs_total=cluster.total_pairs,
            pairs=[PairOut.of(pair) for pair in cluster.pairs],
        )


class DuplicatesOut(BaseModel):
    threshold: float
    pairs_limit: int = Field(description="At most this many pairs are listed per cluster.")
    clusters: list[ClusterOut]

    @classmethod
    def of(cls, threshold: float, clusters: list[Cluster], pairs_limit: int) -> "DuplicatesOut":
        return cls(
            threshold=threshold,
            pairs_limit=pairs_limit,
            clusters=[ClusterOut.of(cluster) for cluster in clusters],
        )


class VerdictCreate(Strict):
    model_config = examples(
        {
            "a": EXAMPLE_DRAWER,
            "b": "9d4e7f21-3c8b-4a06-8e5f-1b2c3d4e5f60",
            "status": "duplicate",
        }
    )

    a: Label = Field(description="A drawer id, or a drawer name in wing/room.")
    b: Label
    status: Literal["duplicate", "supplement", "contradiction", "unrelated"]
    wing: Label | None = None
    room: Label | None = None


class VerdictOut(BaseModel):
    a: str
    b: str
    status: str


class HygieneOut(BaseModel):
    duplicate_pairs_pending: int
    possibly_same_as_pending: int
    drawers_without_embedding: int

    @classmethod
    def of(cls, report: Hygiene) -> "HygieneOut":
        return cls(
            duplicate_pairs_pending=report.duplicate_pairs_pending,
            possibly_same_as_pending=report.possibly_same_as_pending,
            drawers_without_embedding=report.drawers_without_embedding,
        )
