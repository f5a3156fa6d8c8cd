// The PSL extension: highlighting comes from the generated grammar; everything else from
// the `psl lsp` language server, started over stdio.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function serverOptions() {
  const config = vscode.workspace.getConfiguration("psl");
  const python = (config.get("pythonPath") || "").trim();
  const extra = config.get("serverArgs") || [];
  // A configured interpreter runs the module, so psl need not be on PATH; otherwise the
  // `psl` script of whatever environment is active.
  const command = python || "psl";
  const args = python ? ["-m", "psl.cli", "lsp", ...extra] : ["lsp", ...extra];
  return { command, args, transport: TransportKind.stdio };
}

async function start(context) {
  const clientOptions = {
    documentSelector: [{ language: "psl" }],
    outputChannelName: "PSL",
  };
  client = new LanguageClient("psl", "PSL", serverOptions(), clientOptions);
  try {
    await client.start();
  } catch (err) {
    vscode.window.showErrorMessage(
      `PSL: could not start the language server (${err.message || err}). ` +
        "Install it from the psl checkout with `pip install '.[lsp]'` or set `psl.pythonPath`.");
  }
}

async function restart(context) {
  if (client) {
    await client.stop().catch(() => undefined);
  }
  await start(context);
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("psl.restartServer", () => restart(context)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("psl.pythonPath") ||
          event.affectsConfiguration("psl.serverArgs")) {
        restart(context);
      }
    }),
  );
  await start(context);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
