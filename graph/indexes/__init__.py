"""The in-memory candidate indexes: entities and drawers held in the service's memory (design §5.4).

`entity_index` and `drawer_index` answer the candidate searches, kept exact by a sequence
(`sequenced_index`); the other modules hold their data. A compiled core may replace this
package, so its interface stays narrow: it may import `resolver`, `graph.records`,
`graph.errors` and, of the backends, only the `store` protocol and `queries`' constants —
never a driver, a backend implementation or a use-case room.
"""
