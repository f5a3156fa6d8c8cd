"""`psl serve` for the browser tests: the real server on a free port in a thread."""
