"""Background jobs: a runner thread and one executor per job kind (checkpoint, mine)."""
