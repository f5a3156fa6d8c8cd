"""Front end: Lark grammar, typed AST and the parser that builds it."""
