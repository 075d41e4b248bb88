// The VS Code client of `apispec lsp`: it starts the server and passes the settings on.
//
// Everything the extension shows (diagnostics, completion, hover, quick fixes,
// inlay hints) comes from the server, so VS Code, Neovim, Helix, Emacs and
// Sublime behave alike; this file only knows how to start `apispec lsp`.

import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

const SECTION = "apispec";
const LANGUAGES = [
  "python",
  "powershell",
  "shellscript",
  "javascript",
  "javascriptreact",
  "typescript",
  "typescriptreact",
  "go",
  "csharp",
  "java",
  "kotlin",
  "groovy",
  "ruby",
  "php",
  "yaml",
  "json",
  "markdown",
  "html",
];

let client: LanguageClient | undefined;

function command(): string {
  return vscode.workspace.getConfiguration(SECTION).get<string>("path") || "apispec";
}

function serverOptions(): ServerOptions {
  return { command: command(), args: ["lsp"], transport: TransportKind.stdio };
}

function clientOptions(): LanguageClientOptions {
  const selector = LANGUAGES.flatMap((language) => [
    { scheme: "file", language },
    { scheme: "untitled", language },
  ]);
  return {
    documentSelector: selector,
    // The server asks for the `apispec` section itself (workspace/configuration),
    // per workspace folder; this makes VS Code tell it when the section changes.
    synchronize: { configurationSection: SECTION },
    initializationOptions: { settings: vscode.workspace.getConfiguration(SECTION) },
    diagnosticCollectionName: SECTION,
  };
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  client = new LanguageClient(SECTION, "apispec", serverOptions(), clientOptions());
  try {
    await client.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(
      `apispec: could not start \`${command()} lsp\` (${message}). ` +
        "Install it with `pip install 'apispec-v2[lsp] @ git+https://github.com/apispec-v2/apispec'` or set `apispec.path`.",
    );
  }
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("apispec.restartServer", async () => {
      await client?.stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration(`${SECTION}.path`)) {
        await client?.stop();
        await start(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
