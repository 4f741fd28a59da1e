# castlegraph: the HTTP service. On its own it runs the embedded FalkorDB with its data in the
# /data volume; with CASTLEGRAPH_NEO4J_URI set it runs on Neo4j (see docker-compose.yml).
# It listens on every interface, so it refuses to start without bearer tokens (design §8.1), and
# answers only requests that name it: localhost, or CASTLEGRAPH_ALLOWED_HOSTS (comma-separated).
#   docker build -t castlegraph .
#   docker run -p 8765:8765 -v castlegraph-data:/data -e CASTLEGRAPH_API_TOKENS=a-long-secret castlegraph
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The embedded FalkorDB module links against OpenMP (libgomp); Neo4j-only images need nothing else.
RUN apt-get update \
    && apt-get install --yes --no-install-recommends libgomp1 \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 castlegraph \
    && useradd --system --uid 10001 --gid castlegraph --home-dir /home/castlegraph \
       --create-home --shell /usr/sbin/nologin castlegraph

WORKDIR /opt/castlegraph
COPY pyproject.toml README.md LICENSE ./
COPY api ./api
COPY graph ./graph
COPY resolver ./resolver
COPY cypher ./cypher
COPY castlegraph ./castlegraph
# The compiled core's sources: built where the image has a Rust toolchain, else the install goes
# on with the pure-Python core (setuptools-rust's optional extension).
COPY core ./core
COPY docs/agent-guide.md ./docs/agent-guide.md
RUN pip install . && rm -rf /opt/castlegraph/build

RUN mkdir /data && chown castlegraph:castlegraph /data
VOLUME ["/data"]

ENV CASTLEGRAPH_DATA_DIR=/data \
    CASTLEGRAPH_HOST=0.0.0.0 \
    CASTLEGRAPH_PORT=8765

USER castlegraph
WORKDIR /home/castlegraph
EXPOSE 8765

# 200 once the database answers and migrations ran; 503 (a failure here) before.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/api/health' % os.environ.get('CASTLEGRAPH_PORT', '8765'), timeout=4)"]

# JSON log lines on stderr (not a terminal); `--log-format text` to read them by eye.
CMD ["castlegraph", "serve", "--host", "0.0.0.0"]
