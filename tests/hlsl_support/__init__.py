"""Support for the HLSL VM tests: Slang CPU harness, programs, generator."""
