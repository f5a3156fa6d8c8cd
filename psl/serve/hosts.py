"""The Host names `psl serve` answers to. Pinning them stops DNS rebinding: a web page whose
own name resolves to this machine would otherwise make its origin the playground's and read
FILE or save over it. A wildcard bind (every address) still pins them: loopback, this
machine's names and addresses, and what `--allow-host` adds."""

from __future__ import annotations

import socket
from collections.abc import Iterable

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]"})


def host_name(text: str) -> str:
    """A name or address as a Host header carries it (IPv6 in brackets), lower case."""
    text = text.strip().lower().rstrip(".")
    if ":" in text and not text.startswith("["):
        return f"[{text}]"
    return text


def machine_names() -> set[str]:
    """This machine's host names and the addresses they resolve to (what another machine
    on the network would type to reach it)."""
    names: set[str] = set()
    for name in {socket.gethostname(), socket.getfqdn()}:
        if not name:
            continue
        names.add(host_name(name))
        try:
            infos = socket.getaddrinfo(name, None)
        except OSError:  # a name that does not resolve here
            continue
        names.update(host_name(str(info[4][0]).split("%", 1)[0]) for info in infos)
    return names


def allowed_hosts(bind: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The Host names accepted when listening on `bind` (plus `extra`, `--allow-host`)."""
    names = set(LOOPBACK_NAMES) | {host_name(h) for h in extra}
    if bind.strip().lower() in WILDCARD_BINDS:
        names |= machine_names()
    else:
        names.add(host_name(bind))
    return frozenset(n for n in names if n)
