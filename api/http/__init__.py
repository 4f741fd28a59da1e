"""The HTTP door: the FastAPI app, its middleware (auth, limits, idempotency, logs, metrics),
the error envelope, thin routes and the request/response schemas."""
