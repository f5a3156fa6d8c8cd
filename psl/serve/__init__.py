"""`psl serve`: a local browser playground for PSL programs.

The server (aiohttp) serves only its packaged page (psl/web/static/), the generated WebGL2
VM shader and a small JSON API; the page compiles as you type and renders with the WebGL
VM. Modules: app (routes), files (static files, the watched program file), build (compile
replies), language (editor data from the registry), server (start and stop).
"""

from __future__ import annotations

from psl.serve.app import ServeOptions, create_app
from psl.serve.server import RunningServer, start_server

__all__ = ["RunningServer", "ServeOptions", "create_app", "start_server"]
