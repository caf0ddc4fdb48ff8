"""Pure rules engines for Ravenpost: no Flask, Redis, RQ or mail in here.

Every game is a deterministic state machine that follows :mod:`games.protocol`.
"""
