"""Run the generated WebGL2 VM (psl-gen glsl + psl/web/static/render.js) in headless
Chromium on SwiftShader through Playwright (see browser.py)."""
