"""One typed settings object: `castlegraph.toml`, then `CASTLEGRAPH_*`, then CLI flags.

Bad values refuse to start with a message naming the key (`dedup.near_threshold`). The
environment names are fixed by design §8 because deployments depend on them; each field says
its own with `validation_alias`.
"""

import ipaddress
import math
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from castlegraph.api.service.tokens import Token, parse_tokens
from castlegraph.graph.backends.opener import NEO4J_RETRY_SECONDS
from castlegraph.graph.jobs import JOB_LEASE_SECONDS
from castlegraph.resolver.core import Choice as CoreChoice

DEFAULT_PORT = 8765
CONFIG_ENV = "CASTLEGRAPH_CONFIG"
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})  # noqa: S104  # listen addresses, every interface
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


class Section(BaseModel):
    """A `[section]` of castlegraph.toml: unknown keys are refused (a typo must not pass)."""

    model_config = ConfigDict(extra="forbid")


class DedupSettings(Section):
    enabled: bool = True
    near_threshold: float = 0.9
    entity_fuzzy: bool = True
    person_kinds: list[str] = ["person"]
    """Kinds whose word guard also knows given names and surnames (design §5.3)."""
    person_typos_onto_known_names: bool = True
    """On `person_kinds`, a typo converges only onto a known name; otherwise a review link
    `unknown_name` (design §5.3). On by default (`bench quality`); off, rule 4 is the same on
    every kind."""
    memory_index: bool = True
    """Answer entity candidate probes from an index held in memory (design §5.4), built in the
    background at start; off, every probe goes to the database's index."""
    memory_index_wait_seconds: float = Field(default=10.0, ge=0.0, le=300.0, allow_inf_nan=False)
    """How long a write waits for an in-memory index still building where the database keeps
    none of its own (embedded FalkorDB) before `503 graph::unavailable` (design §5.4)."""
    core: CoreChoice = "auto"
    """Which core runs the rules' hot loops (`resolver.core`): `auto` the compiled one where it
    was built and loads, `native` that one or no start, `python` the pure-Python one."""

    @field_validator("core", mode="before")
    @classmethod
    def _core_in_any_case(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("near_threshold")
    @classmethod
    def _threshold_in_range(cls, value: float) -> float:
        if math.isnan(value) or not 0.5 <= value <= 1.0:
            raise ValueError("dedup.near_threshold must be a number from 0.5 to 1 inclusive")
        return value


class GraphSettings(Section):
    neo4j_uri: str | None = None
    neo4j_user: str = "neo4j"
    neo4j_password: SecretStr = SecretStr("")
    neo4j_database: str = "neo4j"
    neo4j_retry_seconds: float = Field(
        default=NEO4J_RETRY_SECONDS, ge=0.0, le=600.0, allow_inf_nan=False
    )
    """How long the driver retries a transaction Neo4j could not take (unreachable, a leader
    change) before the request is `503 graph::unavailable`."""
    data_dir: Path = Field(default_factory=lambda: Path(platformdirs.user_data_dir("castlegraph")))
    embedded_port: int | None = Field(default=None, ge=1, le=65535)
    job_lease_seconds: float = Field(
        default=JOB_LEASE_SECONDS, ge=3.0, le=3600.0, allow_inf_nan=False
    )
    """How long a job's claim holds unrenewed (`graph.jobs`): an instance that died hands its
    running jobs to another after this, on Neo4j."""
    neo4j_memory_indexes_only: bool = False
    """On Neo4j, every instance answers candidate searches from its in-memory indexes, so the
    database keeps no full-text index of its own (`entity_dkeys`, `drawer_terms`): a drawer
    write without that index's upkeep is ~2 ms faster (design §5.4). Set it on every instance
    of the database: one without it creates the indexes again at its start. Needs
    `dedup.memory_index`."""


def host_name(host: str) -> str:
    """A host name or address as compared (design §8.1): lower case, no brackets or final dot."""
    return host.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")


DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_key(origin: str) -> tuple[str, str, int] | None:
    """A web origin as compared (design §8.1): scheme, host name, port with the scheme's
    default filled in (`http://LocalHost:80` -> `("http", "localhost", 80)`); None for anything
    that is not an http(s) origin (`null`, a path, a user, a bad port)."""
    parts = urlsplit(origin.strip())
    try:
        port = parts.port
    except ValueError:
        return None
    if (
        parts.scheme not in DEFAULT_PORTS
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        return None
    return parts.scheme, host_name(parts.hostname), port or DEFAULT_PORTS[parts.scheme]


def is_loopback(host: str) -> bool:
    """Only `localhost` and loopback addresses: any other name may resolve anywhere."""
    name = host_name(host)
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class ApiSettings(Section):
    host: str = "127.0.0.1"
    port: int = Field(default=DEFAULT_PORT, ge=1, le=65535)
    tokens: list[SecretStr] = Field(default_factory=list)
    """Bearer tokens: `SECRET`, `AGENT:SECRET` or `:SECRET` (`api.service.tokens`)."""

    @field_validator("tokens")
    @classmethod
    def _tokens_say_who_calls(cls, tokens: list[SecretStr]) -> list[SecretStr]:
        # A secret given twice would not say who calls; an entry without one opens nothing.
        parse_tokens(token.get_secret_value() for token in tokens)
        return tokens

    max_batch: int = Field(default=1000, ge=1, le=100_000)
    max_body_bytes: int = Field(default=8 * 1024 * 1024, ge=1024)
    heavy_reads: int = Field(default=2, ge=1, le=64)
    """How many `find_duplicates` and `hygiene` run at once, over HTTP and MCP alike
    (`api.service.heavy_reads`)."""
    heavy_read_wait_seconds: float = Field(default=10.0, ge=0.0, le=300.0, allow_inf_nan=False)
    """How long another one waits for a slot before `503 service::busy`."""
    max_queued_jobs: int = Field(default=20, ge=1, le=10_000)
    """How many jobs one caller (an agent's token; the operators together) may have queued or
    running at once; beyond it a new job is `429 service::busy` (design §8.1): a job's queue
    and its payload live in the graph, so an unbounded queue is unbounded memory."""
    mine_roots: list[Path] = Field(default_factory=list)
    """The directories `POST /api/mine` may read (design §8.1). None by default: a service
    must not read `~/.ssh` or `/etc` for whoever can reach it. The local CLI ignores them."""

    @field_validator("mine_roots")
    @classmethod
    def _roots_are_absolute(cls, roots: list[Path]) -> list[Path]:
        # A relative root would depend on the directory the service happened to start in.
        expanded = [root.expanduser() for root in roots]
        relative = [str(root) for root in expanded if not root.is_absolute()]
        if relative:
            raise ValueError(f"api.mine_roots must be absolute paths, not {', '.join(relative)}")
        return expanded

    allow_unauthenticated: bool = False
    allowed_hosts: list[str] = Field(default_factory=list)

    @field_validator("allowed_hosts")
    @classmethod
    def _plain_host_names(cls, names: list[str]) -> list[str]:
        # A name only: `Host` is compared without its port, so a port here would never match.
        cleaned = [host_name(name) for name in names if name.strip()]
        for name in cleaned:
            if "/" in name or " " in name or (name.count(":") == 1):
                raise ValueError(f"api.allowed_hosts: {name!r} is not a host name or address")
        return cleaned

    @model_validator(mode="after")
    def _no_open_door_without_tokens(self) -> "ApiSettings":
        # design §8.1: off loopback, anyone on the network could read and write the graph.
        if self.exposed_without_tokens and not self.allow_unauthenticated:
            raise ValueError(
                f"api.host = {self.host!r} is not a loopback address and no tokens are set: "
                "set CASTLEGRAPH_API_TOKENS (api.tokens), or listen on 127.0.0.1, or set "
                "CASTLEGRAPH_ALLOW_UNAUTHENTICATED=true (api.allow_unauthenticated) to serve "
                "the network without tokens"
            )
        return self

    @property
    def exposed_without_tokens(self) -> bool:
        """Listening beyond loopback with no token: allowed only by `allow_unauthenticated`."""
        return not self.tokens and not is_loopback(self.host)

    log_level: Literal["debug", "info", "warning", "error"] = "info"
    """The least severe records `castlegraph serve` logs; `debug` also shows the libraries'."""

    @field_validator("log_level", mode="before")
    @classmethod
    def _level_in_any_case(cls, value: Any) -> Any:
        # `INFO` in an environment file means what `info` does.
        return value.strip().lower() if isinstance(value, str) else value

    allowed_origins: list[str] = Field(default_factory=list)
    """Web origins besides the service's own whose pages may send state-changing requests
    (`scheme://host[:port]`, design §8.1); a request's own origin is always allowed."""

    @field_validator("allowed_origins")
    @classmethod
    def _web_origins(cls, origins: list[str]) -> list[str]:
        cleaned = []
        for origin in (origin for origin in origins if origin.strip()):
            key = origin_key(origin)
            if key is None:
                raise ValueError(
                    f"api.allowed_origins: {origin!r} is not an origin (scheme://host[:port])"
                )
            scheme, host, port = key  # spelt as browsers send it: no default port
            shown = f"{scheme}://{f'[{host}]' if ':' in host else host}"
            cleaned.append(shown if port == DEFAULT_PORTS[scheme] else f"{shown}:{port}")
        return cleaned

    def own_hosts(self) -> frozenset[str]:
        """The names a request's `Host` may carry (design §8.1): loopback, the listen address
        unless it is every interface, and `allowed_hosts` (a proxy's or a DNS name)."""
        own = {host_name(self.host)} - ANY_ADDRESS
        return frozenset(LOOPBACK_NAMES | own | set(self.allowed_hosts))


class EmbeddingSettings(Section):
    provider: Literal["none", "sentence-transformers"] = "none"
    dimension: int | None = Field(default=None, ge=1, le=8192)


class Settings(BaseSettings):
    """Every setting; the flat `CASTLEGRAPH_*` names are mapped onto sections below."""

    # An error names the key, never quotes the value: it may be a token or a password.
    model_config = SettingsConfigDict(
        extra="forbid", env_prefix="CASTLEGRAPH_", hide_input_in_errors=True
    )

    dedup: DedupSettings = Field(default_factory=DedupSettings)
    graph: GraphSettings = Field(default_factory=GraphSettings)
    api: ApiSettings = Field(default_factory=ApiSettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)

    @model_validator(mode="after")
    def _memory_only_has_memory_indexes(self) -> "Settings":
        if self.graph.neo4j_memory_indexes_only and not self.dedup.memory_index:
            raise ValueError(
                "graph.neo4j_memory_indexes_only needs dedup.memory_index: without the"
                " in-memory indexes nothing would answer the candidate searches"
            )
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Flags (init) beat the environment, which beats the TOML file.
        sources: list[PydanticBaseSettingsSource] = [init_settings, _FlatEnvSource(settings_cls)]
        config = os.environ.get(CONFIG_ENV)
        path = Path(config) if config else Path("castlegraph.toml")
        if path.is_file():
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=path))
        elif config:
            raise ValueError(f"{CONFIG_ENV} names {path}, which is not a readable file")
        return tuple(sources)


# design §8 names: environment variable -> (section, key).
ENVIRONMENT: dict[str, tuple[str, str]] = {
    "CASTLEGRAPH_DEDUP_ENABLED": ("dedup", "enabled"),
    "CASTLEGRAPH_DEDUP_NEAR_THRESHOLD": ("dedup", "near_threshold"),
    "CASTLEGRAPH_DEDUP_ENTITY_FUZZY": ("dedup", "entity_fuzzy"),
    "CASTLEGRAPH_DEDUP_PERSON_KINDS": ("dedup", "person_kinds"),
    "CASTLEGRAPH_DEDUP_PERSON_TYPOS_ONTO_KNOWN_NAMES": ("dedup", "person_typos_onto_known_names"),
    "CASTLEGRAPH_DEDUP_MEMORY_INDEX": ("dedup", "memory_index"),
    "CASTLEGRAPH_DEDUP_MEMORY_INDEX_WAIT_SECONDS": ("dedup", "memory_index_wait_seconds"),
    "CASTLEGRAPH_CORE": ("dedup", "core"),
    "CASTLEGRAPH_HOST": ("api", "host"),
    "CASTLEGRAPH_PORT": ("api", "port"),
    "CASTLEGRAPH_API_TOKENS": ("api", "tokens"),
    "CASTLEGRAPH_ALLOW_UNAUTHENTICATED": ("api", "allow_unauthenticated"),
    "CASTLEGRAPH_ALLOWED_HOSTS": ("api", "allowed_hosts"),
    "CASTLEGRAPH_ALLOWED_ORIGINS": ("api", "allowed_origins"),
    "CASTLEGRAPH_MAX_BATCH": ("api", "max_batch"),
    "CASTLEGRAPH_MAX_QUEUED_JOBS": ("api", "max_queued_jobs"),
    "CASTLEGRAPH_MINE_ROOTS": ("api", "mine_roots"),
    "CASTLEGRAPH_HEAVY_READS": ("api", "heavy_reads"),
    "CASTLEGRAPH_HEAVY_READ_WAIT_SECONDS": ("api", "heavy_read_wait_seconds"),
    "CASTLEGRAPH_LOG_LEVEL": ("api", "log_level"),
    "CASTLEGRAPH_DATA_DIR": ("graph", "data_dir"),
    "CASTLEGRAPH_EMBEDDED_PORT": ("graph", "embedded_port"),
    "CASTLEGRAPH_NEO4J_URI": ("graph", "neo4j_uri"),
    "CASTLEGRAPH_NEO4J_USER": ("graph", "neo4j_user"),
    "CASTLEGRAPH_NEO4J_PASSWORD": ("graph", "neo4j_password"),
    "CASTLEGRAPH_NEO4J_DATABASE": ("graph", "neo4j_database"),
    "CASTLEGRAPH_NEO4J_RETRY_SECONDS": ("graph", "neo4j_retry_seconds"),
    "CASTLEGRAPH_JOB_LEASE_SECONDS": ("graph", "job_lease_seconds"),
    "CASTLEGRAPH_NEO4J_MEMORY_INDEXES_ONLY": ("graph", "neo4j_memory_indexes_only"),
    "CASTLEGRAPH_EMBEDDINGS_PROVIDER": ("embeddings", "provider"),
    "CASTLEGRAPH_EMBEDDINGS_DIMENSION": ("embeddings", "dimension"),
}

COMMA_SEPARATED = frozenset({"tokens", "allowed_hosts", "allowed_origins", "person_kinds"})


class _FlatEnvSource(PydanticBaseSettingsSource):
    """Reads the fixed flat environment names into nested sections."""

    def get_field_value(self, field: Any, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        values: dict[str, dict[str, Any]] = {}
        for name, (section, key) in ENVIRONMENT.items():
            raw = os.environ.get(name)
            if raw is None or raw == "":
                continue
            value: Any = raw
            if key in COMMA_SEPARATED:
                value = [item.strip() for item in raw.split(",") if item.strip()]
            elif key == "mine_roots":  # separated like PATH
                value = [root for root in raw.split(":") if root.strip()]
            values.setdefault(section, {})[key] = value
        return values


def settings_file(config: Path | None = None) -> Path:
    """The castlegraph.toml settings are read from when it exists: `--config`, else
    `CASTLEGRAPH_CONFIG`, else the one in the working directory."""
    named = config or (Path(os.environ[CONFIG_ENV]) if os.environ.get(CONFIG_ENV) else None)
    return named or Path("castlegraph.toml")


def environment_names() -> list[str]:
    """The `CASTLEGRAPH_*` settings variables that are set: names only, as values may be secret."""
    return sorted(name for name in (*ENVIRONMENT, CONFIG_ENV) if os.environ.get(name))


def settings_sources(config: Path | None = None) -> str:
    """Where the settings came from, for doctor and the start-up log: the file and the names of
    the environment variables, never their values."""
    file = settings_file(config)
    parts = [f"file {file.resolve()}" if file.is_file() else f"defaults (no {file} here)"]
    names = environment_names()
    parts.append(f"environment {', '.join(names)}" if names else "no CASTLEGRAPH_* variables")
    return ", ".join(parts)


def load_settings(**overrides: Any) -> Settings:
    """Settings with command-line overrides given as nested dicts, e.g. api={"port": 1}."""
    return Settings(**overrides)


@lru_cache(maxsize=1)
def cached_settings() -> Settings:
    return load_settings()


def safe_uri(uri: str) -> str:
    """The URI without a password (`bolt://user:secret@host` -> `bolt://user@host`)."""
    parts = urlsplit(uri)
    if parts.password is None:
        return uri
    host = parts.hostname or ""
    netloc = f"{parts.username}@{host}" if parts.username else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


def scrub(text: str, settings: Settings) -> str:
    """Remove every configured secret: a driver may quote the URI it was given, password and all."""
    uri = settings.graph.neo4j_uri
    if uri:
        text = text.replace(uri, safe_uri(uri))
    secrets = [settings.graph.neo4j_password.get_secret_value()]
    for token in settings.api.tokens:  # the whole entry, and the part an agent presents
        secrets += [token.get_secret_value(), Token.parse(token.get_secret_value()).secret.decode()]
    password = urlsplit(uri).password if uri else None
    for secret in [*secrets, password]:
        if secret:
            text = text.replace(secret, "***")
    return text
