"""The Udon exposure gate's support code: which Udon externs a generated UdonSharp script calls
(checker.py) and whether VRChat exposes them (nodes.py, udon_nodes.txt). See README.md."""
