"""Thin routes: FastAPI parameters in, one call of `api.usecases`, the answer and its status out."""
