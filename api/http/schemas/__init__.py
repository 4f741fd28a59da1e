"""Request and response models of the HTTP API, one module per resource.

Every model a route takes or answers lives here (the MCP tools reuse them), named by one
convention, so a name says which way a model travels and what it does:

- `<Thing>Create`: a request body that creates something (`DrawerCreate`, `AliasCreate`);
- `<Thing>Update`: a request body that changes something that exists (`DrawerUpdate`);
- `<Thing>Query`: a read that takes a body (`ResolveQuery`, the resolution dry run);
- `<Thing>In`: a part nested in a request body (`MentionIn`, `DestinationIn`);
- `<Thing>Out`: a response, or a part of one (`DrawerOut`, `SignalsOut`);
- `<Thing>Page`: a cursor-paged list (`DrawerPage`: the items and `next_cursor`).

Requests derive from `common.Strict` (unknown fields are refused). A response built from a
graph record has a `.of(record)` classmethod, the one place that maps the record to its JSON.
The OpenAPI components take these class names.
"""
