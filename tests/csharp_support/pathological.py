"""Programs built to make an inlining compiler work hard within the source limit.

Each stays under LIMITS.source_chars and compiles (or fails at the instruction limit);
the differential tests check the result and the bench reports their cost.
"""

from __future__ import annotations

from psl.registry import LIMITS


def _fill(defs: str, calls: list[str], sep: str = "+") -> str:
    """As many of `calls` as fit after the definitions."""
    out = []
    size = len(defs) + 4
    for c in calls:
        if size + len(c) + 1 > LIMITS.source_chars:
            break
        out.append(c)
        size += len(c) + 1
    return defs + "x=" + sep.join(out) + ";"


def wrapper_chain(n: int, calls: int) -> str:
    """`a_k() { a_{k-1}() }`: a long chain of wrappers called many times from the top."""
    defs = "fun a0(){1}\n" + "".join(f"fun a{i}(){{a{i - 1}()}}\n" for i in range(1, n))
    return _fill(defs, [f"a{n - 1}()"] * calls)


def wrapper_chain_each(n: int) -> str:
    """Every wrapper of a chain called once (top-level calls from the longest down)."""
    defs = "fun a0(){1}\n" + "".join(f"fun a{i}(){{ ((a{i - 1}())) }}\n" for i in range(1, n))
    return _fill(defs, [f"a{i}()" for i in range(n - 1, 0, -1)])


def empty_chain(n: int) -> str:
    """Wrappers around an empty function: every call emits nothing."""
    defs = "fun a0(){}\n" + "".join(f"fun a{i}(){{return a{i - 1}();}}\n" for i in range(1, n))
    return _fill(defs, [f"a{n - 1}()"] * 4000, sep="+0*")


def param_chain(n: int, calls: int) -> str:
    """`a_k(p) { a_{k-1}(p) }`: every level emits its parameter's SETVAR and PUSHVAR."""
    defs = "fun a0(p){p}\n" + "".join(f"fun a{i}(p){{a{i - 1}(p)}}\n" for i in range(1, n))
    # (each function's parameter is its own register: keep n below the register limit)
    return _fill(defs, [f"a{n - 1}(1)"] * calls)


def doubling(n: int) -> str:
    """Exponential inlining: `a_k() { a_{k-1}() + a_{k-1}() }` (E030 with a huge count)."""
    defs = "fun a0(){1}\n" + "".join(f"fun a{i}(){{a{i - 1}()+a{i - 1}()}}\n"
                                    for i in range(1, n))
    return defs + f"x=a{n - 1}();"


def recursion_far_from_cycle(n: int) -> str:
    """A long acyclic chain downstream of a cycle, the cycle's call last in the source."""
    defs = "".join(f"fun d{i}(){{d{i + 1}()}}\n" for i in range(n)) + f"fun d{n}(){{1}}\n"
    return defs + "fun c1(){c2()+d0()}\nfun c2(){c1()}\nx=c1();"


def programs() -> dict[str, str]:
    return {
        "wrapper_chain_1500x435": wrapper_chain(1500, 2000),
        "wrapper_chain_each_900": wrapper_chain_each(900),
        "empty_chain_700": empty_chain(700),
        "param_chain_250": param_chain(250, 4),
        "doubling_40": doubling(40),
        "recursion_far_from_cycle_1500": recursion_far_from_cycle(1500),
    }
