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
# Interpreters a shebang names (version digits stripped: python3.12 -> python); after
# `env`, its options and VAR=value assignments are passed over (`env -S python3 -u`).
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
# Standard input with neither a name nor a shebang: the language whose marks its first
# lines show (patterns over whole lines, `re.M`). A mark of a `DECISIVE` language settles
# it (PHP pages, HTML and Markdown embed other languages); otherwise exactly one language
# must show a mark, or the language is unknown and the user is asked to name it.
SNIFFS = (
    ("php", r"<\?php\b"),
    ("html", r"\A\s*<(?:!doctype\s+html|html)\b"),
    ("markdown", r"^(?:```|~~~)[\w+#-]*[ \t]*$"),
    (
        "python",
        r"^(?:from[ \t]+[\w.]+[ \t]+import[ \t]|import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*$"
        r"|[ \t]*def[ \t]+\w+[ \t]*\(.*\)[ \t]*(?:->[^:\n]*)?:[ \t]*$|if __name__ == )"
        r"|\b(?:requests|httpx)\.(?:get|post|put|patch|delete|head|request|Session|Client)\(",
    ),
    (
        "shell",
        r"^[ \t]*(?:(?:curl|wget|xh|jq)[ \t]|export[ \t]+[A-Za-z_]\w*=|set[ \t]+-[euxo]+\b"
        r"|(?:fi|done|esac)[ \t]*$|(?:if|while)[ \t]+\[\[?[ \t])",
    ),
    (
        "powershell",
        r"(?i)\b(?:Invoke-(?:RestMethod|WebRequest)|ConvertTo-Json|ConvertFrom-Json|Write-Host"
        r"|Write-Output|New-Object)\b|^[ \t]*param[ \t]*\(|\$\w+[ \t]*=[ \t]*@\{",
    ),
    (
        "javascript",
        r"^[ \t]*(?:(?:let|var)[ \t]+\w+[ \t]*=|import[ \t].*[ \t]from[ \t]*['\"]"
        r"|export[ \t]+(?:default|const|function|class)\b)|\brequire\(['\"]|\bawait[ \t]+fetch\(",
    ),
    ("go", r"^package[ \t]+\w+[ \t]*$|^func[ \t]+(?:\([^)\n]*\)[ \t]*)?\w+\("),
    (
        "java",
        r"^[ \t]*(?:package[ \t]+[\w.]+[ \t]*;|import[ \t]+(?:static[ \t]+)?[\w.*]+[ \t]*;)"
        r"|\bSystem\.out\.print|^[ \t]*(?:fun[ \t]+\w+[ \t]*\(|val[ \t]+\w+[ \t]*[:=])",
    ),
    ("csharp", r"^[ \t]*using[ \t]+[\w.]+[ \t]*;|^[ \t]*namespace[ \t]+[\w.]+|\bConsole\.Write"),
    (
        "ruby",
        r"^[ \t]*(?:require(?:_relative)?[ \t]+['\"]|def[ \t]+\w+[!?]?[ \t]*(?:\(.*\))?[ \t]*$"
        r"|end[ \t]*$)|\bputs[ \t]|\bNet::HTTP\b",
    ),
    (
        "terraform",
        r"^(?:data|resource|variable|provider|locals|output)[ \t]+(?:\"[\w-]+\"[ \t]*)*\{",
    ),
    ("http", r"^(?:GET|POST|PUT|PATCH|DELETE)[ \t]+\S+(?:[ \t]+HTTP/[\d.]+)?[ \t]*$"),
    ("yaml", r"\A---[ \t]*$|^[ \t]*-[ \t]+(?:name|hosts|uri|ansible\.builtin\.uri):"),
    ("json", r"\A\s*\{\s*\"[^\"\n]*\"\s*:"),
)
DECISIVE = ("php", "html", "markdown")
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


_ENV_ARGUMENT = frozenset(("-u", "--unset", "-C", "--chdir"))  # env options with a value


def shebang_language(line: str) -> str | None:
    """The language of the interpreter a `#!` line names, or None (not one we read)."""
    return INTERPRETERS.get(_interpreter(line[2:])) if line.startswith("#!") else None


def _interpreter(command: str) -> str:
    """The interpreter a shebang's command line names, version digits stripped:
    `/usr/bin/env -S python3.12 -u` -> `python`."""
    words = command.split()
    if words and words[0].rsplit("/", 1)[-1] == "env":
        words.pop(0)
        while words and (words[0].startswith("-") or "=" in words[0]):
            if words.pop(0) in _ENV_ARGUMENT and words:
                words.pop(0)
    if not words:
        return ""
    name = words[0].rsplit("/", 1)[-1]
    return name.rstrip("0123456789.") or name
