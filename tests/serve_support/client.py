"""The playground's app in the test process (aiohttp's TestClient), for the serve tests."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from psl.serve import ServeOptions, create_app
from tests.browser_support.browser import CHROMIUM_ARGS, chromium_path

Body = Callable[[TestClient], Awaitable[None]]


def with_client(body: Body, options: ServeOptions | None = None) -> None:
    """Run `body` against a fresh app in its own event loop."""
    async def main() -> None:
        async with TestClient(TestServer(create_app(options))) as client:
            await body(client)
    asyncio.run(main())


def post_json(client: TestClient, path: str, doc: object):
    return client.post(path, data=json.dumps(doc), headers={"Content-Type": "application/json"})


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Playwright) for the browser tests' module fixtures."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                               args=list(CHROMIUM_ARGS))
        try:
            yield b
        finally:
            b.close()
