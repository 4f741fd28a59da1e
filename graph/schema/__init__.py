"""The graph's schema over time: versioned migrations run under a lease (`migrations`), the
data migrations themselves (`migration_steps`) and read-only looks at a running graph for
operators (`inspection`). This room may import `backends`, `drawers`, `indexes`, `review`,
the shared `graph` modules and `resolver`.
"""
