"""A small synchronous LSP client for tests/test_lsp.py."""
