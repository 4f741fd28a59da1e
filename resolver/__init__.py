"""Pure decision rules of castlegraph: no I/O, no clock, no logging.

Everything here is a function of its arguments, so it is unit-tested without a database and
shared by every backend. The graph layer fetches candidates and writes what these rules decide.
"""
