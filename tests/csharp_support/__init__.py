"""Build and run the generated UdonSharp compiler under mono (test support)."""
