"""Thin routes: validate, call one use case in `graph`, shape the answer."""
