"""The tools agents call. `registry` lists them and runs a call; each module holds one tool family.

Kept import-free so `base` and `names` can be imported without loading every tool.
"""
