"""What a file or folder is by its name alone: documentation (by extension, or by its
folder's name), source code and its language, tests, a package's manifest. The survey
(project_survey.py) counts a tree's files by these; init's scopes name them."""

from __future__ import annotations

from .ranking.spans import YAML_SUFFIXES

# Documentation by file extension; the glob a scope's `include` names them by.
DOC_EXTENSIONS = {
    ".md": "*.md",
    ".markdown": "*.markdown",
    ".mdx": "*.mdx",
    ".rmd": "*.Rmd",  # R Markdown: an R package's vignettes
    ".qmd": "*.qmd",  # Quarto
    ".livemd": "*.livemd",  # Elixir's Livebook notebooks
    ".cheatmd": "*.cheatmd",  # ExDoc cheatsheets
    ".mdc": "*.mdc",  # Cursor's rules
    ".rst": "*.rst",
    ".adoc": "*.adoc",
    ".asciidoc": "*.asciidoc",
    ".org": "*.org",  # Org mode: Emacs packages' manuals (Magit's docs/magit.org)
    ".scd": "*.scd",  # scdoc: manual pages' source (alacritty's, sway's, foot's)
    ".rdoc": "*.rdoc",  # RDoc: Ruby projects' READMEs (Rails' activerecord/README.rdoc)
    ".feature": "*.feature",  # Gherkin: Cucumber's features (RSpec's user documentation)
    ".txt": "*.txt",  # only inside a documentation folder (see is_documentation)
    ".ipynb": "*.ipynb",  # Jupyter notebooks: read as their cells' text (ranking/notebooks.py)
    # Manual pages (roff), only inside a documentation folder (`man/man1/fzf.1`): elsewhere
    # `.1` ends a rotated log or a library's version.
    **{f".{section}": f"*.{section}" for section in range(1, 10)},
    # YAML, only inside a documentation folder and only when it is mostly prose (jq's
    # manual; yaml_documents.py): elsewhere it is settings.
    **{suffix: f"*{suffix}" for suffix in YAML_SUFFIXES},
}
# Source code by file extension.
LANGUAGES = {
    ".py": "Python", ".pyi": "Python",
    ".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript",
    ".ts": "TypeScript", ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript",
    ".go": "Go", ".rs": "Rust", ".java": "Java", ".kt": "Kotlin", ".kts": "Kotlin",
    ".scala": "Scala", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++",
    ".hpp": "C++", ".hh": "C++", ".cs": "C#", ".fs": "F#", ".swift": "Swift",
    ".m": "Objective-C", ".mm": "Objective-C", ".rb": "Ruby", ".php": "PHP", ".pl": "Perl",
    ".pm": "Perl", ".perl": "Perl", ".lua": "Lua", ".r": "R", ".jl": "Julia", ".ex": "Elixir",
    ".exs": "Elixir", ".erl": "Erlang", ".hs": "Haskell", ".ml": "OCaml", ".mli": "OCaml",
    ".clj": "Clojure", ".cljs": "Clojure", ".dart": "Dart", ".zig": "Zig", ".nim": "Nim",
    ".sh": "Shell", ".bash": "Shell", ".zsh": "Shell", ".fish": "Shell", ".nu": "Nushell",
    ".zsh-theme": "Shell",  # a zsh prompt theme (Oh My Zsh's themes/)
    ".csh": "Shell", ".tcsh": "Shell", ".elv": "Elvish", ".xsh": "Xonsh", ".ion": "Ion",
    ".ps1": "PowerShell", ".sql": "SQL", ".vue": "Vue", ".svelte": "Svelte", ".sol": "Solidity",
    ".tf": "Terraform", ".hrl": "Erlang", ".fsx": "F#", ".vb": "Visual Basic", ".vim": "Vim script",
    ".el": "Emacs Lisp", ".groovy": "Groovy", ".astro": "Astro",
    # Scheme, and the tree-sitter queries written in it (Helix's runtime/queries/).
    ".scm": "Scheme", ".ss": "Scheme", ".rkt": "Racket", ".lisp": "Common Lisp",
}  # fmt: skip
# Folder names that hold documentation whatever else they hold (examples, assets, the
# programs a tutorial builds).
DOC_FOLDER_NAMES = frozenset(
    {"docs", "doc", "documentation", "guide", "guides", "manual", "handbook", "wiki", "book",
     "tutorial", "tutorials", "adr", "adrs", "rfcs", "man", "pages"}
)  # fmt: skip


def named_for_docs(name: str) -> bool:
    """Whether a folder's name says it holds documentation (or a DocC catalog's: `X.docc`)."""
    lowered = name.lower()
    return lowered in DOC_FOLDER_NAMES or lowered.endswith(".docc")


# Folder names of tests: what markdown they hold is fixtures (mdBook's test books), not
# the project's documentation.
TEST_FOLDER_NAMES = frozenset(
    "test tests testdata test-data testsuite regress fixtures __tests__ __fixtures__ __testdata__"
    " __mocks__ __snapshots__".split()
)
# A folder with one of these at its top is a package: its source is code, however few its
# files beside its README and changelog (tracing's `tracing-serde/`: one `.rs` file).
PACKAGE_MANIFESTS = frozenset(
    {"Cargo.toml", "package.json", "pyproject.toml", "setup.py", "go.mod", "composer.json",
     "pom.xml", "build.gradle", "build.gradle.kts", "mix.exs", "Package.swift", "dune-project"}
)  # fmt: skip
