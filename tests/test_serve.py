"""`psl serve` without a browser: the aiohttp app through its test client."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from aiohttp.test_utils import TestClient

from psl.compiler import compile_source
from psl.registry import DEFAULT_OPTIMIZE_LEVEL, KEYWORDS, LIMITS
from psl.serve import ServeOptions
from psl.serve.files import UnsafePath, static_file
from tests.serve_support.client import post_json, with_client

CORPUS = Path(__file__).resolve().parent / "corpus"
GOOD = "let c = uv();\nfloat3(c.x, c.y, 0.5)\n"
BAD = "let a = 1;\nlet b = sin(1, 2);\nb\n"



# ------------------------------------------------------------------ static files, refusals

@pytest.mark.parametrize("path", [
    "/static/../../etc/passwd", "/static/%2e%2e/%2e%2e/etc/passwd",
    "/static/..%2f..%2fetc%2fpasswd", "/static/%2e%2e%5c%2e%2e%5cetc%5cpasswd",
    "/static//etc/passwd", "/static/vendor/../../serve/app.py", "/static/%00index.html",
    "/static/../serve/default.psl", "/static/", "/static/vendor"])
def test_traversal_is_refused(path: str) -> None:
    async def body(client: TestClient) -> None:
        from yarl import URL
        # encoded=True: send the path exactly as written, as a hostile client would
        resp = await client.get(URL(path, encoded=True))
        assert resp.status == 404, path
        assert "root:" not in await resp.text()
    with_client(body)


def test_static_file_check_directly(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("x")
    outside = tmp_path.parent / "outside.js"
    outside.write_text("secret")
    (tmp_path / "link.js").symlink_to(outside)
    assert static_file("a.js", tmp_path) == (tmp_path / "a.js").resolve()
    for bad in ["../outside.js", "link.js", "a.js/", "./a.js", "/a.js", "C:a.js", "a\\b.js"]:
        with pytest.raises(UnsafePath):
            static_file(bad, tmp_path)


def test_page_and_vendor_are_served_offline() -> None:
    async def body(client: TestClient) -> None:
        page = await client.get("/")
        assert page.status == 200 and "text/html" in page.headers["Content-Type"]
        html = await page.text()
        assert "http://" not in html and "https://" not in html  # nothing from a CDN
        for asset in ("/static/app.js", "/static/style.css", "/static/vendor/codemirror.js"):
            resp = await client.get(asset)
            assert resp.status == 200, asset
        js = await client.get("/static/app.js")
        assert js.headers["Content-Type"].startswith("text/javascript")
    with_client(body)


def test_oversize_body_is_refused() -> None:
    async def body(client: TestClient) -> None:
        big = json.dumps({"source": "x" * (80 * 1024)})
        resp = await client.post("/api/compile", data=big,
                                  headers={"Content-Type": "application/json"})
        assert resp.status == 413
        assert "too large" in (await resp.json())["error"]

        async def chunks():  # no Content-Length: the limit holds while reading
            for _ in range(40):
                yield b"x" * 4096
        resp = await client.post("/api/compile", data=chunks(),
                                  headers={"Content-Type": "application/json"})
        assert resp.status == 413
    with_client(body)


def test_bad_requests_get_clear_errors() -> None:
    async def body(client: TestClient) -> None:
        resp = await client.post("/api/compile", data="{not json",
                                  headers={"Content-Type": "application/json"})
        assert resp.status == 400 and "invalid JSON" in (await resp.json())["error"]
        resp = await post_json(client, "/api/compile", {"text": 1})
        assert resp.status == 400
        resp = await client.post("/api/compile", data="source=1",
                                  headers={"Content-Type": "text/plain"})
        assert resp.status == 415
        resp = await post_json(client, "/api/save", {"source": "1", "base_version": ""})
        assert resp.status == 405  # no FILE
        resp = await client.get("/nope")
        assert resp.status == 404
    with_client(body)


def test_cross_site_and_foreign_hosts_are_refused() -> None:
    async def body(client: TestClient) -> None:
        resp = await client.post("/api/compile", data=json.dumps({"source": GOOD}),
                                  headers={"Content-Type": "application/json",
                                           "Origin": "http://evil.example"})
        assert resp.status == 403
        resp = await client.get("/", headers={"Host": "evil.example:8765"})
        assert resp.status == 421
        resp = await client.get("/", headers={"Host": "localhost:8765"})
        assert resp.status == 200
    with_client(body, ServeOptions(allowed_hosts=frozenset({"127.0.0.1", "localhost"})))


def test_a_wildcard_bind_keeps_the_host_check() -> None:
    """`psl serve --host 0.0.0.0`: a DNS-rebinding page (its own name now resolving to this
    machine, so its Host and Origin are its name) is refused; loopback, this machine's names
    and `--allow-host` names are served."""
    from psl.serve.hosts import allowed_hosts, machine_names

    allowed = allowed_hosts("0.0.0.0", ["box.example"])
    assert {"127.0.0.1", "localhost", "[::1]", "box.example"} <= allowed
    assert machine_names() <= allowed
    assert "attacker.example" not in allowed
    assert allowed_hosts("::") == allowed_hosts("0.0.0.0")
    assert "[fe80::1]" in allowed_hosts("fe80::1")

    async def body(client: TestClient) -> None:
        rebound = "attacker.example:8765"
        for path in ("/", "/api/program"):
            resp = await client.get(path, headers={"Host": rebound,
                                                   "Origin": f"http://{rebound}"})
            assert resp.status == 421, path
        resp = await client.post("/api/save", data=json.dumps({"source": "1",
                                                               "base_version": ""}),
                                 headers={"Host": rebound, "Origin": f"http://{rebound}",
                                          "Content-Type": "application/json"})
        assert resp.status == 421
        for ok in ("127.0.0.1:8765", "localhost:8765", "box.example:8765", "[::1]:8765"):
            resp = await client.get("/", headers={"Host": ok})
            assert resp.status == 200, ok
    with_client(body, ServeOptions(allowed_hosts=allowed))


def test_an_unknown_charset_is_a_client_error() -> None:
    async def body(client: TestClient) -> None:
        for charset in ("x-nonesuch", "utf-99", "\u00e9"):
            resp = await client.post("/api/compile", data=b'{"source": "1"}',
                                     headers={"Content-Type":
                                              f"application/json; charset={charset}"})
            assert 400 <= resp.status < 500, (charset, resp.status)
    with_client(body)


# ------------------------------------------------------------------ compile

def test_compile_bad_program_reports_positions() -> None:
    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/compile", {"source": BAD})).json()
        assert reply["ok"] is False and reply["texture"] is None
        first = reply["diagnostics"][0]
        assert (first["code"], first["line"], first["column"]) == ("E011", 2, 9)
        assert "sin" in first["message"] and first["severity"] == "error"
    with_client(body)


@pytest.mark.parametrize("name", ["scene_raymarch", "scene_simple", "apps_Sobel"])
def test_compile_texture_equals_psl_compile(name: str) -> None:
    source = (CORPUS / f"{name}.psl").read_text()

    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/compile", {"source": source})).json()
        assert reply["ok"] is True
        data = base64.b64decode(reply["texture"])
        # `psl serve` compiles at the default level (-O2, registry.DEFAULT_OPTIMIZE_LEVEL)
        program = compile_source(source, optimize=DEFAULT_OPTIMIZE_LEVEL).unwrap()
        expected = program.texture_bytes()
        row = 16 * LIMITS.texture_width
        assert len(data) % row == 0 and len(data) >= 2 * 16 * len(program.instructions)
        # the rows the program uses, byte for byte; the rest of the texture is zero
        assert data == expected[: len(data)] and not any(expected[len(data):])
        assert not np.isnan(np.frombuffer(data, "<f4")).any()
    with_client(body)


def _deep_nest(depth: int, start: int) -> str:
    """Nested counted loops in a function called twice: about a second of width inference."""
    heads = "".join(f"for (let i{k} = 0; i{k} < 2; i{k}++) {{\n" for k in range(depth))
    return (f"fun f(a) {{\n{heads}a = a - 1;\n" + "}\n" * depth
            + f"a\n}}\nlet c = f({start}) + f(uv().x);\nfloat4(c, c, 0, 1)\n")


def test_a_burst_of_compiles_runs_only_the_newest(monkeypatch) -> None:
    """Four compiles posted while the first runs: the first is stopped, the two in between
    never start, and only the newest runs to the end, on the one compile thread."""
    import psl.serve.compiles as compiles_module
    from psl.serve.app import COMPILES

    # The first compile holds the worker until all four are posted, so the test does not
    # depend on how fast a cancelled compile unwinds.
    posted = threading.Event()
    run = compiles_module._run

    def held(*args):
        posted.wait(30)
        return run(*args)

    monkeypatch.setattr(compiles_module, "_run", held)

    async def body(client: TestClient) -> None:
        compiles = client.app[COMPILES]

        async def until(done: Callable[[], bool]) -> None:
            for _ in range(2000):
                if done():
                    return
                await asyncio.sleep(0.005)
            raise AssertionError("timed out")

        async def post(source: str) -> tuple[int, dict]:
            resp = await post_json(client, "/api/compile", {"source": source})
            return resp.status, await resp.json()

        posts = []
        for k in range(4):
            posts.append(asyncio.create_task(post(_deep_nest(60, k))))
            await until(lambda k=k: compiles.newest == k + 1)  # in this order
            if k == 0:
                await until(lambda: compiles.started == 1)  # the first is running
        posted.set()
        replies = await asyncio.gather(*posts)
        assert [status for status, _ in replies] == [409, 409, 409, 200]
        assert all(reply.get("superseded") for _, reply in replies[:3])
        newest = replies[3][1]
        assert newest["ok"] and "W008" in {d["code"] for d in newest["diagnostics"]}
        assert (compiles.started, compiles.finished) == (2, 1)
        assert len(compiles.executor._threads) == 1  # no thread per request
    with_client(body)


def test_compile_matches_the_cli_bytes(tmp_path: Path) -> None:
    src = tmp_path / "p.psl"
    src.write_text(GOOD)
    out = tmp_path / "p.bin"
    subprocess.run([sys.executable, "-m", "psl.cli", "compile", str(src), "--format",
                    "texture", "-o", str(out)], check=True)

    async def body(client: TestClient) -> None:
        reply = await (await post_json(client, "/api/compile", {"source": GOOD})).json()
        data = base64.b64decode(reply["texture"])
        assert data == out.read_bytes()[: len(data)]
    with_client(body)


def test_language_comes_from_the_registry() -> None:
    async def body(client: TestClient) -> None:
        lang = await (await client.get("/api/language.json")).json()
        assert lang["keywords"] == list(KEYWORDS)
        assert "sin" in lang["builtins"] and "audiolinkdata" in lang["builtins"]
        assert lang["operators"].index("<=") < lang["operators"].index("<")
    with_client(body)


def test_reference_settings_are_spec_9() -> None:
    async def body(client: TestClient) -> None:
        ref = await (await client.get("/api/reference.json")).json()
        assert (ref["width"], ref["height"], ref["time"]) == (64, 64, 1.25)
        cam = np.frombuffer(base64.b64decode(ref["camera"]["data"]), "<f4").reshape(64, 64, 4)
        assert cam[3, 5].tolist() == pytest.approx([5 / 63, 3 / 63, 0, 1])
    with_client(body)


# ------------------------------------------------------------------ the program file

def test_program_without_file_is_the_default() -> None:
    async def body(client: TestClient) -> None:
        prog = await (await client.get("/api/program")).json()
        assert prog["file"] is None and prog["can_save"] is False
        assert compile_source(prog["source"]).ok
    with_client(body)


def test_save_only_on_request_and_conflicts(tmp_path: Path) -> None:
    path = tmp_path / "prog.psl"
    path.write_text(GOOD)

    async def body(client: TestClient) -> None:
        prog = await (await client.get("/api/program")).json()
        assert prog["source"] == GOOD and prog["can_save"]
        # compiling never writes the file
        await post_json(client, "/api/compile", {"source": BAD})
        assert path.read_text() == GOOD
        # an explicit save writes it
        resp = await post_json(client, "/api/save",
                               {"source": "1\n", "base_version": prog["version"]})
        assert resp.status == 200
        saved = await resp.json()
        assert saved["saved"] and path.read_text() == "1\n"
        # the disk changes behind the page's back: a save from the old version is refused
        path.write_text("2\n")
        resp = await post_json(client, "/api/save",
                               {"source": "3\n", "base_version": saved["version"]})
        assert resp.status == 409
        conflict = await resp.json()
        assert conflict["conflict"] and conflict["disk_source"] == "2\n"
        assert path.read_text() == "2\n"
        # unless the user chooses to overwrite
        resp = await post_json(client, "/api/save", {"source": "3\n", "overwrite": True,
                                                     "base_version": saved["version"]})
        assert resp.status == 200 and path.read_text() == "3\n"
    with_client(body, ServeOptions(program=path))


def test_disk_changes_reach_the_websocket(tmp_path: Path) -> None:
    path = tmp_path / "prog.psl"
    path.write_text(GOOD)

    async def body(client: TestClient) -> None:
        ws = await client.ws_connect("/api/events")
        await asyncio.sleep(0.1)
        path.write_text("float3(1, 0, 0)\n")
        msg = await asyncio.wait_for(ws.receive_json(), timeout=5)
        assert msg["type"] == "file" and msg["source"] == "float3(1, 0, 0)\n"
        await ws.close()
    with_client(body, ServeOptions(program=path, poll_seconds=0.05))


# ------------------------------------------------------------------ the command

def test_cli_prints_the_real_url_for_port_0(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "psl.cli", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("psl serve: http://127.0.0.1:"), line
        port = int(line.split(":")[3].split("/")[0])
        assert port != 0
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_cli_port_in_use_is_a_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        start = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "psl.cli", "serve", "--port", str(port)],
                              capture_output=True, text=True, timeout=30)
    assert proc.returncode == 1 and "cannot listen" in proc.stderr
    assert "Traceback" not in proc.stderr and time.monotonic() - start < 30


def test_vrchat_facts_are_the_worlds() -> None:
    from psl import registry
    from psl.gen import world_programs as wp

    async def body(client: TestClient) -> None:
        info = await (await client.get("/api/vrchat.json")).json()
        assert info["source_limit"] == registry.LIMITS.source_chars
        assert info["trusted_hosts"] == list(wp.TRUSTED_HOSTS)
        assert info["trusted_wildcards"] == list(wp.TRUSTED_WILDCARDS)
        assert "raw.githubusercontent.com" not in info["trusted_hosts"]
    with_client(body)
