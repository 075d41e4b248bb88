"""Which language a file or an embedded block is written in: tables only.

File extensions and well-known names, shebang interpreters, Markdown fence
info strings, and the module that holds each
language's dialect. A new extension or fence name is a row here.
"""

from __future__ import annotations

EXTENSIONS = {
    ".py": "python",
    ".pyw": "python",
    ".ps1": "powershell",
    ".psm1": "powershell",
    ".sh": "shell",
    ".bash": "shell",
    ".zsh": "shell",
    ".ksh": "shell",
    ".mk": "make",
    ".dockerfile": "dockerfile",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "javascript",
    ".tsx": "javascript",
    ".mts": "javascript",
    ".cts": "javascript",
    ".go": "go",
    ".rs": "rust",
    ".swift": "swift",
    ".cs": "csharp",
    ".csx": "csharp",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".groovy": "groovy",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".php": "php",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".json": "json",
    ".ipynb": "notebook",
    ".tf": "terraform",
    ".tfvars": "terraform",
    ".md": "markdown",
    ".markdown": "markdown",
    ".html": "html",
    ".http": "http",
    ".rest": "http",
    ".htm": "html",
    ".txt": "prose",
    ".rst": "prose",
    ".xml": "prose",
    ".svg": "prose",
    ".css": "prose",
    ".csv": "prose",
}
# A Makefile's recipes and a Dockerfile's RUN lines are shell command lines (their
# shell is a region of its own: extract/regions.py).
NAMES = {
    "Rakefile": "ruby",
    "Gemfile": "ruby",
    "Guardfile": "ruby",
    "Jenkinsfile": "groovy",
    "Makefile": "make",
    "makefile": "make",
    "GNUmakefile": "make",
    "Dockerfile": "dockerfile",
    "Containerfile": "dockerfile",
}
# Names of variants (`Dockerfile.prod`, `Dockerfile.dev`): the part before the first dot.
VARIANTS = {"Dockerfile": "dockerfile", "Containerfile": "dockerfile"}
# The interpreter a `#!` line names: `#!/bin/sh`, `#!/usr/bin/env -S bash -e`, `#! python3`.
SHEBANG = r"#!\s*(?:/\S*/)?(?:env\s+(?:-\S+\s+)*)?([\w.-]+)"
# Interpreters a shebang names (version digits stripped: python3.12 -> python).
INTERPRETERS = {
    "python": "python",
    "python3": "python",
    "bash": "shell",
    "sh": "shell",
    "zsh": "shell",
    "dash": "shell",
    "ksh": "shell",
    "pwsh": "powershell",
    "node": "javascript",
    "deno": "javascript",
    "ruby": "ruby",
    "php": "php",
}
# Markdown info strings and notebook languages, mapped to a language.
FENCE_LANGUAGES = {
    "python": "python",
    "py": "python",
    "python3": "python",
    "ipython": "python",
    "powershell": "powershell",
    "ps1": "powershell",
    "pwsh": "powershell",
    "ps": "powershell",
    "sh": "shell",
    "bash": "shell",
    "shell": "shell",
    "console": "shell",
    "shell-session": "shell",
    "zsh": "shell",
    "curl": "shell",
    "js": "javascript",
    "javascript": "javascript",
    "ts": "javascript",
    "typescript": "javascript",
    "jsx": "javascript",
    "tsx": "javascript",
    "node": "javascript",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "rs": "rust",
    "swift": "swift",
    "cs": "csharp",
    "csharp": "csharp",
    "c#": "csharp",
    "java": "java",
    "kotlin": "kotlin",
    "kt": "kotlin",
    "groovy": "groovy",
    "jenkinsfile": "groovy",
    "rb": "ruby",
    "ruby": "ruby",
    "php": "php",
    "yaml": "yaml",
    "yml": "yaml",
    "json": "json",
    "hcl": "terraform",
    "terraform": "terraform",
    "tf": "terraform",
    "http": "http",
    "rest": "http",
}

# Languages whose code is scanned by a dialect: (module under apispec.lint.languages, class).
DIALECTS = {
    "python": ("python", "PythonDialect"),
    "shell": ("shell", "ShellDialect"),
    "powershell": ("powershell", "PowerShellDialect"),
    "javascript": ("javascript", "JavaScriptDialect"),
    "go": ("go", "GoDialect"),
    "csharp": ("csharp", "CSharpDialect"),
    "java": ("java", "JavaDialect"),
    # Kotlin and Groovy share Java's literals closely enough for the text path
    "kotlin": ("java", "JavaDialect"),
    "groovy": ("java", "JavaDialect"),
    "ruby": ("ruby", "RubyDialect"),
    "php": ("php", "PhpDialect"),
    "yaml": ("data", "YamlDialect"),
    "json": ("data", "JsonDialect"),
    "hcl": ("terraform", "TerraformDialect"),
    "http": ("http", "HttpDialect"),
}
# Languages that embed code in regions of another language (languages/embedded.py).
EMBEDDING = frozenset({"markdown", "html", "notebook", "terraform", "make", "dockerfile"})
