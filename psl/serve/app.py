"""The playground's aiohttp application: the page, the VM shader and a small JSON API.

GET  /                     the page (psl/web/static/index.html)
GET  /static/{path}        packaged static files only (no traversal, fixed suffixes)
GET  /api/language.json    keywords, builtins, operators (from psl.registry)
GET  /api/reference.json   SPEC §9 settings and textures for the page's test mode
GET  /api/vrchat.json      the "for VRChat" view's facts: source limit, trusted hosts
POST /api/vrchat-text      {"source", "sliders": {index: value}} -> the text for the world,
                           its slider lines' defaults set to those values
GET  /api/examples         the example programs (the world's): names, slider counts
GET  /api/examples/{name}  one example's text
GET  /api/shader/{name}    the generated WebGL2 VM (vm.frag)
GET  /api/program          the program: FILE's text and version, or the default program
POST /api/compile          {"source"[, "native": true]} -> diagnostics, the slider table
                           and base64 float32 slots (and the exported GLSL, or why not,
                           with "native"); 409
                           {"superseded": true} when a newer compile came first
POST /api/save             {"source", "base_version", "overwrite"} -> saved, or 409 conflict
GET  /api/events           websocket: {"type": "file", "source", "version"} on disk changes
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSMsgType, web

from psl.registry import DEFAULT_OPTIMIZE_LEVEL
from psl.serve.build import reference_settings
from psl.serve.compiles import Compiles
from psl.serve.examples import example_list, example_source
from psl.serve.files import ProgramFile, UnsafePath, content_type, static_file
from psl.serve.language import language_description
from psl.serve.shader import ShaderUnavailable, shader_sources
from psl.serve.vrchat import vrchat_description, world_text
from psl.userfiles import UserFileError

log = logging.getLogger("psl.serve")

#: Request bodies above this are refused (413). A program is at most 16,000 UTF-16 units
#: (LIMITS.source_chars), well under this even as JSON.
MAX_BODY = 64 * 1024
DEFAULT_PROGRAM = Path(__file__).with_name("default.psl")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class ServeOptions:
    program: Path | None = None  # FILE, watched and saved on request; None: default program
    max_body: int = MAX_BODY
    poll_seconds: float = 0.25  # how often FILE's stat is checked
    #: Host header names accepted (None: any). Pinning them stops DNS rebinding: another
    #: site's name resolving to 127.0.0.1 cannot make the page's origin its own.
    allowed_hosts: frozenset[str] | None = None
    #: compile level of the page's programs (SPEC §10, §11), `psl serve -O`
    optimize: int = DEFAULT_OPTIMIZE_LEVEL


PROGRAM_FILE = web.AppKey("program_file", ProgramFile)
OPTIONS = web.AppKey("options", ServeOptions)
SOCKETS = web.AppKey("sockets", set)
COMPILES = web.AppKey("compiles", Compiles)


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuses oversize bodies and cross-site requests with a clear 4xx, and turns every
    other failure into a JSON error instead of a traceback page."""
    if request.method == "POST":
        limit = request.app[OPTIONS].max_body
        if request.content_length is not None and request.content_length > limit:
            return _error(413, f"request body too large: {request.content_length} bytes "
                               f"(limit {limit})")
        if request.content_type != "application/json":
            # A JSON body cannot come from a plain cross-site form post without a preflight
            # this server never answers, so other sites cannot compile or save through it.
            return _error(415, "send the request body as application/json")
    allowed = request.app[OPTIONS].allowed_hosts
    if allowed is not None and _hostname(request.host) not in allowed:
        return _error(421, f"host {request.host!r} is not served here")
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{request.host}":
        return _error(403, f"requests from {origin} are not allowed")
    try:
        return await handler(request)
    except web.HTTPRequestEntityTooLarge:
        return _error(413, f"request body too large (limit {request.app[OPTIONS].max_body})")
    except web.HTTPException:
        raise
    except Exception:
        log.exception("error handling %s %s", request.method, request.path)
        return _error(500, "internal error in psl serve (details in its log)")


def _hostname(host: str) -> str:
    """`name:port`, `[v6]:port` or `name` -> the name (lower case)."""
    host = host.lower()
    if host.startswith("["):
        return host[: host.find("]") + 1]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


async def _json_body(request: web.Request) -> dict[str, object]:
    try:
        body = await request.json()
    except LookupError:  # a charset Python does not know (the request's to choose)
        raise web.HTTPUnsupportedMediaType(
            text=json.dumps({"error": f"unsupported charset {request.charset!r}"}),
            content_type="application/json") from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, bad UTF-8, too deep
        why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise web.HTTPBadRequest(text=json.dumps({"error": f"invalid JSON: {why}"}),
                                 content_type="application/json") from None
    if not isinstance(body, dict) or not isinstance(body.get("source"), str):
        raise web.HTTPBadRequest(text=json.dumps({"error": 'expected {"source": "..."}'}),
                                 content_type="application/json")
    return body


def _file_response(path: Path) -> web.FileResponse:
    # The page is small and changes with the installed psl: never cache it.
    return web.FileResponse(path, headers={"Content-Type": content_type(path),
                                           "Cache-Control": "no-store",
                                           "X-Content-Type-Options": "nosniff"})


async def index(request: web.Request) -> web.StreamResponse:
    return _file_response(static_file("index.html"))


async def static(request: web.Request) -> web.StreamResponse:
    try:
        path = static_file(request.match_info["path"])
    except UnsafePath:
        return _error(404, "no such file")
    return _file_response(path)


async def language(request: web.Request) -> web.Response:
    return web.json_response(language_description())


async def reference(request: web.Request) -> web.Response:
    return web.json_response(reference_settings())


async def vrchat(request: web.Request) -> web.Response:
    return web.json_response(vrchat_description())


async def vrchat_text(request: web.Request) -> web.Response:
    body = await _json_body(request)
    # the values are the page's, that is the URL's (share links): world_text ignores junk
    return web.json_response(world_text(body["source"], body.get("sliders")).as_dict())


async def examples(request: web.Request) -> web.Response:
    return web.json_response({"examples": example_list()})


async def example(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    try:
        source = example_source(name)
    except KeyError:
        return _error(404, "no such example")
    return web.json_response({"name": name, "source": source})


async def shader(request: web.Request) -> web.Response:
    try:
        sources = shader_sources()
    except ShaderUnavailable as exc:
        return _error(503, str(exc))
    text = sources.get(request.match_info["name"])
    if text is None:
        return _error(404, "no such shader")
    return web.Response(text=text, content_type="text/plain",
                        headers={"Cache-Control": "no-store"})


async def program(request: web.Request) -> web.Response:
    pf = request.app.get(PROGRAM_FILE)
    if pf is None:
        return web.json_response({"file": None, "source": DEFAULT_PROGRAM.read_text("utf-8"),
                                  "version": None, "can_save": False})
    try:
        snap = pf.read()
    except UserFileError as exc:
        return _error(409, str(exc))
    return web.json_response({"file": pf.name, "source": snap.source,
                              "version": snap.version, "can_save": True})


async def compile_(request: web.Request) -> web.Response:
    body = await _json_body(request)
    # Compiling is CPU work of up to a second: it runs on the compile worker, off the event
    # loop (websockets, other requests), and a newer request supersedes it (compiles.py).
    reply = await request.app[COMPILES].compile(body["source"], body.get("native") is True)
    if reply is None:
        return web.json_response({"error": "superseded by a newer compile request",
                                  "superseded": True}, status=409)
    return web.json_response(reply)


async def save(request: web.Request) -> web.Response:
    pf = request.app.get(PROGRAM_FILE)
    if pf is None:
        return _error(405, "no FILE was given to psl serve: nothing to save to")
    body = await _json_body(request)
    base = body.get("base_version")
    if not isinstance(base, str):
        return _error(400, "expected base_version: the version the page loaded")
    try:
        result = pf.save(str(body["source"]), base, overwrite=body.get("overwrite") is True)
    except UserFileError as exc:  # read-only, full disk, not UTF-8 on disk, lone surrogate
        return _error(422, str(exc))
    if not result.saved:
        return web.json_response(
            {"saved": False, "conflict": True, "version": result.version,
             "disk_source": result.disk_source,
             "error": f"{pf.name} changed on disk since the page loaded it"}, status=409)
    await _broadcast(request.app, {"type": "saved", "version": result.version})
    return web.json_response({"saved": True, "version": result.version})


async def events(request: web.Request) -> web.StreamResponse:
    ws = web.WebSocketResponse(heartbeat=30)
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    try:
        async for msg in ws:
            if msg.type == WSMsgType.ERROR:
                break  # the page only listens; anything it sends is ignored
    finally:
        request.app[SOCKETS].discard(ws)
    return ws


async def _broadcast(app: web.Application, message: dict[str, object]) -> None:
    for ws in list(app[SOCKETS]):
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_json(message)


async def _watch(app: web.Application) -> None:
    pf = app[PROGRAM_FILE]
    interval = app[OPTIONS].poll_seconds
    while True:
        await asyncio.sleep(interval)
        snap = pf.poll()
        if snap is not None:
            await _broadcast(app, {"type": "file", "source": snap.source,
                                   "version": snap.version})


async def _watcher(app: web.Application):
    task = asyncio.create_task(_watch(app)) if PROGRAM_FILE in app else None
    yield
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _close_sockets(app: web.Application) -> None:
    # Open websockets would otherwise hold the shutdown until their heartbeat times out.
    for ws in list(app[SOCKETS]):
        await ws.close(code=1001, message=b"psl serve stopped")


async def _stop_compiles(app: web.Application) -> None:
    app[COMPILES].close()


async def not_found(request: web.Request) -> web.Response:
    return _error(404, "no such page")


def create_app(options: ServeOptions | None = None) -> web.Application:
    options = options or ServeOptions()
    app = web.Application(middlewares=[guard], client_max_size=options.max_body)
    app[OPTIONS] = options
    app[SOCKETS] = set()
    app[COMPILES] = Compiles(options.optimize)
    if options.program is not None:
        app[PROGRAM_FILE] = ProgramFile(options.program)
    app.cleanup_ctx.append(_watcher)
    app.on_shutdown.append(_close_sockets)
    app.on_cleanup.append(_stop_compiles)
    app.router.add_get("/", index)
    app.router.add_get("/static/{path:.*}", static)
    app.router.add_get("/api/language.json", language)
    app.router.add_get("/api/reference.json", reference)
    app.router.add_get("/api/vrchat.json", vrchat)
    app.router.add_post("/api/vrchat-text", vrchat_text)
    app.router.add_get("/api/examples", examples)
    app.router.add_get("/api/examples/{name}", example)
    app.router.add_get("/api/shader/{name}", shader)
    app.router.add_get("/api/program", program)
    app.router.add_post("/api/compile", compile_)
    app.router.add_post("/api/save", save)
    app.router.add_get("/api/events", events)
    app.router.add_route("*", "/{tail:.*}", not_found)
    return app
