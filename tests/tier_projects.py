"""Small projects the tier tests search: the qmd project (used against the fake and the
real qmd alike), a page and its translation, and the helper that writes any of them."""

from __future__ import annotations

from pathlib import Path

QMD_PROJECT_FILES = {
    "grimoires/loa/NOTES.md": (
        "# Project notes\n"
        "\n"
        "Some intro text.\n"
        "\n"
        "## Token budget\n"
        "\n"
        "The token budget caps how much context a skill receives.\n"
        "Budgets are counted in tokens.\n"
        "\n"
        "## Rollback\n"
        "\n"
        "If a deployment fails, roll back quickly.\n"
    ),
    "grimoires/loa/prd.md": (
        "# Product requirements\n\nThe pipeline falls back from qmd to ck to grep.\n"
        "Kubernetes is not used here.\n"
    ),
    # Spaces and parentheses: qmd:// URIs carry them verbatim.
    "grimoires/loa/sprint notes (draft 2).md": "# Sprint\n\nThe harbour crane was repaired.\n",
    "grimoires/loa/reality/api.md": "# API reality\n\nThe endpoint returns a lighthouse id.\n",
    ".claude/skills/implement/SKILL.md": "# Implement\n\nWrite the code for the sprint.\n",
}


def write_files(root: Path, files: dict[str, str]) -> Path:
    """Write {relative path: text} under root; the resolved root."""
    for relative, text in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return root.resolve()


# A folder to index with different masks: nested folders, other extensions, the folders
# and names qmd never indexes, a whitespace-only file, and (made by the test) symlinks.
SELECTION_FILES = {
    "top.md": "# top\n",
    "notes.txt": "notes\n",
    "guide.rst": "guide\n",
    "docs/a.md": "# a\n",
    "docs/b.rst": "b\n",
    "docs/deep/c.md": "# c\n",
    "docs/deep/d.MD": "# d\n",
    "archive/old.md": "# old\n",
    "blank.md": "  \n\n",
    "node_modules/dep/x.md": "# x\n",
    "build/out.md": "# out\n",
    "src/vendor/v.md": "# v\n",
    ".hidden/h.md": "# h\n",
    "docs/.draft.md": "# draft\n",
    "x1.md": "# x1\n",
    "y2.md": "# y2\n",
}
SELECTION_MASKS = (
    "**/*.md",
    "*.md",
    "./**/*.md",
    "**/*.{md,rst}",
    "**/*.md, *.txt",
    "docs/*",
    "[xy][0-9].md",
    "[!x]*.md",
    "docs/**",
)


def write_selection_tree(root: Path) -> Path:
    """SELECTION_FILES under root, plus a symlinked file and a symlinked folder."""
    write_files(root, SELECTION_FILES)
    (root / "linked.md").symlink_to(root / "top.md")
    (root / "linked-docs").symlink_to(root / "docs", target_is_directory=True)
    return root.resolve()


def translated_page(folder: str) -> dict[str, str]:
    """An English page and its Spanish translation under `folder` (`docs/en/docs/...`,
    `docs/es/docs/...`). The translation names the code more often, in a page a fraction
    as long: on the words both share (the code's) it would outrank the original."""
    code = "```python\napp.dependency_overrides[get_db] = override_get_db\n```\n"
    english = (
        "# Testing\n\nReplace what an endpoint receives while testing.\n\n"
        + "Some more explanation of the idea.\n" * 400
        + code
    )
    spanish = (
        "# Probar dependencias\n\nSobrescribe `get_db` con `dependency_overrides`: "
        f"`get_db` y `get_db`.\n\n{code}"
    )
    return {f"{folder}/en/docs/testing.md": english, f"{folder}/es/docs/testing.md": spanish}
