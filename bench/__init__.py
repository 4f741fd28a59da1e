"""Benchmarks of castlegraph (design §10): one command per workload, run as `python -m bench`.

Each workload starts the real service (`bench.service`), generates its own seeded data, prints a
table and writes JSON with the machine facts (`bench.report`), so that numbers from different
machines and days can be told apart. Ratios measured within one run matter more than absolute
times: they say whether a cost grows with the size of the data.
"""
