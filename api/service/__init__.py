"""The service itself, with no HTTP in it: settings, the runtime that owns the backend and the
background threads, the embedder, the lexicon, doctor's checks and the job runner."""
