"""`psl lsp`: a language server for PSL over stdio (pygls), for VS Code and other editors.

Diagnostics, hover, completion, signature help, go to definition, references, rename,
outline, formatting (psl fmt) and width inlay hints; docs/editors.md describes them.
"""
